/*
 * interpose.h - shared by the wrappers the shim exports in front of libc's (interpose.c: dl*;
 * process.c: fork, exec*, _exit; signals.c; notsc.c; affinity.c).
 */
#ifndef TT_INTERPOSE_H
#define TT_INTERPOSE_H

#define TT_EXPORT __attribute__((visibility("default")))

#endif /* TT_INTERPOSE_H */
