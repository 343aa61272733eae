/*
 * altstack.h - running code whose stack use grows with its input (the C++ demangler: about
 * 0.4 KiB per nesting level or parameter of a name) on a stack of the shim's own, so that a
 * program thread with a small stack that exits, or calls dlopen, cannot overflow it.
 */
#ifndef TT_ALTSTACK_H
#define TT_ALTSTACK_H

#include <stdbool.h>
#include <stddef.h>

#define TT_ALTSTACK_BYTES (1u << 20) /* the demangler's worst case is under half of it */

/*
 * Call fn(arg) on a fresh stack of TT_ALTSTACK_BYTES with an inaccessible page below it
 * (raw mmap: no malloc, no lock; pages are committed only as they are touched), unmapped
 * after. False when no stack could be mapped: then fn(arg) has run on the caller's stack.
 */
bool tt_altstack_run(void (*fn)(void *), void *arg);

/*
 * The same on one stack mapped at the first call and kept for the process (no mapping made or
 * unmapped per call after that, nor its pages faulted in again): the calibration, then the
 * report. One call at a time has it: a call made while it is in use (another thread's, a
 * signal handler's) runs as tt_altstack_run does, as does one when it cannot be mapped.
 */
bool tt_altstack_run_kept(void (*fn)(void *), void *arg);

#endif /* TT_ALTSTACK_H */
