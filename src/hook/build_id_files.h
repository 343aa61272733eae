/*
 * build_id_files.h - one kept file of records (base/kept_file.h) per loaded object, named by
 * the object's GNU build ID in the cache directory (base/cache_dir.h):
 * $XDG_CACHE_HOME/tsctrace/<build-id><suffix>. What start-up learns from an object's code is
 * the same in every run of that build: xref_cache and plan_cache keep theirs here, each record
 * under a MAC (below). An object
 * without a build ID, or past the first 64, keeps nothing. Start-up and dlopen bookkeeping
 * only (one thread at a time, under the loader lock).
 */
#ifndef TT_BUILD_ID_FILES_H
#define TT_BUILD_ID_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/kept_file.h"

#define TT_BUILD_ID_FILES_MAX 64

struct tt_build_id_file {
	char id[2 * 64 + 1]; /* the build ID in hex */
	struct tt_kept_file file;
};

/* One kind of kept file: a static, TT_BUILD_ID_FILES(&format, ".suffix"). */
struct tt_build_id_files {
	const struct tt_kept_format *fmt;
	const char *suffix;
	int dir_state; /* 0 not looked for yet, 1 usable, -1 none (or TSC_CACHE=0) */
	bool dir_made; /* made when first written: a run that only reads makes no call for it */
	char dir[512];
	size_t n;
	struct tt_build_id_file objects[TT_BUILD_ID_FILES_MAX];
};

#define TT_BUILD_ID_FILES(fmt_, suffix_)           \
	{                                          \
		.fmt = (fmt_), .suffix = (suffix_) \
	}

/* The records kept for the object with that build ID, its file loaded on first ask; NULL when
 * it keeps none (no build ID, no cache directory, disabled, too many objects). */
struct tt_kept_file *tt_build_id_file(struct tt_build_id_files *s, const uint8_t *build_id,
				      size_t len);

/*
 * Authenticated records (base/kept_mac.h): each record's last 8 bytes are its MAC under the
 * cache's secret key (base/cache_key.h) over the record and the object's build ID, so that
 * only the shim running as this user can write one it will use (docs/security.md).
 */

/* The record of key's key (s->fmt->cmp) kept for the object with that build ID, when its MAC
 * verifies; NULL when none is kept, or no key exists yet. *rejected is set true when one was
 * kept whose MAC does not verify: the caller says so (once) and makes the record again. */
const void *tt_build_id_find(struct tt_build_id_files *s, const uint8_t *build_id, size_t len,
			     const void *key, bool *rejected);

/* Keep a copy of rec (at most TT_BUILD_ID_RECORD_MAX bytes) for the object with that build
 * ID, its MAC written; the directory and the key are made if missing. Written out by
 * tt_build_id_files_flush. */
void tt_build_id_add(struct tt_build_id_files *s, const uint8_t *build_id, size_t len,
		     const void *rec);

#define TT_BUILD_ID_RECORD_MAX 512

/* TSC_CACHE=0: neither read nor write any file (start-up, before the first hook). */
void tt_build_id_files_disable(struct tt_build_id_files *s);

/* Write the files that were added to (temporary file, then rename). */
void tt_build_id_files_flush(struct tt_build_id_files *s);

#endif /* TT_BUILD_ID_FILES_H */
