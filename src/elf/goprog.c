/*
 * goprog.c - see goprog.h. The Go linker writes a note of owner "Go", type 4 (its build ID)
 * into every executable it links, cgo or not, stripped or not (only such a program has its
 * file read here); runtime.text, runtime.etext and
 * runtime.exit come from .symtab, and where that is stripped runtime.exit is found by its
 * bytes, at a 32-byte boundary as the Go linker aligns functions.
 */
#include "elf/goprog.h"

#include <string.h>

#include "elf/elfdyn.h"
#include "elf/symtab.h"

#define GO_NOTE_BUILDID 4

static struct tt_go_prog prog;

static int find_program(struct tt_elf *o, void *arg)
{
	if (o->name[0])
		return 0;
	*(struct tt_elf *)arg = *o;
	return 1;
}

struct symbols {
	uintptr_t base;
	int left; /* names still to find */
};

static int take_symbol(const char *name, uint64_t value, uint64_t size, void *arg)
{
	struct symbols *s = arg;
	uintptr_t at = s->base + value;

	(void)size;
	if (strncmp(name, "runtime.", 8) != 0)
		return 0;
	name += 8;
	if (strcmp(name, "text") == 0 && !prog.text_start)
		prog.text_start = at, s->left--;
	else if (strcmp(name, "etext") == 0 && !prog.text_end)
		prog.text_end = at, s->left--;
	else if ((strcmp(name, "exit.abi0") == 0 || strcmp(name, "exit") == 0) && !prog.exit_fn)
		prog.exit_fn = (uint8_t *)at, s->left--;
	return s->left == 0;
}

/* Stripped: runtime.exit by its bytes, the first at a function boundary. */
static uint8_t *exit_by_bytes(const struct tt_elf *o)
{
	static const uint8_t code[] = TT_GO_EXIT_CODE;
	size_t i;

	for (i = 0; i < o->phnum; i++) {
		const ElfW(Phdr) *ph = &o->phdr[i];
		uint8_t *at = (uint8_t *)(o->base + ph->p_vaddr), *end = at + ph->p_memsz;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		while ((at = memmem(at, (size_t)(end - at), code, sizeof(code))) != NULL) {
			if (!((uintptr_t)at & 31))
				return at;
			at++;
		}
	}
	return NULL;
}

static void probe(void)
{
	struct tt_elf o;
	struct symbols s = { 0, 3 };
	size_t len;
	const ElfW(Phdr) *ph;

	if (!tt_elf_foreach(find_program, &o))
		return;
	/* The note first: any other program pays for no read of its file. */
	prog.is_go = tt_elf_note(&o, "Go", GO_NOTE_BUILDID, &len) != NULL;
	if (!prog.is_go)
		return;
	/* runtime/cgo exports it for the C side: a program without cgo exports nothing. */
	prog.cgo = tt_elf_lookup(&o, "_cgo_topofstack", NULL) != NULL;
	s.base = o.base;
	tt_symtab_each_symbol("/proc/self/exe", take_symbol, &s); /* stripped: none of them */
	if (!prog.text_start || !prog.text_end)
		prog.text_start = prog.text_end = 0;
	if (!prog.exit_fn)
		prog.exit_fn = exit_by_bytes(&o);
	ph = prog.exit_fn ? tt_elf_exec_phdr(&o, (uintptr_t)prog.exit_fn) : NULL;
	if (ph)
		prog.exit_prot = tt_elf_phdr_prot(ph);
	else
		prog.exit_fn = NULL;
}

const struct tt_go_prog *tt_go_prog(void)
{
	static bool probed;

	if (!probed) {
		probed = true;
		probe();
	}
	return &prog;
}

bool tt_go_code(uintptr_t addr)
{
	const struct tt_go_prog *g = tt_go_prog();

	return g->is_go && addr >= g->text_start && addr < g->text_end;
}
