/*
 * attach.h - what `tsctrace attach` calls in the target (exported, src/libtsctrace.map; the
 * command finds them in the shim's .dynsym on disk). docs/attach.md.
 */
#ifndef TT_ATTACH_H
#define TT_ATTACH_H

/* Start tracing with env's TSC_* settings ("NAME=value" strings, NULL-terminated); a second
 * call after tt_attach_stop hooks the same functions again. Functions hooked, or -1. */
int tt_attach_start(char *const *env);

/* Write the report and give every hooked entry its bytes back. 0, -1 (still hooked) or -2
 * (unhooked, but the report was not written where asked). */
int tt_attach_stop(void);

/* How long the shim has held the process's other threads so far (hook/stop.c), in ns:
 * tsctrace attach subtracts the figure before a call from the one after. */
unsigned long long tt_attach_held_ns(void);

/* Why the last of the two failed ("" when it did not). */
const char *tt_attach_why(void);

#endif /* TT_ATTACH_H */
