/*
 * slot_code.h - the code at the head of an inline hook's pool slot (pure: bytes only).
 *
 * The plain head saves the caller's %r11, loads the function's index into %r11d and jumps
 * to the inline body (tramp/tramp_body.S IBODY), which decides whether to time the call.
 * The counting head, used when sampling passes over most calls and no frame is wanted for
 * them (TSC_SAMPLE or TSC_BUDGET without TSC_CALLERS), takes that decision itself: a call
 * sampling passes over is counted in the slot and falls into the relocated entry that
 * follows, with only direct branches of its own (each function has its own, so interleaved
 * functions do not share one indirect jump) and this library's TLS offset as an immediate.
 * Every other call goes on to the body as from the plain head: to its timed entry when the
 * countdown ran out, to its start otherwise. Both heads keep every general register the
 * caller had (only the flags differ, as in the body).
 */
#ifndef TT_SLOT_CODE_H
#define TT_SLOT_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The plain head's bytes (the relocated entry goes at TT_SLOT_PLAIN_COPY). */
#define TT_SLOT_PLAIN_CODE 25
#define TT_SLOT_PLAIN_COPY 32
/* The counting head: its relocated entry right after it (the counted path falls into it),
 * the ways on to the body at TT_SLOT_COUNT_TAIL, after the longest copy. */
#define TT_SLOT_COUNT_COPY 91
#define TT_SLOT_COUNT_TAIL 176
#define TT_SLOT_COUNT_END 248 /* the counting slot's bytes: its pool slot is at least this */

struct tt_slot_head {
	uint32_t index;	    /* the function's */
	int32_t tls_offset; /* of struct tt_tls from the thread pointer */
	uint64_t body;	    /* the inline body's entry */
	uint64_t timed;	    /* its timed entry (IBODY's `timed` label), counting head only */
};

/* Whether function `index` can have a counting head (its stats-table entry within a disp32). */
bool tt_slot_can_count(uint32_t index);

/* Write the plain head at slot[0, TT_SLOT_PLAIN_CODE); the caller fills the rest. */
void tt_slot_write_plain(uint8_t *slot, const struct tt_slot_head *h);

/* Write the counting head at slot[0, TT_SLOT_COUNT_COPY) and its tail at
 * slot[TT_SLOT_COUNT_TAIL, TT_SLOT_COUNT_END); the relocated entry goes in between. */
void tt_slot_write_counting(uint8_t *slot, const struct tt_slot_head *h);

/*
 * The entry stub of a GOT hook (hook/stubs.c) that counts the same way: entered by a call
 * through a GOT slot or a dlsym answer (so r11 is free), the counted call leaves through an
 * indirect jump of its own, `jmp *target`, target the address of the function's words'
 * target (struct tt_func_words, never moved). Others go on to the GOT body as from the plain
 * stub (rax saved at -8, the TLS offset in rax, the index in r11d), or to its timed entry.
 * TT_STUB_COUNT_SIZE bytes; `body` and `timed` within a rel32 of the stub.
 */
#define TT_STUB_COUNT_SIZE 128

struct tt_stub_head {
	uint32_t index;
	int32_t tls_offset;
	uint64_t target; /* the address of the function's words' target */
	uint64_t body;	 /* the GOT body's entry */
	uint64_t timed;	 /* its timed entry (BODY's `timed` label) */
};

/* Write the counting stub at stub (which runs at its own address). */
void tt_stub_write_counting(uint8_t *stub, const struct tt_stub_head *h);

#endif /* TT_SLOT_CODE_H */
