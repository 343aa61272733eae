/*
 * t_seccomp.c MODE - a program that confines itself with seccomp after some traced calls, then
 * makes more and ends as the sandbox lets it:
 *   allow   a filter allowing read, write and exit only (anything else: SIGSYS), then exit();
 *   errno   a filter failing anything but read, write and exit with EPERM, then exit();
 *   syscall the allow filter through syscall(SYS_seccomp, ...), as libseccomp installs it;
 *   strict  SECCOMP_MODE_STRICT (read, write, _exit, sigreturn), then the raw exit system call;
 *   strict_syscall  the same through syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, ...).
 * Strict mode also forbids the thread the TSC where the kernel can (its disable_TSC).
 * After the filter it writes with write(2) only. Exit status 0 untraced.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp.h"

long work_add(long a, long b);

#define ALLOW(nr)                                        \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static int install_filter(unsigned int otherwise, int raw)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, otherwise),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		ALLOW(SYS_read),
		ALLOW(SYS_write),
		ALLOW(SYS_exit),
		ALLOW(SYS_exit_group),
		ALLOW(SYS_rt_sigreturn),
		BPF_STMT(BPF_RET | BPF_K, otherwise),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	if (raw)
		return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

static void say(const char *s)
{
	if (write(1, s, strlen(s)) < 0)
		_exit(3);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "allow";
	long sum = 0;
	int i, err;

	for (i = 0; i < 50; i++)
		sum = work_add(sum, i);
	printf("before %ld\n", sum);
	fflush(stdout);
	if (strcmp(mode, "strict") == 0)
		err = prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0);
	else if (strcmp(mode, "strict_syscall") == 0)
		err = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, NULL);
	else
		err = install_filter(strcmp(mode, "errno") == 0 ? SECCOMP_RET_ERRNO | EPERM
								: SECCOMP_RET_KILL_PROCESS,
				     strcmp(mode, "syscall") == 0);
	if (err != 0) {
		printf("no seccomp: %s\n", strerror(errno));
		fflush(stdout);
		return 77;
	}
	for (i = 0; i < 50; i++)
		sum = work_add(sum, i);
	say(sum == 2450 ? "after ok\n" : "after wrong\n");
	if (strncmp(mode, "strict", 6) == 0)
		syscall(SYS_exit, 0);
	return 0;
}
