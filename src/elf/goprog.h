/*
 * goprog.h - is the program a Go program, and where are the two parts of its runtime the
 * shim must know: Go's own code (whose functions cannot be traced: hook/go_runtime.h) and
 * runtime.exit, the process's only way out (a raw exit_group: no libc exit, no destructor).
 */
#ifndef TT_GOPROG_H
#define TT_GOPROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* runtime.exit on linux/amd64 as Go 1.19 links it (runtime/sys_linux_amd64.s): the exit
 * code from the stack, exit_group, ret. Go aligns functions to 32 bytes and pads with int3.
 * Other code there is left alone (hook/go_runtime.c says so in one line). */
#define TT_GO_EXIT_CODE                                                                \
	{                                                                              \
		0x8b, 0x7c, 0x24, 0x08, 0xb8, 0xe7, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xc3 \
	}

struct tt_go_prog {
	bool is_go; /* the Go linker's build ID note is there */
	bool cgo;   /* linked with cgo: libc runs its threads (else Go sets %fs itself) */
	uintptr_t text_start, text_end; /* Go's code, [runtime.text, runtime.etext); 0 unknown */
	uint8_t *exit_fn;		/* runtime.exit's code as TT_GO_EXIT_CODE has it, or NULL */
	int exit_prot;			/* PROT_* of the segment holding it */
};

/* The program's facts: found at the first call (start-up) and kept. */
const struct tt_go_prog *tt_go_prog(void);

/* True if addr is in a Go program's own Go code (not cgo's C, not a library). */
bool tt_go_code(uintptr_t addr);

#endif /* TT_GOPROG_H */
