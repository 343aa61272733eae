/*
 * process.c - the wrappers that let the report survive leaving the process image:
 * exec* (the old image's report is written first; the new image, preloaded again through
 * the inherited LD_PRELOAD, writes its own later) and _exit/_Exit (which run no atexit
 * handler or destructor, so only a wrapper can write the report).
 *
 * Only calls the program makes itself land here: glibc's exit() calls _exit internally and
 * posix_spawn/system/popen call execve internally, and those paths are covered by our
 * destructor or need nothing (the child of posix_spawn never ran traced code).
 */
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include "interpose.h"
#include "lifecycle.h"

#define REAL(name) ((__typeof__(&name))real_of(&real_##name, #name))

static void *real_execve, *real_execv, *real_execvp, *real_execvpe, *real_fexecve, *real__exit,
	*real__Exit;

static void *real_of(void **slot, const char *name)
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (!p) {
		p = tt_interpose_real(name);
		__atomic_store_n(slot, p, __ATOMIC_RELEASE);
	}
	return p;
}

TT_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	tt_lifecycle_leaving();
	return REAL(execve)(path, argv, envp);
}

TT_EXPORT int execv(const char *path, char *const argv[])
{
	tt_lifecycle_leaving();
	return REAL(execv)(path, argv);
}

TT_EXPORT int execvp(const char *file, char *const argv[])
{
	tt_lifecycle_leaving();
	return REAL(execvp)(file, argv);
}

TT_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	tt_lifecycle_leaving();
	return REAL(execvpe)(file, argv, envp);
}

TT_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	tt_lifecycle_leaving();
	return REAL(fexecve)(fd, argv, envp);
}

/* execl, execlp, execle: collect the variadic list, then the vector form. */
#define COLLECT_ARGS(arg0, ap, argv)                                   \
	do {                                                           \
		size_t n_ = 1;                                         \
		va_list count_;                                        \
		va_copy(count_, ap);                                   \
		while (va_arg(count_, char *))                         \
			n_++;                                          \
		va_end(count_);                                        \
		argv = __builtin_alloca((n_ + 1) * sizeof(char *));    \
		argv[0] = (char *)(arg0);                              \
		for (size_t i_ = 1; i_ <= n_; i_++)                    \
			argv[i_] = va_arg(ap, char *);                 \
	} while (0)

TT_EXPORT int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	char **argv;

	va_start(ap, arg);
	COLLECT_ARGS(arg, ap, argv);
	va_end(ap);
	tt_lifecycle_leaving();
	return REAL(execv)(path, argv);
}

TT_EXPORT int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	char **argv;

	va_start(ap, arg);
	COLLECT_ARGS(arg, ap, argv);
	va_end(ap);
	tt_lifecycle_leaving();
	return REAL(execvp)(file, argv);
}

TT_EXPORT int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	char **argv, **envp;

	va_start(ap, arg);
	COLLECT_ARGS(arg, ap, argv);
	envp = va_arg(ap, char **);
	va_end(ap);
	tt_lifecycle_leaving();
	return REAL(execve)(path, argv, envp);
}

TT_EXPORT void _exit(int status)
{
	tt_lifecycle_leaving();
	REAL(_exit)(status);
	__builtin_unreachable();
}

TT_EXPORT void _Exit(int status)
{
	tt_lifecycle_leaving();
	REAL(_Exit)(status);
	__builtin_unreachable();
}
