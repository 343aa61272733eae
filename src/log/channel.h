/*
 * channel.h - the shim's private duplicate of the program's stderr, for every `tsctrace:` line
 * and for a report that goes to stderr (TSC_OUTPUT=-, or a fallback).
 */
#ifndef TT_CHANNEL_H
#define TT_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* At start-up: duplicate fd 2 to a high, close-on-exec descriptor and remember which file it
 * is (device and inode). Without an fd 2 there is no channel. */
void tt_channel_open(void);

/* The shim stays off (no TSC_FUNCS): give the descriptor back. Later lines are dropped. */
void tt_channel_release(void);

/*
 * Write all of buf to the original stderr: through our descriptor while it is still that
 * file, else through a new duplicate of fd 2 if fd 2 is still that file. Never into a file
 * the program opened. Raw system calls only. 0, or -errno (-EBADF: no channel is left).
 */
long tt_channel_write(const void *buf, size_t len);

/* Whether the file (device, inode) is the one fd 2 was at start-up (TSC_OUTPUT=/dev/stderr
 * resolves to it when stderr is a file). */
bool tt_channel_is_stderr(dev_t dev, ino_t ino);

/* Whether a write now would reach the original stderr (it may re-take the duplicate). */
bool tt_channel_alive(void);

/* Whether the original stderr is still there and leads where someone reads: a terminal, a
 * regular file, a pipe or a socket (a journal). Not /dev/null, nor any other device, where
 * daemons' stderr goes: a report that must fall back is not written there. */
bool tt_channel_read(void);

#endif /* TT_CHANNEL_H */
