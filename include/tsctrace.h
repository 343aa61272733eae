/*
 * tsctrace.h - the small C API of libtsctrace.so.
 *
 * Nothing here is needed to trace a program: LD_PRELOAD=libtsctrace.so TSC_FUNCS=... is the
 * whole interface (see README.md). A program that wants to control the shim can call these,
 * linking with -ltsctrace or looking them up with dlsym so it still runs without the shim.
 */
#ifndef TSCTRACE_H
#define TSCTRACE_H

#ifdef __cplusplus
extern "C" {
#endif

#define TSCTRACE_API __attribute__((visibility("default")))

/* The library's version, e.g. "0.1.0". */
TSCTRACE_API const char *tsctrace_version(void);

/*
 * Write the report of everything recorded so far, now, where TSC_OUTPUT says (the report at
 * exit replaces it). Returns 0 when written there, -1 when nothing is being traced or the
 * report went to stderr instead.
 */
TSCTRACE_API int tsctrace_dump(void);

#ifdef __cplusplus
}
#endif

#endif /* TSCTRACE_H */
