/*
 * t_sigmore.c SIDE-FILE - SA_SIGINFO handlers that interrupt traced calls and read the
 * interrupted context, on the thread's stack and on a sigaltstack, and handlers that
 * siglongjmp out of traced calls:
 *   A, B  sgm_trap executes int3 inside a traced call; the SIGTRAP handler (on the normal
 *         stack, then on the alternate stack) checks that uc_mcontext's %rip and %rsp are
 *         exactly those sgm_trap recorded just before (non-zero, inside the traced callee),
 *         that it runs on the stack it should, and makes a traced call itself
 *   C     an interval timer interrupts sgm_spin's loop (at an arbitrary instruction of the
 *         loop; SIGALRM on the normal stack, then on the alternate stack): the handler checks
 *         %rip lies in the loop and %rsp is sgm_spin's, and only then ends the spin
 *   D     the SIGTRAP handler calls sgm_jump (traced), which siglongjmps back to main out of
 *         the handler and out of sgm_trap: 1,000 times on the normal stack, 3,000 times on the
 *         alternate stack (8,000 abandoned frames: the shim's shadow stack fills twice)
 *   E     1,000 plain calls of sgm_after: counted and timed as usual
 * stdout carries only what every run computes alike; the expectations, some of which depend
 * on how often the timer fired, go to SIDE-FILE.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#define N_TRAP 1000
#define N_SPIN 10
#define N_JUMP_NORMAL 1000
#define N_JUMP_ALT 3000
#define N_AFTER 1000
#define ALT_SIZE (1 << 16)

extern unsigned long sgm_trap_count, sgm_spin_count, sgm_leaf_count, sgm_jump_count,
	sgm_after_count;
extern uintptr_t sgm_trap_rip, sgm_trap_rsp, sgm_spin_lo, sgm_spin_hi, sgm_spin_rsp;
long sgm_trap(long x);
long sgm_spin(volatile int *flag);
long sgm_leaf(long x);
void sgm_jump(sigjmp_buf *jb, int v);
long sgm_after(long x);

static char altstack[ALT_SIZE] __attribute__((aligned(64)));
static sigjmp_buf sjb;
static volatile int jump_mode, want_alt, spin_stop;
static volatile unsigned long traps, bad, alarms, in_loop;

/* The handler runs on the alternate stack (want_alt) or below the interrupted %rsp. */
static int stack_ok(uintptr_t rsp)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	int on_alt = here >= (uintptr_t)altstack && here < (uintptr_t)altstack + ALT_SIZE;

	return want_alt ? on_alt : (!on_alt && here < rsp);
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t rsp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];

	(void)sig;
	(void)si;
	traps++;
	if (rip == 0 || rsp == 0 || rip != sgm_trap_rip || rsp != sgm_trap_rsp || !stack_ok(rsp))
		bad++;
	if (sgm_leaf((long)traps) != (long)traps * 3 + 1)
		bad++;
	if (jump_mode)
		sgm_jump(&sjb, 1); /* out of the handler and of sgm_trap */
}

static void on_alarm(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t rsp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];

	(void)sig;
	(void)si;
	alarms++;
	if (sgm_leaf((long)alarms) != (long)alarms * 3 + 1)
		bad++;
	if (rip >= sgm_spin_lo && rip < sgm_spin_hi) {
		/* Inside the spin loop: the context must be sgm_spin's. */
		if (rsp != sgm_spin_rsp || !stack_ok(rsp))
			bad++;
		in_loop++;
		spin_stop = 1;
	}
}

static void handle(int sig, void (*h)(int, siginfo_t *, void *), int onstack)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = h;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | (onstack ? SA_ONSTACK : 0);
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) != 0) {
		perror("sigaction");
		exit(1);
	}
	want_alt = onstack;
}

static void timer(long usec)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = usec;
	it.it_value.tv_usec = usec;
	setitimer(ITIMER_REAL, &it, NULL);
}

static void traps_phase(const char *name, int onstack)
{
	long i, wrong = 0;

	handle(SIGTRAP, on_trap, onstack);
	traps = bad = 0;
	for (i = 0; i < N_TRAP; i++)
		if (sgm_trap(i) != i * 2 + 1)
			wrong++;
	printf("%s: %d calls, %lu traps, %lu bad contexts, %ld wrong results\n", name, N_TRAP,
	       traps, bad, wrong);
}

static void spin_phase(const char *name, int onstack)
{
	int i;

	handle(SIGALRM, on_alarm, onstack);
	bad = in_loop = 0;
	timer(1000);
	for (i = 0; i < N_SPIN; i++) {
		spin_stop = 0;
		sgm_spin(&spin_stop);
	}
	timer(0);
	printf("%s: %d spins, %s, %lu bad contexts\n", name, N_SPIN,
	       in_loop >= N_SPIN ? "each ended by a signal inside its loop" : "ended otherwise?",
	       bad);
}

static void jump_phase(const char *name, int onstack, int n)
{
	volatile int i, jumped = 0;

	handle(SIGTRAP, on_trap, onstack);
	traps = bad = 0;
	jump_mode = 1;
	for (i = 0; i < n; i++) {
		if (sigsetjmp(sjb, 1) == 0)
			sgm_trap(i);
		else
			jumped++;
	}
	jump_mode = 0;
	printf("%s: %d traps, %d siglongjmps, %lu bad contexts\n", name, n, jumped, bad);
}

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	stack_t ss;
	long i, sum = 0;

	ss.ss_sp = altstack;
	ss.ss_size = sizeof(altstack);
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) != 0) {
		perror("sigaltstack");
		return 1;
	}
	traps_phase("trap, normal stack", 0);
	traps_phase("trap, alternate stack", 1);
	spin_phase("timer, normal stack", 0);
	spin_phase("timer, alternate stack", 1);
	jump_phase("siglongjmp, normal stack", 0, N_JUMP_NORMAL);
	jump_phase("siglongjmp, alternate stack", 1, N_JUMP_ALT);
	for (i = 0; i < N_AFTER; i++)
		sum += sgm_after(i);
	printf("after: sum %ld\n", sum);

	tp_expect(side, "sgm_trap", sgm_trap_count);
	tp_expect_unwound(side, "sgm_trap", N_JUMP_NORMAL + N_JUMP_ALT);
	tp_expect(side, "sgm_spin", sgm_spin_count);
	tp_expect_unwound(side, "sgm_spin", 0);
	tp_expect(side, "sgm_leaf", sgm_leaf_count);
	tp_expect_unwound(side, "sgm_leaf", 0);
	tp_expect(side, "sgm_jump", sgm_jump_count);
	tp_expect_unwound(side, "sgm_jump", sgm_jump_count);
	tp_expect(side, "sgm_after", sgm_after_count);
	tp_expect_unwound(side, "sgm_after", 0);
	fprintf(side, "alarms %lu\n", alarms);
	fclose(side);
	return 0;
}
