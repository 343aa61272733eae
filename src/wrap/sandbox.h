/*
 * sandbox.h - a program confining itself with seccomp (sandbox.c).
 */
#ifndef TT_SANDBOX_H
#define TT_SANDBOX_H

/* Before the real prctl(option, mode, ...): when it is PR_SET_SECCOMP, write the report now
 * (the sandbox may forbid what a report at exit needs). */
void tt_sandbox_prctl(int option, unsigned long mode);

#endif /* TT_SANDBOX_H */
