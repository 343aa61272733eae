/*
 * frame_rules.h - TSC_CALLERS=N>1: the rule that finds a frame's caller, cached per return
 * address for the whole process, and the frame walk that follows the cached rules.
 *
 * libunwind costs ~0.5-2 us a call path (it starts at its own frame, meets the trampoline's,
 * whose rules it cannot cache, and steps on through its slow path, which blocks signals
 * around its cache with two system calls a frame). The walk here starts at the traced call's
 * caller (return address, %rsp and %rbp, from the shadow frame and the registers the function
 * restored), and follows per frame one cached rule: CFA = %rsp or %rbp + a constant, the
 * return address at CFA - 8, %rbp kept or saved at CFA + a constant (elf/cfi.h, read once
 * per address from .eh_frame outside the hot path). At any address without such a rule
 * (no entry yet, a signal frame, an expression) it gives up and the call's path is taken by libunwind as before, which
 * also fills the cache. So paths are the same; only their cost differs. The trampoline
 * body of an enclosing traced call is passed as the slow route passes it: the walk goes on
 * from that call's caller (its shadow frame's return address and stack pointer; %rbp as the
 * function left it, which the body does not touch).
 *
 * The table: TT_RULE_SLOTS slots of (address, rule), open addressing, mapped at start-up
 * (only the pages touched are resident), filled by the slow route, never grown: when it is
 * full, the addresses left out keep the slow route. dlclose empties it (addresses may be
 * reused by the next object).
 *
 * Hot path: general registers, no libc.
 */
#ifndef TT_FRAME_RULES_H
#define TT_FRAME_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "hot/thread.h"

#define TT_RULE_SLOTS (1u << 14) /* 256 KiB of (address, rule) pairs */
#define TT_RULE_PROBES 16	 /* slots tried before an address is left out */

/* A rule, packed in 64 bits: kind (low byte), CFA offset (bits 8-39, signed), %rbp saved
 * (bit 40), its offset from the CFA (bits 48-63, signed). Kind 0 is no rule. */
enum tt_rule_kind { TT_RULE_NONE, TT_RULE_SLOW, TT_RULE_RSP, TT_RULE_RBP, TT_RULE_END };

struct tt_rule_slot {
	uint64_t ip;   /* the return address; 0 free */
	uint64_t rule; /* 0 while being written */
};

/* Set at start-up (runtime/callers_deep.c): the table (NULL: no fast walk, every path by
 * libunwind), and the shim's executable range, where a walk gives up. */
extern struct tt_rule_slot *tt_frame_rules;
extern uintptr_t tt_frame_shim_lo, tt_frame_shim_hi;

/* Pack a rule of kind k (cfa_off and rbp_off only for RSP and RBP). */
uint64_t tt_rule_pack(enum tt_rule_kind k, int64_t cfa_off, bool rbp_saved, int64_t rbp_off);

/* The cached rule of return address ip, or 0. */
uint64_t tt_rule_find(uint64_t ip);

/* Cache rule for ip (outside the hot path, from the slow route). Silently left out when the
 * table is full where ip hashes. */
void tt_rule_add(uint64_t ip, uint64_t rule);

/* Forget every rule (after dlclose). */
void tt_rule_forget_all(void);

/*
 * The path of f's call (its caller's %rbp: rbp) into path, at most depth frames, by cached
 * rules only: the frame count, or 0 when the walk gave up (see above).
 */
int tt_frame_walk(const struct tt_frame *f, uint64_t rbp, uint64_t *path, int depth);

#endif /* TT_FRAME_RULES_H */
