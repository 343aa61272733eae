/*
 * pidlog.c - libpidlog.so, a preload for the multiprocess test: every process that runs with
 * it appends its pid to the file named by $PIDLOG, once when an image starts (constructor) and
 * once in each fork child (pthread_atfork), so that the distinct pids in the file are the
 * processes of the run, counted independently of tsctrace. Raw system calls only: it must not
 * call anything the shim may be tracing (strlen, malloc, ...) nor disturb errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static void log_pid(void)
{
	const char *path = getenv("PIDLOG");
	char buf[24], *p = buf + sizeof(buf);
	long pid = syscall(SYS_getpid), fd;
	int saved = errno;

	if (!path || !*path)
		return;
	*--p = '\n';
	do {
		*--p = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid);
	fd = syscall(SYS_open, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		syscall(SYS_write, fd, p, (size_t)(buf + sizeof(buf) - p));
		syscall(SYS_close, fd);
	}
	errno = saved;
}

__attribute__((constructor)) static void pidlog_start(void)
{
	log_pid();
	pthread_atfork(NULL, NULL, log_pid);
}
