/*
 * t_names.c [same A B] - calls libnames.so's one function by both of its names, names_a 300
 * times and names_b 700 times, and names_c 50 times; prints a checksum and the expect lines.
 * With `same A B`: prints "same" when the loader resolves A and B to one address (memcpy and
 * memmove in glibc, where both IFUNCs choose one implementation), else "differ".
 */
#include "tp.h"

#include <dlfcn.h>
#include <string.h>

uint64_t names_a(uint64_t x);
uint64_t names_b(uint64_t x);
uint64_t names_c(uint64_t x);

int main(int argc, char **argv)
{
	uint64_t x = 1, h = TP_FNV_INIT;
	int i;

	if (argc == 4 && strcmp(argv[1], "same") == 0) {
		puts(dlsym(RTLD_DEFAULT, argv[2]) == dlsym(RTLD_DEFAULT, argv[3]) ? "same"
										  : "differ");
		return 0;
	}
	for (i = 0; i < 300; i++)
		x = names_a(x);
	for (i = 0; i < 700; i++)
		x = names_b(x);
	for (i = 0; i < 50; i++)
		tp_fold(&h, &(uint64_t){ names_c(x + (uint64_t)i) }, sizeof(uint64_t));
	printf("x %016" PRIx64 " h %016" PRIx64 "\n", x, h);
	tp_expect(stdout, "names_a", 1000);
	tp_expect(stdout, "names_b", 1000);
	tp_expect(stdout, "names_c", 50);
	return 0;
}
