/*
 * px.c - libpx.so: callees for the process-lifecycle tests (t_fatal, t_dump, t_exitp,
 * t_vfork). The counters count invocations in this process.
 *   px_add      a plain callee
 *   px_leaf     another, for handlers and atexit functions
 *   px_call     calls cb(x) and returns its result: a traced frame that is live while cb
 *               runs (cb may raise a signal, exit, abort...)
 *   px_raise    raise(sig) from inside a traced call
 *   px_forever  spins until *stop is set (nobody sets it: a call that is still running when
 *               another thread ends the process)
 */
#include <signal.h>

unsigned long px_add_count, px_leaf_count, px_call_count, px_raise_count, px_forever_count;

long px_add(long a, long b);
long px_leaf(long x);
long px_call(long (*cb)(long), long x);
int px_raise(int sig);
long px_forever(volatile int *stop);

long px_add(long a, long b)
{
	__atomic_add_fetch(&px_add_count, 1, __ATOMIC_RELAXED);
	return a + b;
}

long px_leaf(long x)
{
	__atomic_add_fetch(&px_leaf_count, 1, __ATOMIC_RELAXED);
	return x * 3 + 1;
}

long px_call(long (*cb)(long), long x)
{
	__atomic_add_fetch(&px_call_count, 1, __ATOMIC_RELAXED);
	return cb(x) + 1;
}

int px_raise(int sig)
{
	px_raise_count++;
	raise(sig);
	return sig;
}

long px_forever(volatile int *stop)
{
	long n = 0;

	__atomic_add_fetch(&px_forever_count, 1, __ATOMIC_RELAXED);
	while (!*stop) {
		__builtin_ia32_pause();
		n++;
	}
	return n;
}
