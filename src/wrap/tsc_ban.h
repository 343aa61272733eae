/*
 * tsc_ban.h - a thread that may no longer read the TSC (prctl PR_SET_TSC in notsc.c, seccomp
 * strict mode in notsc.c and sandbox.c): its traced calls stop reading it (tsc_ban.c).
 */
#ifndef TT_TSC_BAN_H
#define TT_TSC_BAN_H

/* After the ban took effect in the calling thread: its traced calls from now on are counted
 * as dropped, never timed, and the calls in flight end without their second TSC read. Makes
 * no system call (strict seccomp kills for any but read, write, _exit and sigreturn). */
void tt_tsc_ban_here(void);

#endif /* TT_TSC_BAN_H */
