/*
 * go_runtime.h - what the shim does about a Go program (elf/goprog.h). Its C functions (cgo's,
 * shared libraries') are traced as anywhere; its Go functions are refused, all in one line
 * saying why; and its way out, runtime.exit (a raw exit_group: no libc exit, no destructor),
 * is hooked so that the report is written.
 */
#ifndef TT_GO_RUNTIME_H
#define TT_GO_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

/* True if TSC_FUNCS's `name`, found at addr (0: found nowhere), is Go's to refuse: its code
 * is Go's own, or it is not found and spelt as Go names are (pkg.Func) in a Go program. */
bool tt_go_refuses(const char *name, uintptr_t addr);

/* Keep `what` (an entry of TSC_FUNCS) for the one line tt_go_say prints. */
void tt_go_refused(const char *what);

/* After start-up resolved TSC_FUNCS: in a Go program, the one line on what can be traced
 * there, naming the entries refused (a warning then, else information). */
void tt_go_say(void);

/* In a Go program, make runtime.exit run before() first, on a stack of the shim's own (a
 * goroutine's may have a few hundred bytes left), then its exit_group. Start-up, one thread.
 * True when hooked; false in any other program, or with one line when it cannot be. */
bool tt_go_exit_hook(void (*before)(void));

#endif /* TT_GO_RUNTIME_H */
