/*
 * blockexec.c - blockexec SIG PROGRAM ARGS...: block signal SIG with a raw rt_sigprocmask
 * and execve PROGRAM through a raw system call, so that it starts with SIG blocked and
 * neither the mask nor the exec passes through the shim's wrappers (no report is written
 * for this image: the shim's exec wrapper is never called).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	uint64_t set;

	if (argc < 3) {
		fprintf(stderr, "usage: blockexec SIG PROGRAM [ARG...]\n");
		return 2;
	}
	set = 1ull << (atoi(argv[1]) - 1);
	syscall(SYS_rt_sigprocmask, 0 /* SIG_BLOCK */, &set, NULL, 8);
	syscall(SYS_execve, argv[2], argv + 2, environ);
	perror(argv[2]);
	return 127;
}
