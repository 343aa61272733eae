/*
 * frame_rules.c - see frame_rules.h. Hot path: -mgeneral-regs-only, no libc.
 */
#include "hot/callers.h"
#include "hot/frame_rules.h"

struct tt_rule_slot *tt_frame_rules;
uintptr_t tt_frame_shim_lo, tt_frame_shim_hi;

/* A CFA this far above the stack pointer is no frame's: the walk gives up. */
#define MAX_FRAME_BYTES (1ull << 24)

uint64_t tt_rule_pack(enum tt_rule_kind k, int64_t cfa_off, bool rbp_saved, int64_t rbp_off)
{
	if (k != TT_RULE_RSP && k != TT_RULE_RBP)
		return (uint64_t)k;
	if (cfa_off != (int32_t)cfa_off || rbp_off != (int16_t)rbp_off)
		return TT_RULE_SLOW;
	return (uint64_t)k | ((uint64_t)(uint32_t)(int32_t)cfa_off << 8) |
	       ((uint64_t)rbp_saved << 40) | ((uint64_t)(uint16_t)(int16_t)rbp_off << 48);
}

static uint32_t slot_of(uint64_t ip)
{
	return (uint32_t)((ip * 0x9e3779b97f4a7c15ull) >> 50) & (TT_RULE_SLOTS - 1);
}

uint64_t tt_rule_find(uint64_t ip)
{
	struct tt_rule_slot *tab = __atomic_load_n(&tt_frame_rules, __ATOMIC_ACQUIRE);
	uint32_t i, s = slot_of(ip);

	if (!tab)
		return 0;
	for (i = 0; i < TT_RULE_PROBES; i++, s = (s + 1) & (TT_RULE_SLOTS - 1)) {
		uint64_t k = __atomic_load_n(&tab[s].ip, __ATOMIC_ACQUIRE), rule;

		if (!k)
			return 0;
		if (k != ip)
			continue;
		rule = __atomic_load_n(&tab[s].rule, __ATOMIC_ACQUIRE);
		/* Still ip's: a forget and a new address in between would have changed it. */
		return __atomic_load_n(&tab[s].ip, __ATOMIC_ACQUIRE) == ip ? rule : 0;
	}
	return 0;
}

void tt_rule_add(uint64_t ip, uint64_t rule)
{
	struct tt_rule_slot *tab = __atomic_load_n(&tt_frame_rules, __ATOMIC_ACQUIRE);
	uint32_t i, s = slot_of(ip);

	if (!tab || !ip || !rule)
		return;
	for (i = 0; i < TT_RULE_PROBES; i++, s = (s + 1) & (TT_RULE_SLOTS - 1)) {
		uint64_t k = 0;

		if (__atomic_compare_exchange_n(&tab[s].ip, &k, ip, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			__atomic_store_n(&tab[s].rule, rule, __ATOMIC_RELEASE);
			return;
		}
		if (k == ip)
			return; /* another thread has it */
	}
}

void tt_rule_forget_all(void)
{
	struct tt_rule_slot *tab = __atomic_load_n(&tt_frame_rules, __ATOMIC_ACQUIRE);
	uint32_t s;

	if (!tab)
		return;
	for (s = 0; s < TT_RULE_SLOTS; s++) {
		if (!__atomic_load_n(&tab[s].ip, __ATOMIC_RELAXED))
			continue; /* never written: its page stays untouched */
		__atomic_store_n(&tab[s].rule, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&tab[s].ip, 0, __ATOMIC_RELEASE);
	}
}

static bool in_shim(uint64_t ip)
{
	return ip >= tt_frame_shim_lo && ip < tt_frame_shim_hi;
}

/*
 * The traced call whose trampoline body the walk has reached, at its landing ip with the
 * stack pointer sp: the body called the function with the caller's stack pointer, so the
 * nearest frame below cur with that sp. NULL (libunwind's then) when ip is no landing, or
 * that call returns into the shim itself (a tail re-entry's origin, or a calibration call).
 */
static const struct tt_frame *enclosing(const struct tt_frame *cur, uint64_t ip, uint64_t sp)
{
	const struct tt_frame *p, *base = tt_tls.thread->frames;

	if (ip < tt_callers_landing_lo || ip >= tt_callers_landing_hi)
		return NULL;
	for (p = cur - 1; p >= base && p->sp <= sp; p--)
		if (p->sp == sp)
			return in_shim(p->ret) ? NULL : p;
	return NULL;
}

int tt_frame_walk(const struct tt_frame *f, uint64_t rbp, uint64_t *path, int depth)
{
	const struct tt_frame *from = f, *p;
	uint64_t ip, sp;
	int n = 0;

	/* A tail re-entry: one frame per traced call it came from, then the path of the call
	 * that was called (`from`), whose caller's %rbp the landing still has (every jump
	 * restored it), as the slow route's tail_frames and walk_cursor do. */
	while (n < depth && (p = tt_callers_tail_origin(from))) {
		path[n++] = TT_TAIL_FRAME | p->func;
		from = p;
	}
	if (n == depth)
		return n;
	ip = from->ret;
	sp = from->sp;
	if (in_shim(ip)) { /* the shim's own call (calibration): its return address alone */
		if (n)
			return 0;
		path[n++] = ip;
		return n;
	}
	for (;;) {
		uint64_t rule, cfa;
		int64_t cfa_off;

		path[n++] = ip;
		if (n == depth)
			return n;
		rule = tt_rule_find(ip);
		if ((rule & 0xff) == TT_RULE_END)
			return n;
		if ((rule & 0xff) != TT_RULE_RSP && (rule & 0xff) != TT_RULE_RBP)
			return 0; /* no rule yet, or one only libunwind follows */
		cfa_off = (int32_t)(uint32_t)(rule >> 8);
		cfa = ((rule & 0xff) == TT_RULE_RBP ? rbp : sp) + (uint64_t)cfa_off;
		/* A frame lies above the one it called: a rule that says otherwise was
		 * not met at this point of the code (or %rbp is not a frame's). */
		if (cfa <= sp || cfa - sp > MAX_FRAME_BYTES || (cfa & 7))
			return 0;
		if (rule & (1ull << 40))
			rbp = *(const uint64_t *)(cfa + (uint64_t)(int64_t)(int16_t)(rule >> 48));
		ip = *(const uint64_t *)(cfa - 8);
		sp = cfa;
		if (!ip)
			return n;
		if (in_shim(ip)) {
			/* An enclosing traced call's body, at its landing: go on from that call's
			 * caller, as the slow route's restart does. */
			from = enclosing(from, ip, sp);
			if (!from)
				return 0;
			ip = from->ret;
		}
	}
}
