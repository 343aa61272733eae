/*
 * cache_refusal.c - see cache_refusal.h.
 */
#include <stdbool.h>

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

void tt_cache_rejected_say(void)
{
	static bool said; /* start-up and dlopen bookkeeping: one thread at a time */

	if (said)
		return;
	said = true;
	tt_warn("kept records of the cache failed their check (altered, forged, or kept under "
		"another key): not used, made again from the live code; see docs/security.md");
}
