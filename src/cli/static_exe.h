/*
 * static_exe.h - would LD_PRELOAD reach the program `tsctrace run` is about to exec: not when
 * it is statically linked (a pure-Go program among them), for no dynamic loader ever runs in
 * it to load the shim.
 */
#ifndef TT_STATIC_EXE_H
#define TT_STATIC_EXE_H

#include <stdbool.h>

/* True if the file execvp(prog) would run is a 64-bit ELF executable without PT_INTERP
 * (static, static-pie) other than the dynamic loader itself. False when not found, not ELF
 * (a script) or unreadable: execvp then says what is wrong, or the shim loads. */
bool tt_cli_is_static(const char *prog);

#endif /* TT_STATIC_EXE_H */
