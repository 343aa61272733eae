// t_cxxstack.cc - a C++ function whose demangled name takes the demangler deep (490
// parameters: about 200 KiB of stack to print), called from a thread with a 64 KiB stack
// that then ends the process with exit(): the report is written on that thread
// (cases_names.sh). The shim must demangle on a stack of its own.
#include <cstdio>
#include <cstdlib>
#include <pthread.h>

#define I10 int, int, int, int, int, int, int, int, int, int
#define I100 I10, I10, I10, I10, I10, I10, I10, I10, I10, I10
#define Z10 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define Z100 Z10, Z10, Z10, Z10, Z10, Z10, Z10, Z10, Z10, Z10

namespace ns {
volatile long sink;
__attribute__((noipa)) long wide(int a, I100, I100, I100, I100, I10, I10, I10, I10, I10, I10,
				    I10, I10, int, int, int, int, int, int, int, int, int)
{
	sink += a;
	return a;
}
} // namespace ns

static void *run(void *)
{
	long s = 0;

	for (int i = 0; i < 33; i++)
		s += ns::wide(i, Z100, Z100, Z100, Z100, Z10, Z10, Z10, Z10, Z10, Z10, Z10, Z10, 0, 0, 0,
			      0, 0, 0, 0, 0, 0);
	std::printf("sum %ld\n", s);
	std::fflush(stdout);
	std::exit(0);
}

int main()
{
	pthread_attr_t a;
	pthread_t t;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	if (pthread_create(&t, &a, run, nullptr) != 0)
		return 1;
	pthread_join(t, nullptr);
	return 2;
}
