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

/* tt_interpose_real(name), looked up once and kept in *slot. */
void *tt_interpose_lazy(void **slot, const char *name);

/* The real `name`, kept in a static `void *real_name` of the calling file, typed as name. */
#define TT_REAL(name) ((__typeof__(&name))tt_interpose_lazy(&real_##name, #name))

#endif /* TT_INTERPOSE_H */
