/*
 * process.c - the wrappers around leaving the process image and starting others:
 *   - exec*: the old image's report is written first (the new image, preloaded again through
 *     the inherited LD_PRELOAD, writes its own later), unless the exec is sure to fail for
 *     want of its file (exec_target.h: a shell's PATH search), and the new image starts with
 *     the thread's own CPU mask, not our pin;
 *   - _exit/_Exit run no atexit handler or destructor, so only a wrapper can write the report;
 *     daemon's parent and quick_exit leave through libc's own _exit, detoured before they run,
 *     and so is exit() once a second thread exists (two may run it at once);
 *   - posix_spawn*, system, popen and pthread_create start their child (or thread) while the
 *     calling thread has its own CPU mask back, so nothing inherits our pin (TSC_PIN).
 *
 * Only calls the program makes itself land here: glibc's exit() calls _exit internally and
 * posix_spawn/system/popen call execve internally, and those paths are covered by our
 * destructor or by these wrappers.
 *
 * Under TSC_FOLLOW=0 (follow.h) the environment a child gets leaves the shim out of
 * LD_PRELOAD: exec* in a fork or vfork child, posix_spawn*, system and popen. An exec of the
 * traced process itself keeps it: that is the same process going on.
 */
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elf/real.h"
#include "hot/pin.h"
#include "runtime/follow.h"
#include "runtime/lifecycle.h"
#include "wrap/exec_target.h"
#include "wrap/interpose.h"

static void *real_execve, *real_execvpe, *real_fexecve, *real__exit, *real__Exit, *real_daemon,
	*real_quick_exit, *real_posix_spawn, *real_posix_spawnp, *real_system, *real_popen,
	*real_pthread_create;

/* Report (unless the exec is sure to fail: then this image goes on and reports later), unpin,
 * exec; if exec fails, pin again and return what it returned. */
#define EXEC(doomed, call)                      \
	({                                      \
		bool released_;                 \
		int ret_;                       \
		if (!(doomed))                  \
			tt_lifecycle_leaving(); \
		released_ = tt_pin_release();   \
		ret_ = (call);                  \
		tt_pin_reapply(released_);      \
		ret_;                           \
	})

/* Bytes of child environment copied on the stack; beyond, mapped (an exec may run in a vfork
 * child, where malloc must not). */
#define STACK_ENV 16384

/* envp as a child gets it: without the shim under TSC_FOLLOW=0 (follow.h), else envp. */
#define CHILD_ENV(envp, child)                                                               \
	({                                                                                   \
		size_t size_ = tt_follow_env_size((envp), (child));                          \
		size_ ? tt_follow_env((envp), size_ <= STACK_ENV ? __builtin_alloca(size_)   \
								 : tt_follow_env_map(size_)) \
		      : (char **)(envp);                                                     \
	})

/* Give back what CHILD_ENV mapped for a large environment, once the call has returned
 * (posix_spawn, system, popen, or an exec that failed); its size is computed anew. */
static void child_env_done(char **env, char *const envp[], bool child)
{
	size_t size = tt_follow_env_size(envp, child);

	if (size > STACK_ENV && env != (char **)envp)
		tt_follow_env_unmap(env, size);
}

/*
 * system and popen start their shell with `environ`, through glibc's internal posix_spawn
 * that no wrapper sees: under TSC_FOLLOW=0 `environ` is the shim-less copy for the duration
 * of the call. glibc's setenv family must not run concurrently with functions that read the
 * environment (its "const:env" MT-safety note), system and popen among them, so a
 * conforming program cannot see the swap.
 */
#define WITH_CHILD_ENV(type, call)                                          \
	({                                                                  \
		char **saved_ = environ, **env_ = CHILD_ENV(environ, true); \
		type r_;                                                    \
		environ = env_;                                             \
		r_ = (call);                                                \
		if (environ == env_)                                        \
			environ = saved_;                                   \
		child_env_done(env_, saved_, true);                         \
		r_;                                                         \
	})

/* Run call with the thread's own CPU mask, so that what it starts does not inherit our pin. */
#define UNPINNED(type, call)                       \
	({                                         \
		bool released_ = tt_pin_release(); \
		type ret_ = (call);                \
		tt_pin_reapply(released_);         \
		ret_;                              \
	})

/* An exec through real (execve, or execvpe: search) with envp as a child gets it. The
 * environment copy lives in this frame until the exec has returned or replaced the process. */
static int exec_with(int (*real)(const char *, char *const[], char *const[]), bool search,
		     const char *path, char *const argv[], char *const envp[])
{
	bool child = tt_follow_in_child();
	char **env = CHILD_ENV(envp, child);
	int r = EXEC(tt_exec_target_missing(path, search), real(path, argv, env));

	child_env_done(env, envp, child);
	return r;
}

TT_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	return exec_with(TT_REAL(execve), false, path, argv, envp);
}

/* execv and execvp are glibc's execve and execvpe with `environ`. */
TT_EXPORT int execv(const char *path, char *const argv[])
{
	return exec_with(TT_REAL(execve), false, path, argv, environ);
}

TT_EXPORT int execvp(const char *file, char *const argv[])
{
	return exec_with(TT_REAL(execvpe), true, file, argv, environ);
}

TT_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return exec_with(TT_REAL(execvpe), true, file, argv, envp);
}

TT_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	bool child = tt_follow_in_child();
	char **env = CHILD_ENV(envp, child);
	int r = EXEC(false, TT_REAL(fexecve)(fd, argv, env));

	child_env_done(env, envp, child);
	return r;
}

/* execl, execlp, execle: collect the variadic list, then the vector form. */
#define COLLECT_ARGS(arg0, ap, argv)                                \
	do {                                                        \
		size_t n_ = 1;                                      \
		va_list count_;                                     \
		va_copy(count_, ap);                                \
		while (va_arg(count_, char *))                      \
			n_++;                                       \
		va_end(count_);                                     \
		argv = __builtin_alloca((n_ + 1) * sizeof(char *)); \
		argv[0] = (char *)(arg0);                           \
		for (size_t i_ = 1; i_ <= n_; i_++)                 \
			argv[i_] = va_arg(ap, char *);              \
	} while (0)

/* execl, execlp, execle: arg and the list in ap (then envp, for execle) as a vector, exec'd
 * through real with `environ` or that envp. */
static int exec_list(int (*real)(const char *, char *const[], char *const[]), bool search,
		     const char *path, const char *arg, va_list ap, bool envp_follows)
{
	char **argv, **envp = environ;

	COLLECT_ARGS(arg, ap, argv);
	if (envp_follows)
		envp = va_arg(ap, char **);
	return exec_with(real, search, path, argv, envp);
}

TT_EXPORT int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = exec_list(TT_REAL(execve), false, path, arg, ap, false);
	va_end(ap);
	return r;
}

TT_EXPORT int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = exec_list(TT_REAL(execvpe), true, file, arg, ap, false);
	va_end(ap);
	return r;
}

TT_EXPORT int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = exec_list(TT_REAL(execve), false, path, arg, ap, true);
	va_end(ap);
	return r;
}

TT_EXPORT void _exit(int status)
{
	tt_lifecycle_exiting();
	TT_REAL(_exit)(status);
	__builtin_unreachable();
}

/* daemon()'s parent ends in libc's own _exit, which this file's _exit never sees: libc's
 * _exit is detoured first (lifecycle.h), then daemon runs as it would have. */
TT_EXPORT int daemon(int nochdir, int noclose)
{
	tt_lifecycle_before_libc_exit();
	return TT_REAL(daemon)(nochdir, noclose);
}

/* quick_exit() runs the at_quick_exit handlers, then libc's own _exit: detoured first, so
 * that the report comes after the handlers' calls, as exit()'s comes after atexit's. */
TT_EXPORT void quick_exit(int status)
{
	tt_lifecycle_before_libc_exit();
	TT_REAL(quick_exit)(status);
	__builtin_unreachable();
}

TT_EXPORT void _Exit(int status)
{
	tt_lifecycle_exiting();
	TT_REAL(_Exit)(status);
	__builtin_unreachable();
}

TT_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			  const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	char **env = CHILD_ENV(envp, true);
	int r = UNPINNED(int, TT_REAL(posix_spawn)(pid, path, fa, attr, argv, env));

	child_env_done(env, envp, true);
	return r;
}

TT_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	char **env = CHILD_ENV(envp, true);
	int r = UNPINNED(int, TT_REAL(posix_spawnp)(pid, file, fa, attr, argv, env));

	child_env_done(env, envp, true);
	return r;
}

TT_EXPORT int system(const char *command)
{
	return WITH_CHILD_ENV(int, UNPINNED(int, TT_REAL(system)(command)));
}

TT_EXPORT FILE *popen(const char *command, const char *type)
{
	return WITH_CHILD_ENV(FILE *, UNPINNED(FILE *, TT_REAL(popen)(command, type)));
}

TT_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
			     void *arg)
{
	tt_lifecycle_before_thread(); /* two threads may call exit() at once from now on */
	return UNPINNED(int, TT_REAL(pthread_create)(thread, attr, start, arg));
}

/* vfork.S, when the syscall fails: set errno the way glibc would. */
int tt_vfork_failed(int err) __attribute__((visibility("hidden")));

int tt_vfork_failed(int err)
{
	errno = err;
	return -1;
}
