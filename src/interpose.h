/*
 * interpose.h - shared by the wrappers the shim exports (interpose.c: dl*; process.c:
 * exec*, _exit).
 */
#ifndef TT_INTERPOSE_H
#define TT_INTERPOSE_H

#define TT_EXPORT __attribute__((visibility("default")))

/* The definition of name that follows ours in load order (what RTLD_NEXT would give us),
 * found without calling dlsym; NULL if none. Safe before anything else has started. */
void *tt_interpose_real(const char *name);

#endif /* TT_INTERPOSE_H */
