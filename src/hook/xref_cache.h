/*
 * xref_cache.h - the answers of the foreign-jump check (x86/xref.h), kept between runs.
 *
 * Which jumps of an object land inside a function's first bytes depends only on the object's
 * code: an object with a GNU build ID gets the same answer in every run. Build systems and
 * test suites start the same programs hundreds of times, each paying a scan of libc's code
 * (about 1 ms here) for the same functions: the answers are kept in
 * $XDG_CACHE_HOME/tsctrace (else ~/.cache/tsctrace), one file per build ID, and a run whose
 * functions are all there skips the scan. A file from another version of the shim, or one
 * that does not read back whole, is ignored; failing to read or write one only costs the scan.
 */
#ifndef TT_XREF_CACHE_H
#define TT_XREF_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The question: the forbidden targets [lo, hi) and the function's own code [own_lo, own_hi),
 * as offsets from the object's load address; the answer: hit, from (offset too). */
struct tt_xref_answer {
	uint64_t lo, hi, own_lo, own_hi;
	uint64_t from;
	uint32_t hit;
	/* The jump was read from bytes no table says are code (x86/xref.h). */
	uint32_t unproven;
	uint64_t mac; /* written and checked by build_id_files.h */
};

/* Look the question of a up in the answers of the object with that build ID; true when
 * known (then a->hit, a->unproven and a->from are set). */
bool tt_xref_cache_get(const uint8_t *build_id, size_t len, struct tt_xref_answer *a);

/* Keep an answer (written out by tt_xref_cache_flush). */
void tt_xref_cache_put(const uint8_t *build_id, size_t len, const struct tt_xref_answer *a);

/* TSC_CACHE=0: neither read nor write any file (start-up, before the first hook). */
void tt_xref_cache_disable(void);

/* Write the files of objects that got new answers (temporary file, then rename). */
void tt_xref_cache_flush(void);

#endif /* TT_XREF_CACHE_H */
