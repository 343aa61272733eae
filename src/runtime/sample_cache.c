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
	char path[4200], buf[1024];
	const char *p = buf;
	size_t klen = strlen(k->text);
	struct tt_sample_costs c = { 0 };

	if (!dir[0] || !tt_cache_file_name(dir, "sample", k->text, path, sizeof(path)))
		return false;
	if (tt_cache_file_read(path, buf, sizeof(buf)) < 0)
		return false;
	if (strncmp(p, MAGIC, strlen(MAGIC)) != 0)
		return false;
	p += strlen(MAGIC);
	if (strncmp(p, "key ", 4) != 0 || strncmp(p + 4, k->text, klen) != 0 || p[4 + klen] != '\n')
		return false;
	p += 4 + klen + 1;
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
	char path[4200], buf[1024];
	int n;

	if (!dir[0] || !tt_cache_dir_make(dir))
		return;
	n = snprintf(buf, sizeof(buf),
		     MAGIC "key %s\ncount_got %llu\ncount_inline %llu\ninline_known %llu\n"
			   "timed %llu\n",
		     k->text, (unsigned long long)c->count_got, (unsigned long long)c->count_inline,
		     (unsigned long long)c->inline_known, (unsigned long long)c->timed);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return;
	if (tt_cache_file_name(dir, "sample", k->text, path, sizeof(path)))
		tt_cache_file_replace(path, buf, (size_t)n);
}
