/*
 * t_callentry.c - functions that start with a call, patched inline with the call moved into
 * the pool slot (pushing the original return address). ce0_outer and ce0_leaf are built at
 * -O0 (callentry0.c); ce2_first here at -O2 calls ce2_helper as its first instruction. After
 * each call main asks libceprobe.so whether the backtrace taken inside the callee showed the
 * function that made the moved call, and prints how often it did: a return address pointing
 * into the slot would show no name there. Built with -rdynamic, so dladdr names them.
 */
#include "tp.h"

void ce_probe(void);
int ce_probe_saw(const char *name);
void ce0_outer(void);
void ce0_leaf(void);
extern unsigned long ce0_total;

unsigned ce2_sum;

__attribute__((noinline, noclone)) unsigned ce2_helper(unsigned x)
{
	ce_probe();
	ce2_sum += x;
	return ce2_sum * 3;
}

/* -O2: `call ce2_helper` is its first instruction (ce2_helper keeps the stack aligned). */
__attribute__((noinline, noclone)) unsigned ce2_first(unsigned x)
{
	return ce2_helper(x) + ce2_sum;
}

#define N 1000

int main(void)
{
	unsigned i, r = 0, outer_seen = 0, leaf_seen = 0, first_seen = 0;
	uint64_t h = TP_FNV_INIT;

	for (i = 0; i < N; i++) {
		ce0_outer();
		outer_seen += ce_probe_saw("ce0_outer");
		leaf_seen += ce_probe_saw("ce0_leaf");
		r += ce2_first(i);
		first_seen += ce_probe_saw("ce2_first");
	}
	tp_fold(&h, &r, sizeof(r));
	tp_fold(&h, &ce0_total, sizeof(ce0_total));
	printf("ce0_total %lu, ce2_first sum %u, checksum %016" PRIx64 "\n", ce0_total, r, h);
	printf("in the callee's backtrace: ce0_outer %u/%u, ce0_leaf %u/%u, ce2_first %u/%u\n",
	       outer_seen, N, leaf_seen, N, first_seen, N);
	tp_expect(stdout, "ce0_outer", N);
	tp_expect(stdout, "ce0_leaf", N);
	tp_expect(stdout, "ce2_first", N);
	tp_expect(stdout, "ce2_helper", N);
	return 0;
}
