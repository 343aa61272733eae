// t_callthrow.cc - a C++ exception thrown through a function whose first call the inline
// patch moved into the pool slot. Built at -O0: ct_mid is `push %rbp; mov %rsp,%rbp;
// call ct_throw`, and the unwinder, leaving ct_throw, must find ct_mid's own frame (its
// original return address) to reach main's catch. Every third call throws.
#include <cstdio>
#include <stdexcept>

extern "C" {
unsigned ct_count; // unsigned: no UBSan overflow check before the call under SANITIZE

void ct_throw()
{
	if (++ct_count % 3 == 0)
		throw std::runtime_error("third");
}

void ct_mid()
{
	ct_throw();
	ct_count += 10;
}
}

int main()
{
	const int n = 900;
	unsigned long caught = 0;

	for (int i = 0; i < n; i++) {
		try {
			ct_mid();
		} catch (const std::runtime_error &e) {
			caught++;
		}
	}
	std::printf("ct_count %u, caught %lu\n", ct_count, caught);
	std::printf("expect ct_mid %d\n", n);
	std::printf("expect ct_throw %d\n", n);
	std::printf("expect_unwound ct_mid %lu\n", caught);
	std::printf("expect_unwound ct_throw %lu\n", caught);
	return 0;
}
