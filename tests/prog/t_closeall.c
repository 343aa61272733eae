/*
 * t_closeall.c MODE DATA - a program that takes descriptors for itself the way daemons and
 * careful programs do, then calls a traced function (work_add, libwork.so) and exits 0.
 * DATA is a data file of the program's that must come out unchanged: the shim must never
 * write its lines or its report into it.
 *   closeall  close every descriptor (close_range 0..~0), then open /dev/null on 0 and 1 and
 *             DATA on 2 (read-write, as a program's own file): stderr is gone for good
 *   dup2all   dup2 DATA over every descriptor from 3 to 1023 (the shim's private stderr
 *             among them); 0-2 stay
 *   fdfull    lower the soft RLIMIT_NOFILE to at most 4096, then dup2 DATA over every
 *             descriptor below it: not one is free (the report needs the limit raised)
 *   fdfull_hard  the same with the hard limit lowered too: nothing can be opened at all
 *   close3    close every descriptor above 2 (closefrom(3)); 0-2 stay
 * All but closeall print "sum N" (stdout is still the original there).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

long work_add(long a, long b);
const char *__asan_default_options(void);

/* Built with ASan (SANITIZE): LeakSanitizer needs descriptors at exit that fdfull leaves none
 * of, and would judge the program, not the shim. */
__attribute__((used)) const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

static long calls(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < 1000; i++)
		sum += work_add(i, 1);
	return sum;
}

int main(int argc, char **argv)
{
	struct rlimit rl;
	int fd, i;

	if (argc != 3) {
		fprintf(stderr, "usage: t_closeall closeall|dup2all|fdfull|fdfull_hard|close3 "
				"DATA\n");
		return 2;
	}
	if (strcmp(argv[1], "closeall") == 0) {
		if (syscall(SYS_close_range, 0U, ~0U, 0) != 0)
			return 3;
		if (open("/dev/null", O_RDONLY) != 0 || open("/dev/null", O_WRONLY) != 1 ||
		    open(argv[2], O_RDWR) != 2)
			return 4;
		calls();
		return 0;
	}
	if (strncmp(argv[1], "dup2all", 7) == 0 || strncmp(argv[1], "fdfull", 6) == 0) {
		int top = 1024;

		fd = open(argv[2], O_RDWR);
		if (fd < 0 || getrlimit(RLIMIT_NOFILE, &rl) != 0)
			return 4;
		if (strncmp(argv[1], "fdfull", 6) == 0) {
			if (rl.rlim_cur > 4096)
				rl.rlim_cur = 4096;
			if (strcmp(argv[1], "fdfull_hard") == 0)
				rl.rlim_max = rl.rlim_cur;
			if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
				return 5;
			top = (int)rl.rlim_cur;
		}
		for (i = 3; i < top; i++)
			if (i != fd && dup2(fd, i) != i)
				return 6;
	} else if (strcmp(argv[1], "close3") == 0) {
		if (syscall(SYS_close_range, 3U, ~0U, 0) != 0)
			return 3;
	} else {
		return 2;
	}
	printf("sum %ld\n", calls());
	return 0;
}
