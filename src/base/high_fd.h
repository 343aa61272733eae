/*
 * high_fd.h - descriptors the shim holds, kept out of the program's way: close-on-exec, at
 * the top of the range the program may use (its open() takes the lowest free number), and
 * checked before each use to still be the file the shim opened (the program may close it,
 * or close everything from 3 up, and open its own file at that number).
 */
#ifndef TT_HIGH_FD_H
#define TT_HIGH_FD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A close-on-exec duplicate of fd at the highest free number below min(RLIMIT_NOFILE soft
 * limit, 1024), or failing that the lowest free one from 3: the new number, or -errno.
 * Raw system calls only. */
long tt_fd_dup_high(int fd);

/* fd moved high (tt_fd_dup_high, then fd closed): the new number; when no number is free
 * there, fd itself made close-on-exec. */
int tt_fd_move_high(int fd);

/* openat(AT_FDCWD, path, flags | O_CLOEXEC, mode), the descriptor moved high: it or -errno. */
long tt_fd_open_high(const char *path, int flags, int mode);

/* A descriptor and the file it was opened on. */
struct tt_held_fd {
	int fd;
	dev_t dev;
	ino_t ino;
};

/* Remember fd as the shim's: false when fd is not open. */
bool tt_held_fd_take(struct tt_held_fd *h, int fd);

/* Whether h->fd still leads to the file it was taken on. */
bool tt_held_fd_is_ours(const struct tt_held_fd *h);

/* Write all of buf to h->fd, checking before each write that it is still the file: 0, or
 * -errno (-EBADF: the number is no longer ours, and must not be closed either). */
long tt_held_fd_write_all(const struct tt_held_fd *h, const void *buf, size_t len);

/* Close h->fd if it is still the file; a number that is now the program's is left alone. */
long tt_held_fd_close(struct tt_held_fd *h);

#endif /* TT_HIGH_FD_H */
