/*
 * kept_file.h - a file of fixed-size records that runs keep for the runs after them (the
 * inline hooks' jump checks and relocation plans, hook/xref_cache.h, hook/plan_cache.h). Read
 * only when it is the user's alone (cache_dir.h: owner and mode checked on the opened
 * descriptor); each record's MAC is checked by hook/build_id_files.h.
 *
 * The file is a header (magic, the shim's version, the layout below), an index, then the
 * records in the caller's order, in pages of their own: each page of records (4 KiB) holds
 * as many whole records as fit, none straddles two, and the index holds the key of each
 * page's first record (its first fmt->key bytes). Loading maps it read-only; a look-up
 * searches the index (on the header's pages, touched by the load) and then the one page of
 * records that can hold the key: one page fault, where a binary search over the whole file
 * took one in each of the 64 KiB windows it stepped through (libc's 770 KB of plans: 5-8).
 * A record is returned only when it compares equal to the key: a damaged index costs a miss
 * (the caller makes the record again, and the file is written anew), never a wrong record.
 * The records are copied into memory of their own when the first one is added. Saving writes
 * the file whole under a temporary name (this process's id) and renames it over the old one:
 * a reader never sees half a file, and of two writers at once the last rename wins. A file
 * from another version, of another magic or layout, or whose length is not its count's, is
 * not used. Start-up bookkeeping only: one thread at a time.
 */
#ifndef TT_KEPT_FILE_H
#define TT_KEPT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the records of one kind of file are. */
struct tt_kept_format {
	char magic[8]; /* NUL-padded: a new layout of the records takes a new magic */
	size_t record; /* bytes of a record */
	size_t max;    /* records a file may hold: a larger count is not trusted */
	/* The records' first bytes that hold every field cmp reads (a multiple of 8, at most
	 * record): the index keeps these of each page's first record, and cmp is called on them
	 * as on a record. */
	size_t key;
	/* The records' order and key: two that compare equal are one record (the newer kept). */
	int (*cmp)(const void *a, const void *b);
};

/* The header, as written (native byte order: a cache is this machine's). */
struct tt_kept_header {
	char magic[8];
	char version[24]; /* the shim's, NUL-padded: records may mean other things in another */
	uint32_t count;
	uint32_t record;
	uint32_t key;	/* bytes of an index entry: fmt->key */
	uint32_t per;	/* records in a page of records */
	uint32_t first; /* offset of the first page of records: after the header and the index */
	uint32_t pad;
};

/* One file's records; zeroed = empty, nothing loaded. */
struct tt_kept_file {
	void *rec;     /* malloc'd records (cap of them) once owned; NULL while only mapped */
	size_t n, cap; /* records held, room for them once owned */
	size_t sorted; /* the first records in order (the file's, all once saved): bsearch'd */
	/* The indexes of the records added since (n - sorted of them), in runs each in order:
	 * kept_file.c, find_added. Room for order_cap, twice cap: the second half is scratch. */
	uint32_t *order;
	size_t order_cap;
	void *map; /* the file, mapped read-only, until the first add */
	size_t map_len;
	size_t per, page;	   /* while mapped: records in a page of records, bytes of one */
	const char *index, *first; /* while mapped: the index, the first page of records */
	bool dirty;		   /* added to since loaded or saved */
};

/* Map the file at path into f (empty) when it is whole and of this format and version; false
 * (f left empty) when it is missing, a symbolic link (not followed), or not such a file. */
bool tt_kept_load(struct tt_kept_file *f, const struct tt_kept_format *fmt, const char *path);

/* The record of f whose key is key's (fmt->cmp), the newest added first; NULL when none. */
const void *tt_kept_find(const struct tt_kept_file *f, const struct tt_kept_format *fmt,
			 const void *key);

/* Add a copy of rec to f (a record of the same key replaces the older when f is saved); false
 * when f is full (fmt->max) or memory ran out. */
bool tt_kept_add(struct tt_kept_file *f, const struct tt_kept_format *fmt, const void *rec);

/* Sort f, drop the older of records with one key, and write it to path (through
 * path.<pid>.tmp, created exclusively: a link or another's file there makes it fail). The
 * directory must exist. f stays usable; false when the file was not written. */
bool tt_kept_save(struct tt_kept_file *f, const struct tt_kept_format *fmt, const char *path);

/* Let go of f's records (unmap or free); f is empty after. */
void tt_kept_close(struct tt_kept_file *f);

#endif /* TT_KEPT_FILE_H */
