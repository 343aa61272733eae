/*
 * kept_file.h - a file of fixed-size records that runs keep for the runs after them (the
 * inline hooks' jump checks and relocation plans, hook/xref_cache.h, hook/plan_cache.h).
 *
 * The file is a header (magic, the shim's version, the size of a record, their count), then
 * the records in the caller's order. Loading maps it read-only, so that a look-up touches only
 * the pages its binary search does; the records are copied into memory of their own when the
 * first one is added. Saving writes the file whole under a temporary name (this process's id)
 * and renames it over the old one: a reader never sees half a file, and of two writers at once
 * the last rename wins. A file from another version, of another record size or magic, or whose
 * length is not its count's, is not used. Start-up bookkeeping only: one thread at a time.
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
	/* The records' order and key: two that compare equal are one record (the newer kept). */
	int (*cmp)(const void *a, const void *b);
};

/* The header, as written (native byte order: a cache is this machine's). */
struct tt_kept_header {
	char magic[8];
	char version[24]; /* the shim's, NUL-padded: records may mean other things in another */
	uint32_t count;
	uint32_t record;
};

/* One file's records; zeroed = empty, nothing loaded. */
struct tt_kept_file {
	void *rec;     /* the records: into map while only read, else malloc'd (cap of them) */
	size_t n, cap; /* records held, room for them once owned */
	size_t sorted; /* the first records in order (the file's, all once saved): bsearch'd */
	void *map;     /* the file, mapped read-only, until the first add */
	size_t map_len;
	bool dirty; /* added to since loaded or saved */
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
