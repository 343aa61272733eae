/*
 * cache_refusal.c - see cache_refusal.h.
 */
#include "base/cache_dir.h"
#include "log/cache_refusal.h"
#include "log/log.h"

void tt_cache_refusal_say(void)
{
	const char *why = tt_cache_refusal_unsaid();

	if (why)
		tt_warn("%s: the cache is not used (nothing read or written there); see "
			"docs/security.md",
			why);
}
