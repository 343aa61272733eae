/*
 * sys.h - raw Linux system calls for the shim.
 *
 * The shim cannot always use libc: the first-call path runs inside the trampoline's register
 * contract (no vector registers may change, errno must survive), and the report may be
 * written from an _exit wrapper or after a fatal signal, when a libc lock may be held by the
 * interrupted code. These wrappers are the `syscall` instruction and nothing else: they
 * clobber only rcx and r11, never touch errno, and return -errno on failure.
 */
#ifndef TT_SYS_H
#define TT_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
/* ThreadSanitizer does not see mappings made and removed by raw system calls: memory that one
 * thread unmapped and the kernel then handed to another reads as a race. Every unmap releases
 * and every map acquires one address (base/sys.c), which orders them as the kernel does.
 * Built without -fsanitize (the hot path), these are nothing; code that calls the hot path's
 * unmapping says TT_SYS_UNMAP_RELEASE() itself first (runtime/threads.c: thread_free). */
extern char tt_sys_tsan_maps;
#define TT_SYS_MAP_ACQUIRE() __tsan_acquire(&tt_sys_tsan_maps)
#define TT_SYS_UNMAP_RELEASE() __tsan_release(&tt_sys_tsan_maps)
#else
#define TT_SYS_MAP_ACQUIRE() ((void)0)
#define TT_SYS_UNMAP_RELEASE() ((void)0)
#endif

static inline long tt_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#define tt_syscall3(nr, a, b, c) tt_syscall6((nr), (long)(a), (long)(b), (long)(c), 0, 0, 0)

static inline void *tt_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, long off)
{
	long r = tt_syscall6(SYS_mmap, (long)addr, (long)len, prot, flags, fd, off);

	if (r < 0 && r > -4096)
		return NULL;
	TT_SYS_MAP_ACQUIRE();
	return (void *)r;
}

static inline long tt_sys_munmap(void *addr, size_t len)
{
	TT_SYS_UNMAP_RELEASE();
	return tt_syscall3(SYS_munmap, addr, len, 0);
}

static inline void *tt_sys_mremap(void *old, size_t old_len, size_t new_len, int flags)
{
	long r = tt_syscall6(SYS_mremap, (long)old, (long)old_len, (long)new_len, flags, 0, 0);

	return (r < 0 && r > -4096) ? NULL : (void *)r;
}

static inline long tt_sys_mprotect(void *addr, size_t len, int prot)
{
	return tt_syscall3(SYS_mprotect, addr, len, prot);
}

static inline long tt_sys_write(int fd, const void *buf, size_t len)
{
	return tt_syscall3(SYS_write, fd, buf, len);
}

/* Write all of buf, retrying short writes and EINTR. Returns 0 or -errno. */
static inline long tt_sys_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		long n = tt_sys_write(fd, p, len);

		if (n == -4 /* EINTR */)
			continue;
		if (n <= 0)
			return n < 0 ? n : -5 /* EIO */;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static inline long tt_sys_openat(int dirfd, const char *path, int flags, int mode)
{
	return tt_syscall6(SYS_openat, dirfd, (long)path, flags, mode, 0, 0);
}

static inline long tt_sys_close(int fd)
{
	return tt_syscall3(SYS_close, fd, 0, 0);
}

static inline long tt_sys_renameat(int olddir, const char *oldp, int newdir, const char *newp)
{
	return tt_syscall6(SYS_renameat, olddir, (long)oldp, newdir, (long)newp, 0, 0);
}

static inline long tt_sys_unlinkat(int dirfd, const char *path, int flags)
{
	return tt_syscall3(SYS_unlinkat, dirfd, path, flags);
}

static inline long tt_sys_getpid(void)
{
	return tt_syscall3(SYS_getpid, 0, 0, 0);
}

static inline long tt_sys_gettid(void)
{
	return tt_syscall3(SYS_gettid, 0, 0, 0);
}

static inline long tt_sys_read(int fd, void *buf, size_t len)
{
	return tt_syscall3(SYS_read, fd, buf, len);
}

/* The kernel's struct stat is glibc's on x86-64: the libc type can be passed as is. */
static inline long tt_sys_fstat(int fd, void *st)
{
	return tt_syscall3(SYS_fstat, fd, st, 0);
}

static inline long tt_sys_fstatat(int dirfd, const char *path, void *st, int flags)
{
	return tt_syscall6(SYS_newfstatat, dirfd, (long)path, (long)st, flags, 0, 0);
}

static inline long tt_sys_fcntl(int fd, int cmd, long arg)
{
	return tt_syscall3(SYS_fcntl, fd, cmd, arg);
}

static inline long tt_sys_renameat2(int olddir, const char *oldp, int newdir, const char *newp,
				    unsigned int flags)
{
	return tt_syscall6(SYS_renameat2, olddir, (long)oldp, newdir, (long)newp, flags, 0);
}

static inline long tt_sys_linkat(int olddir, const char *oldp, int newdir, const char *newp)
{
	return tt_syscall6(SYS_linkat, olddir, (long)oldp, newdir, (long)newp, 0, 0);
}

/*
 * Writes without SIGPIPE or SIGXFSZ: the shim writing to a pipe whose reader is gone must get
 * EPIPE, and writing past the program's RLIMIT_FSIZE must get EFBIG, not kill the program
 * (which would then die of a signal it never earned). Both are blocked around the write, and
 * the one the write raised is taken back (unless one was already pending for the program);
 * the mask is then put back as it was.
 */
struct tt_sigheld {
	unsigned long old, pending;
};

#define TT_SIG_BIT(sig) (1ul << ((sig)-1))
#define TT_SIGHELD_BITS (TT_SIG_BIT(13 /* SIGPIPE */) | TT_SIG_BIT(25 /* SIGXFSZ */))

static inline void tt_sys_sigs_hold(struct tt_sigheld *h)
{
	unsigned long bits = TT_SIGHELD_BITS;

	h->old = h->pending = 0;
	tt_syscall6(SYS_rt_sigprocmask, 0 /* SIG_BLOCK */, (long)&bits, (long)&h->old, 8, 0, 0);
	tt_syscall3(SYS_rt_sigpending, &h->pending, 8, 0);
}

static inline void tt_sys_sigs_release(struct tt_sigheld *h, long err)
{
	unsigned long bit = 0;
	struct {
		long s, ns;
	} zero = { 0, 0 };

	if (err == -32 /* EPIPE */)
		bit = TT_SIG_BIT(13 /* SIGPIPE */);
	else if (err == -27 /* EFBIG */)
		bit = TT_SIG_BIT(25 /* SIGXFSZ */);
	if (bit && !(h->pending & bit))
		tt_syscall6(SYS_rt_sigtimedwait, (long)&bit, 0, (long)&zero, 8, 0, 0);
	tt_syscall6(SYS_rt_sigprocmask, 2 /* SIG_SETMASK */, (long)&h->old, 0, 8, 0, 0);
}

/* tt_sys_write_all under tt_sys_sigs_hold: every write of a file or pipe by the shim. */
static inline long tt_sys_write_all_nosig(int fd, const void *buf, size_t len)
{
	struct tt_sigheld h;
	long err;

	tt_sys_sigs_hold(&h);
	err = tt_sys_write_all(fd, buf, len);
	tt_sys_sigs_release(&h, err);
	return err;
}

#endif /* TT_SYS_H */
