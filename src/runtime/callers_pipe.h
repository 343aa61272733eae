/*
 * callers_pipe.h - the descriptors libunwind holds for TSC_CALLERS=N>1, kept out of the
 * program's way.
 */
#ifndef TT_CALLERS_PIPE_H
#define TT_CALLERS_PIPE_H

/* Right after loading libunwind, before it unwinds: its pipe2, read, close and syscall calls
 * go through the shim from now on. code is an address in libunwind's code (one of its
 * functions). Where its GOT cannot be rewritten, its pipe stays as libunwind makes it. */
void tt_callers_pipe_take(const void *code);

#endif /* TT_CALLERS_PIPE_H */
