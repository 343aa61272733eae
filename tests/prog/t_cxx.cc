// t_cxx.cc - C++ exceptions thrown through traced frames: through cx_thrower and cx_outer up
// to main, and through cx_thrower alone into cx_catcher. Calls left by an exception count in
// unwound; the unwinder must find its way through the shim's frames.
#include <cstdio>
#include <stdexcept>
#include <string>

extern "C" {
int cx_thrower(int i);
int cx_outer(int i);
int cx_catcher(int i);
}

int main()
{
	const int n = 700;
	long sum = 0;
	unsigned long caught = 0, msglen = 0;

	for (int i = 1; i <= n; i++) {
		try {
			sum += cx_outer(i);
		} catch (const std::runtime_error &e) {
			caught++;
			msglen += std::string(e.what()).size();
		}
	}
	std::printf("outer: sum %ld, caught %lu, message bytes %lu\n", sum, caught, msglen);
	long csum = 0;
	for (int i = 1; i <= n; i++)
		csum += cx_catcher(i);
	std::printf("catcher: sum %ld\n", csum);

	std::printf("expect cx_outer %d\n", n);
	std::printf("expect cx_catcher %d\n", n);
	std::printf("expect cx_thrower %d\n", 2 * n);
	std::printf("expect_unwound cx_outer %lu\n", caught);
	std::printf("expect_unwound cx_catcher 0\n");
	std::printf("expect_unwound cx_thrower %lu\n", 2 * caught);
	return 0;
}
