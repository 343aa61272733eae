/*
 * t_static.c - direct calls that no GOT hook can see: static_step (a static function of this
 * program, called 10,000 times with plain `call`), and direct_run(7000) in libdirect.so, which
 * calls direct_leaf (exported, but called directly: -fno-semantic-interposition) and
 * hidden_leaf (hidden visibility) 7000 times each. direct_run itself is called through the
 * PLT. The checksums must not change when traced.
 */
#include "tp.h"

unsigned direct_run(unsigned n);

/* noinline, noclone: a real function keeping its exact name (no .constprop/.isra clone). */
__attribute__((noinline, noclone)) static unsigned static_step(unsigned x)
{
	unsigned y = x * 2654435761u + 12345u;

	__asm__ volatile("" : "+r"(y));
	return y ^ (y >> 15);
}

int main(void)
{
	unsigned i, a = 0, b = 1, r;
	uint64_t h = TP_FNV_INIT;

	for (i = 0; i < 10000; i++) {
		a += static_step(i + b);
		b = b * 3 + (a >> 7);
	}
	tp_fold(&h, &a, sizeof(a));
	tp_fold(&h, &b, sizeof(b));
	r = direct_run(7000);
	tp_fold(&h, &r, sizeof(r));
	printf("static_step sums %u %u, direct_run %u, checksum %016" PRIx64 "\n", a, b, r, h);
	tp_expect(stdout, "static_step", 10000);
	tp_expect(stdout, "direct_leaf", 7000);
	tp_expect(stdout, "hidden_leaf", 7000);
	tp_expect(stdout, "direct_run", 1);
	return 0;
}
