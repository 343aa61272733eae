/*
 * tramp_ladder.S - the bench's ladder only (bench/ladder.sh, `make -C bench ladder`): the
 * shim's bodies (src/tramp/tramp_body.S) with the timed path's last LADDER_STEP parts taken
 * out, to weigh each against the hand-inlined bracket. Such a build counts and records
 * nothing right: it is no tracer. Each step takes out, besides the steps before it:
 *   1  the histogram update and the caller's child ticks (EXIT_RECORD)
 *   2  the exit's tests (EXIT_TESTS; the TLS offset the release needs is still loaded)
 *   3  the entry's work before the first read: the countdown (the call always timed), the
 *      call counter, the frame's other fields, the CPU number, the arguments
 *   4  the guard test and the shadow stack's limit test
 * What is left: the stub and its jump, the counters' look-up for the target, the frame's
 * reservation and the four words the return needs, call, push/ret.
 *
 * LADDER_PAD=N moves every GOT body N bytes further past its 64-byte boundary, modulo 64
 * (never-executed int3s before its entry): the ladder builds each step at several such
 * layouts, because on the AMD EPYC VM the layout alone moves a call's cost by up to 6 ticks
 * (the same code 8 bytes further on), and a step compared at one layout measures the layout
 * as much as the part.
 *
 * Built by the top Makefile when LADDER_STEP is set, in place of tramp_bodies.S.
 */
#if !defined(LADDER_STEP) || !defined(LADDER_PAD)
#error "tramp_ladder.S: build it with make LADDER_STEP=N LADDER_PAD=P (bench/ladder.sh)"
#endif

#include "tramp/tramp_body.S"

#if LADDER_STEP >= 1
.purgem EXIT_RECORD
.macro EXIT_RECORD
.endm
#endif

#if LADDER_STEP >= 2
.purgem EXIT_TESTS
.macro EXIT_TESTS general
	movq	tt_tls@gottpoff(%rip), %r8	/* the release still needs it */
.endm
#endif

#if LADDER_STEP >= 3
.purgem COUNTDOWN
.macro COUNTDOWN timed
	jmp	\timed
.endm
.purgem COUNTDOWN_RELOAD
.macro COUNTDOWN_RELOAD
.endm
.purgem COUNT_AND_NAME
.macro COUNT_AND_NAME
.endm
.purgem FRAME_FIELDS
.macro FRAME_FIELDS
.endm
.purgem STORE_ARGS
.macro STORE_ARGS
.endm
#endif

#if LADDER_STEP >= 4
.purgem GUARD_TEST
.macro GUARD_TEST shim
.endm
.purgem LIMIT_TEST
.macro LIMIT_TEST slow
.endm
#endif

.purgem BODY_PLACE
.macro BODY_PLACE pad
	.p2align 6
.if (LADDER_PAD + \pad) & 63
	.skip	(LADDER_PAD + \pad) & 63, 0xcc
.endif
.endm

	.text
	BODIES
	UNTIMED_RETURN

	.section .note.GNU-stack, "", @progbits
