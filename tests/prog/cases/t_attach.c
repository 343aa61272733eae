/*
 * t_attach.c - a process for `tsctrace attach` to attach to (tests/prog/cases/attach*.sh).
 *
 * Reads commands on stdin, one a line, and answers each on stdout:
 *   go K        call attach_work K times, print "done K SUM"
 *   addr        print "addr HEX": attach_work's address (its bytes are read in /proc/PID/mem)
 *   threads N   start N threads calling attach_work in a loop, each counting its calls
 *   pause       the threads stop between two calls; print "paused COUNT" (their calls so far)
 *   resume      they go on; print "resumed"
 *   count       print "count COUNT" (running: the calls so far, give or take those in flight)
 *   quit        stop the threads, print "bye COUNT", exit 0
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 16

static atomic_ulong calls;  /* by the threads, each counted after its call returned */
static atomic_int paused;   /* 1: the threads wait */
static atomic_int waiting;  /* threads waiting now */
static atomic_int stopping; /* quit */
static pthread_t threads[MAX_THREADS];
static int nthreads;

__attribute__((noinline)) unsigned long attach_work(unsigned long x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 2654435761u + 1;
}

/* attach_jumped: a function no inline hook may take, for a jump (attach_jumper's, never run)
 * lands inside its first 5 bytes; attach hooks inline only, so it is not traced. */
__asm__(".text\n"
	".globl attach_jumped\n"
	".type attach_jumped, @function\n"
	"attach_jumped:\n"
	"lea 1(%rdi), %rax\n"
	"nop\n"
	"nop\n"
	"nop\n"
	"nop\n"
	"ret\n"
	".size attach_jumped, . - attach_jumped\n"
	".type attach_jumper, @function\n"
	"attach_jumper:\n"
	"jmp attach_jumped + 4\n"
	".size attach_jumper, . - attach_jumper\n");

static void *loop(void *arg)
{
	unsigned long sum = 0;

	(void)arg;
	while (!atomic_load(&stopping)) {
		if (atomic_load(&paused)) {
			atomic_fetch_add(&waiting, 1);
			while (atomic_load(&paused) && !atomic_load(&stopping))
				;
			atomic_fetch_sub(&waiting, 1);
			continue;
		}
		sum += attach_work(sum);
		atomic_fetch_add(&calls, 1);
	}
	return (void *)sum;
}

int main(void)
{
	char line[128];
	unsigned long k, i, sum;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "go %lu", &k) == 1) {
			for (i = 0, sum = 0; i < k; i++)
				sum += attach_work(i);
			printf("done %lu %lu\n", k, sum);
		} else if (strncmp(line, "addr", 4) == 0) {
			printf("addr %lx\n", (unsigned long)(void *)attach_work);
		} else if (sscanf(line, "threads %lu", &k) == 1) {
			for (i = 0; i < k && nthreads < MAX_THREADS; i++)
				pthread_create(&threads[nthreads++], NULL, loop, NULL);
			printf("started %d\n", nthreads);
		} else if (strncmp(line, "pause", 5) == 0) {
			atomic_store(&paused, 1);
			while (atomic_load(&waiting) < nthreads)
				;
			printf("paused %lu\n", atomic_load(&calls));
		} else if (strncmp(line, "resume", 6) == 0) {
			atomic_store(&paused, 0);
			printf("resumed\n");
		} else if (strncmp(line, "count", 5) == 0) {
			printf("count %lu\n", atomic_load(&calls));
		} else if (strncmp(line, "quit", 4) == 0) {
			break;
		}
	}
	atomic_store(&stopping, 1);
	for (i = 0; i < (unsigned long)nthreads; i++)
		pthread_join(threads[i], NULL);
	printf("bye %lu\n", atomic_load(&calls));
	return 0;
}
