/*
 * go_runtime.c - see go_runtime.h.
 *
 * Why Go functions cannot be traced (docs/report-delivery.md, A Go program): Go's calling
 * convention keeps no register across a call, and the trampoline keeps its frame pointer in
 * %rbx over the callee (runtime.memmove traced crashed the program in the body, %rbx gone);
 * a goroutine may resume on another thread inside the call, away from the thread's shadow
 * frame; and Go's own stack walks (growth, GC, panics) stop at a return address not Go's.
 *
 * The exit hook: runtime.exit is 12 bytes (goprog.h) followed by int3 padding. Its first
 * instruction (the exit code into %edi) stays; the next 12 bytes become `movabs $entry,
 * %rax; jmp *%rax`: %rax is free there (the original sets it to the syscall number), and
 * the padding takes the 4 bytes more. entry() never returns: it ends the process itself.
 */
#include "hook/go_runtime.h"

#include <stdio.h>
#include <string.h>
#include <asm/prctl.h>
#include <sys/syscall.h>

#include "base/altstack.h"
#include "base/sys.h"
#include "elf/goprog.h"
#include "hook/patch.h"
#include "log/log.h"

#define PAD 0xcc /* int3: the Go linker's padding between functions */

/* The entries refused, ", "-separated: short enough that the line is kept whole among the
 * report's warnings (log.c keeps 240 bytes of each). */
static char refused[72];
static unsigned int nrefused;
static void (*exit_before)(void);

bool tt_go_refuses(const char *name, uintptr_t addr)
{
	const struct tt_go_prog *g = tt_go_prog();

	if (!g->is_go)
		return false;
	return addr ? tt_go_code(addr) : strchr(name, '.') != NULL;
}

void tt_go_refused(const char *what)
{
	size_t len = strlen(refused);

	if (nrefused++ == 0 || len + strlen(what) + 8 < sizeof(refused))
		snprintf(refused + len, sizeof(refused) - len, "%s%s", len ? ", " : "", what);
	else if (!strstr(refused, ", ..."))
		snprintf(refused + len, sizeof(refused) - len, ", ...");
}

void tt_go_say(void)
{
	if (!tt_go_prog()->is_go)
		return;
	if (!tt_go_prog()->cgo) {
		tt_warn("a Go program without cgo: the Go runtime gives its threads a thread "
			"pointer of its own, not libc's, so nothing in it is traced and no "
			"report is written");
		return;
	}
	if (!nrefused) {
		tt_info("a Go program: its C functions (cgo's, shared libraries') can be traced, "
			"its Go functions cannot");
		return;
	}
	tt_warn("%s: Go functions cannot be traced: Go's calls keep no register the "
		"trampoline needs, and goroutines change stack and thread mid-call; only C "
		"functions can (cgo's, libraries')",
		refused);
}

static void before_on_altstack(void *arg)
{
	(void)arg;
	exit_before();
}

/* True if %fs points at a thread block of libc's, whose first word points at itself (x86-64
 * glibc's tcbhead_t): Go's own thread pointer (m.tls, set where no cgo runs the threads)
 * would have the report's thread-local state and errno land in Go's memory. */
static bool libc_thread(void)
{
	uintptr_t fs = 0;

	if (tt_syscall3(SYS_arch_prctl, ARCH_GET_FS, &fs, 0) != 0 || !fs)
		return false;
	return *(const uintptr_t *)fs == fs;
}

/* Reached from runtime.exit with the exit code in %edi, on the calling goroutine's stack
 * (aligned as Go left it: realigned here). */
__attribute__((noreturn, force_align_arg_pointer)) static void entry(int code)
{
	if (libc_thread())
		tt_altstack_run(before_on_altstack, NULL);
	for (;;)
		tt_syscall3(SYS_exit_group, code, 0, 0);
}

bool tt_go_exit_hook(void (*before)(void))
{
	static const uint8_t code[] = TT_GO_EXIT_CODE;
	const struct tt_go_prog *g = tt_go_prog();
	uint64_t to = (uint64_t)(uintptr_t)entry;
	uint8_t patch[16] = { 0x8b, 0x7c, 0x24, 0x08, 0x48, 0xb8 }; /* mov 8(%rsp),%edi; movabs */
	int err;

	if (!g->is_go || !g->cgo) /* without cgo: tt_go_say said why no report */
		return false;
	if (!g->exit_fn || memcmp(g->exit_fn, code, sizeof(code)) != 0 ||
	    memcmp(g->exit_fn + sizeof(code), (const uint8_t[4]){ PAD, PAD, PAD, PAD }, 4) != 0) {
		tt_warn("this Go program's runtime.exit is %s: no report at its exit "
			"(TSC_DUMP_SIGNAL can write one while it runs)",
			g->exit_fn ? "not the code tsctrace knows" : "not found");
		return false;
	}
	memcpy(patch + 6, &to, 8);
	patch[14] = 0xff, patch[15] = 0xe0; /* jmp *%rax */
	exit_before = before;
	err = tt_patch_write(g->exit_fn, patch, sizeof(patch), g->exit_prot);
	if (err) {
		tt_warn("cannot hook this Go program's runtime.exit (%s): no report at its exit",
			strerror(-err));
		return false;
	}
	return true;
}
