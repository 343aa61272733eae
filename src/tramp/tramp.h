/*
 * tramp.h - the interface between the assembly (tramp_body.S, tramp_stubs.S, calib.S,
 * callers_exit.S) and the C around it, declared once. The offsets the assembly uses are in
 * tramp_layout.h; the static asserts below tie them to the C structures.
 *
 * Hidden: every one of these is the shim's own, reached without the GOT.
 */
#ifndef TT_TRAMP_H
#define TT_TRAMP_H

#include <stdint.h>

#include "hot/thread.h"
#include "hot/traced_call.h"
#include "hot/tramp_layout.h"

/* ---- defined in assembly, used by C ------------------------------------------------------ */

/* The bodies an entry stub jumps to (function index in %r11d), per variant; the stubs are
 * written at run time (hook/stubs.c). */
extern char tt_body_rdtscp[], tt_body_lfence[], tt_body_mfence[], tt_body_cpuid[],
	tt_body_cpuid_nordtscp[], tt_body_none[], tt_body_mono[] TT_HIDDEN;

/* Their timed entries, for a counting stub (hook/slot_code.h), as PROLOGUE leaves a call to
 * time: rax = TLS offset, rdx = the counters, r11d = index, rax, rcx, rdx at TT_RZ_RAX, TT_RZ_RCX,
 * TT_RZ_RDX (tramp_layout.h). */
extern char tt_body_rdtscp_timed[], tt_body_lfence_timed[], tt_body_mfence_timed[],
	tt_body_cpuid_timed[], tt_body_cpuid_nordtscp_timed[], tt_body_none_timed[],
	tt_body_mono_timed[] TT_HIDDEN;

/* Bodies an inline hook's slot jumps to (function index in %r11), per variant. */
extern char tt_ibody_rdtscp[], tt_ibody_lfence[], tt_ibody_mfence[], tt_ibody_cpuid[],
	tt_ibody_cpuid_nordtscp[], tt_ibody_none[], tt_ibody_mono[] TT_HIDDEN;

/* Their timed entries, which a counting slot head jumps to as the body's PROLOGUE would go on
 * for a call to time (hook/slot_code.h): rax = TLS offset, rdx = the counters, r11d = index,
 * rax, rcx, rdx at TT_RZ_RAX, TT_RZ_RCX, TT_RZ_RDX(%rsp) and the caller's r11 at TT_RZ_R11(%rsp). */
extern char tt_ibody_rdtscp_timed[], tt_ibody_lfence_timed[], tt_ibody_mfence_timed[],
	tt_ibody_cpuid_timed[], tt_ibody_cpuid_nordtscp_timed[], tt_ibody_none_timed[],
	tt_ibody_mono_timed[] TT_HIDDEN;

/* Where the bodies' code lies: a return address in there is a traced call's. */
extern const char tt_bodies_start[], tt_bodies_end[] TT_HIDDEN;

/* Where a call whose thread forbade itself the TSC returns instead (notsc.c). */
extern char tt_untimed_return[] TT_HIDDEN;

/* calib.S: the empty function whose bracketed calls calibrate the overhead, and the entry an
 * inline hook's calibration patches. */
void tt_calib_empty(void) TT_HIDDEN;
extern char tt_calib_inline[] TT_HIDDEN;

/* calib.S: fn(a, b, c, d) entered with `gadget` (a `ret` byte) as its return address. */
void *tt_call_via(void *fn, void *gadget, const void *a, const void *b, const void *c,
		  const void *d) TT_HIDDEN;

/* callers_exit.S: an exit path that saves the whole extended state around
 * *tt_callers_exit_c (same arguments as tt_call_exit), tt_xsave_bytes big. */
void tt_callers_exit_xsave(struct tt_frame *f, uint64_t raw, uint32_t aux) TT_HIDDEN;
extern uint64_t tt_xsave_bytes TT_HIDDEN;
extern void (*tt_callers_exit_c)(struct tt_frame *f, uint64_t raw, uint32_t aux) TT_HIDDEN;

/* Defined in C, called or read by the assembly: hot/traced_call.h. */

/* ---- the layout the assembly assumes ------------------------------------------------------ */

_Static_assert(__builtin_offsetof(struct tt_tls, top) == TT_TLS_TOP, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_tls, limit) == TT_TLS_LIMIT, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_tls, in_shim) == TT_TLS_IN_SHIM, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_tls, thread) == TT_TLS_THREAD, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_tls, cpu_now) == TT_TLS_CPU_NOW, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, ret) == TT_FRAME_RET, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, start_ticks) == TT_FRAME_START,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, sp) == TT_FRAME_SP, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, stat) == TT_FRAME_STAT, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, rbx) == TT_FRAME_RBX, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, func) == TT_FRAME_FUNC, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, cpu) == TT_FRAME_CPU, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, child_ticks) == TT_FRAME_CHILD_TICKS,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, child_calls) == TT_FRAME_CHILD_CALLS,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, args) == TT_FRAME_ARGS, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_frame, retval) == TT_FRAME_RETVAL, "tramp_layout.h");
_Static_assert(sizeof(struct tt_frame) == TT_FRAME_SIZE, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_stats, slow_floor) == TT_FUNC_STATS_SLOW_FLOOR,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_stats, calls) == TT_FUNC_STATS_CALLS,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_stats, skip) == TT_FUNC_STATS_SKIP,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_stats, next_skip) == TT_FUNC_STATS_NEXT_SKIP,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_stats, passed) == TT_FUNC_STATS_PASSED,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_stats, warm) == TT_FUNC_STATS_WARM,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_stats, hist) == TT_FUNC_STATS_HIST,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_hist, count) == TT_HIST_COUNT, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_hist, min) == TT_HIST_MIN, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_hist, max) == TT_HIST_MAX, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_hist, total) == TT_HIST_TOTAL, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_hist, counts) == TT_HIST_COUNTS, "tramp_layout.h");
_Static_assert(TT_HIST_LINEAR == TT_HIST_LINEAR_ASM && TT_HIST_SUB_BITS == TT_HIST_SUB_BITS_ASM &&
		       TT_HIST_LINEAR_BITS == 10,
	       "tramp_layout.h: the exit's bucket index assumes 10 linear bits, 7 sub-bucket bits");
_Static_assert(__builtin_offsetof(struct tt_thread, frames) -
			       __builtin_offsetof(struct tt_thread, frame_floor) ==
		       sizeof(struct tt_frame),
	       "thread.h: the floor frame lies just below frames[0]");
_Static_assert(sizeof(struct tt_thread) <= TT_THREAD_ALIGN, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_tls, stats) == TT_TLS_STATS, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_tls, nstats) == TT_TLS_NSTATS, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_stats, words) == TT_FUNC_STATS_WORDS,
	       "tramp_layout.h");

/* The red zone: 128 bytes below %rsp, the bodies' slots within it even 8 bytes on (once the
 * return address is popped), apart, and below the parked registers. */
_Static_assert(TT_RZ_RAX == -8 && TT_RZ_RCX == TT_RZ_RAX - 8 && TT_RZ_RDX == TT_RZ_RCX - 8,
	       "tramp_layout.h: PROLOGUE parks rax, rcx, rdx in this order");
_Static_assert(TT_RZ_R11 - 8 >= -128 && TT_RZ_TARGET - 8 >= -128 && TT_XS_R11 >= -128,
	       "tramp_layout.h: red-zone slots within 128 bytes");
_Static_assert(
	TT_RZ_R11 < TT_RZ_TARGET - 8 && TT_RZ_TARGET < TT_XS_R11 && TT_RZ_JUMP < TT_RZ_RDX,
	"tramp_layout.h: the carried r11 below every other slot, the target below the saves");
_Static_assert(TT_RZ_READ_TS + 16 <= TT_RZ_READ_R11 && TT_RZ_READ_RBX < TT_RZ_RDX - 8,
	       "tramp_layout.h: the entry read's scratch below the parked registers");
_Static_assert(TT_XS_SIZE == -TT_XS_R11 && TT_XS_RAX == -16,
	       "tramp_layout.h: the inline exit's saves fill its frame, the return address above");
_Static_assert(TT_SLOW_CARRIED == -TT_SLOW_SAVED - 8 && TT_SLOW_ANSWER == TT_SLOW_CARRIED - 8,
	       "tramp_layout.h: the slow path's frame");

#endif /* TT_TRAMP_H */
