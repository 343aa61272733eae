/*
 * sample_cache.c - see sample_cache.h. As calib_cache.c's files, named by a hash of the key
 * and holding the key itself:
 *
 *   tsctrace sampling costs 1
 *   key sig=00a00f11 cpu=AMD EPYC ... build=ef5b...
 *   count_got 1100
 *   count_inline 1290
 *   inline_known 1
 *   timed 182
 */
#include <stdio.h>
#include <string.h>

#include "base/cache_dir.h"
#include "runtime/sample_cache.h"

#define MAGIC "tsctrace sampling costs 1\n"

bool tt_sample_cache_load(const char *dir, const struct tt_calib_key *k,
			  struct tt_sample_costs *out)
{
	char buf[1024];
	const char *p = tt_cache_file_load_keyed(dir, "sample", MAGIC, k->text, buf, sizeof(buf));
	struct tt_sample_costs c = { 0 };

	if (!p)
		return false;
	if (!tt_cache_file_field(&p, "count_got", 10, &c.count_got) ||
	    !tt_cache_file_field(&p, "count_inline", 10, &c.count_inline) ||
	    !tt_cache_file_field(&p, "inline_known", 10, &c.inline_known) ||
	    !tt_cache_file_field(&p, "timed", 10, &c.timed) || *p || c.inline_known > 1 || !c.timed)
		return false;
	*out = c;
	return true;
}

void tt_sample_cache_store(const char *dir, const struct tt_calib_key *k,
			   const struct tt_sample_costs *c)
{
	char buf[1024];
	int n;

	n = snprintf(buf, sizeof(buf),
		     MAGIC "key %s\ncount_got %llu\ncount_inline %llu\ninline_known %llu\n"
			   "timed %llu\n",
		     k->text, (unsigned long long)c->count_got, (unsigned long long)c->count_inline,
		     (unsigned long long)c->inline_known, (unsigned long long)c->timed);
	tt_cache_file_store(dir, "sample", k->text, buf, n, sizeof(buf));
}
