/*
 * xref_time.c - how long the check for jumps into patched bytes (src/x86/xref.c) takes on a
 * real library, and how many exported functions it refuses: the byte scan alone (no known
 * ranges: every candidate counts) against the scan with its candidates decoded.
 *
 *   make && make -C bench xref_time && build/bench/xref_time [LIBRARY [N]]
 *
 * LIBRARY: libc.so.6 (default), libsqlite3.so.0... Every exported function of the library
 * whose entry tt_reloc_plan accepts is one range, all in one scan, as a batch that hooks
 * them all inline would do; N: only N of them, spread over the library (a usual TSC_FUNCS).
 * Functions still refused after decoding are listed. Prints the median of
 * REPS runs of each step, in milliseconds.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "elf/coderange.h"
#include "elf/elfdyn.h"
#include "x86/disasm.h"
#include "x86/relocate.h"
#include "x86/xref.h"

#define REPS 15
#define MAX_FUNCS 20000

static struct tt_xref_range ranges[MAX_FUNCS], work[MAX_FUNCS];
static size_t nranges;
static uintptr_t seg_lo, seg_hi;
static struct tt_code_ranges code;
static const char *want;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v)
{
	qsort(v, REPS, sizeof(*v), cmp);
	return v[REPS / 2];
}

static int object_cb(struct tt_elf *o, void *arg)
{
	size_t i;

	(void)arg;
	if (!strstr(o->name, want))
		return 0;
	for (i = 0; i < o->phnum; i++)
		if (o->phdr[i].p_type == PT_LOAD && (o->phdr[i].p_flags & PF_X)) {
			seg_lo = o->base + o->phdr[i].p_vaddr;
			seg_hi = seg_lo + o->phdr[i].p_memsz;
		}
	for (i = 0; i < o->nsyms && nranges < MAX_FUNCS; i++) {
		const ElfW(Sym) *s = &o->symtab[i];
		uint64_t addr = o->base + s->st_value;
		struct tt_reloc r;
		char why[160];

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
		    !s->st_size || addr < seg_lo || addr + s->st_size > seg_hi)
			continue;
		if (tt_reloc_plan((const uint8_t *)addr, s->st_size, addr, addr + 0x100000, &r, why,
				  sizeof(why)))
			continue;
		ranges[nranges++] = (struct tt_xref_range){ .lo = addr + r.patch_at + 1,
							    .hi = addr + r.patch_at + r.displaced,
							    .own_lo = addr,
							    .own_hi = addr + s->st_size };
	}
	return 1;
}

/* Refusals of one scan; known NULL: the byte scan alone. */
static size_t scan(const struct tt_code_ranges *k)
{
	size_t i, hits = 0;

	memcpy(work, ranges, nranges * sizeof(*work));
	tt_xref_scan((const uint8_t *)seg_lo, seg_hi - seg_lo, seg_lo, k ? k->r : NULL,
		     k ? k->n : 0, work, nranges);
	for (i = 0; i < nranges; i++)
		hits += work[i].hit;
	return hits;
}

static int ranges_cb(struct tt_elf *o, void *arg)
{
	(void)arg;
	if (!strstr(o->name, want))
		return 0;
	tt_code_ranges_free(&code);
	return tt_code_ranges_of(o, seg_lo, seg_hi, &code) < 0 ? -1 : 1;
}

/* For comparison: decoding every known range whole, what a full linear sweep costs. */
static size_t sweep_all(size_t *bad)
{
	size_t i, insns = 0;

	*bad = 0;
	for (i = 0; i < code.n; i++) {
		uint64_t at = code.r[i].lo;

		while (at < code.r[i].hi) {
			struct tt_insn in;
			uint64_t room = code.r[i].hi - at;

			if (tt_disasm_decode((const uint8_t *)at, room < 15 ? room : 15, at, &in) <
			    0) {
				++*bad;
				break;
			}
			at += in.len;
			insns++;
		}
	}
	return insns;
}

int main(int argc, char **argv)
{
	double t_old[REPS], t_ranges[REPS], t_new[REPS], t_sweep[REPS];
	size_t old_hits = 0, new_hits = 0, insns = 0, bad = 0, covered = 0, i;
	const char *err;
	int r;

	want = argc > 1 ? argv[1] : "libc.so.6";
	if (!strstr(want, "libc.so") && !dlopen(want, RTLD_NOW)) {
		fprintf(stderr, "xref_time: %s\n", dlerror());
		return 1;
	}
	err = tt_disasm_load();
	if (err) {
		fprintf(stderr, "xref_time: %s\n", err);
		return 1;
	}
	tt_elf_foreach(object_cb, NULL);
	if (argc > 2 && (size_t)atoi(argv[2]) < nranges) { /* N of them, spread out */
		size_t n = (size_t)atoi(argv[2]);

		for (i = 0; i < n; i++)
			ranges[i] = ranges[i * nranges / n];
		nranges = n;
	}
	if (!nranges) {
		fprintf(stderr, "xref_time: no function of %s to check\n", want);
		return 1;
	}
	for (r = 0; r < REPS; r++) {
		double t0 = now_ms(), t1, t2, t3, t4;

		old_hits = scan(NULL);
		t1 = now_ms();
		tt_elf_foreach(ranges_cb, NULL);
		t2 = now_ms();
		new_hits = scan(&code);
		t3 = now_ms();
		insns = sweep_all(&bad);
		t4 = now_ms();
		t_old[r] = t1 - t0;
		t_ranges[r] = t2 - t1;
		t_new[r] = t3 - t2;
		t_sweep[r] = t4 - t3;
	}
	for (i = 0; i < nranges; i++)
		if (work[i].hit) {
			Dl_info d;

			dladdr((void *)work[i].own_lo, &d);
			printf("  refused: %s (jump from %+lld)\n", d.dli_sname ? d.dli_sname : "?",
			       (long long)(work[i].from - work[i].lo + 1));
		}
	for (i = 0; i < code.n; i++)
		covered += code.r[i].hi - code.r[i].lo; /* overlaps counted twice: rough */
	printf("%s: %zu KiB of code, %zu known ranges (~%zu KiB), %zu functions checked\n", want,
	       (size_t)(seg_hi - seg_lo) / 1024, code.n, covered / 1024, nranges);
	printf("  byte scan alone:        %7.2f ms, %zu refused\n", median(t_old), old_hits);
	printf("  known ranges (once):    %7.2f ms\n", median(t_ranges));
	printf("  scan + decoding:        %7.2f ms, %zu refused\n", median(t_new), new_hits);
	printf("  (whole sweep, compare:  %7.2f ms, %zu instructions, %zu ranges undecodable)\n",
	       median(t_sweep), insns, bad);
	return 0;
}
