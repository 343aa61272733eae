/*
 * test_slot_code.c - the heads of inline-hook pool slots (src/hook/slot_code.c), run: a slot
 * is written into an executable page with a `ret` for its relocated entry and stand-ins for
 * the body's two entries, then called with every general register set to a pattern, against
 * a TLS block and counters of the test's own laid out as hot/tramp_layout.h says. Each path
 * must leave the registers the contract names (tramp_body.S IBODY), and the counters as the
 * body would: a call passed over counted once, any other call not touched. The same for the
 * counting entry stub of a GOT hook, which may clobber r11 only and leaves a counted call
 * through its function's target word.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "hook/slot_code.h"
#include "hot/tramp_layout.h"

enum { RAX, RBX, RCX, RDX, RSI, RDI, RBP, R8, R9, R10, R11, R12, R13, R14, R15, NREGS };
enum { RZ_RAX, RZ_RCX, RZ_RDX, RZ_R11, NRZ }; /* -8, -16, -24, -112(%rsp) at the stand-in */
enum { WENT_COPY, WENT_BODY, WENT_TIMED };

/* Read and written by the assembly below (not static: referred to by name there). */
uint64_t tsc_regs_in[NREGS], tsc_regs_out[NREGS], tsc_seen[NREGS], tsc_seen_rz[NRZ];
void *tsc_slot_ptr;
int tsc_went;

void tsc_run_slot(void);
void tsc_body(void);
void tsc_timed(void);

#define LOAD(i, r) "movq tsc_regs_in+" #i "*8(%rip), %" #r "\n"
#define STORE(a, i, r) "movq %" #r ", " a "+" #i "*8(%rip)\n"
/* clang-format off */
#define ALL(M, a) \
	M(a, 0, rax) M(a, 1, rbx) M(a, 2, rcx) M(a, 3, rdx) M(a, 4, rsi) M(a, 5, rdi) \
	M(a, 6, rbp) M(a, 7, r8) M(a, 8, r9) M(a, 9, r10) M(a, 10, r11) M(a, 11, r12) \
	M(a, 12, r13) M(a, 13, r14) M(a, 14, r15)
/* clang-format on */
#define LOAD_A(a, i, r) LOAD(i, r)

__asm__(".text\n"
	/* tsc_run_slot: every register from tsc_regs_in, call the slot, every one out. */
	".globl tsc_run_slot\n"
	"tsc_run_slot:\n"
	"pushq %rbx\n pushq %rbp\n pushq %r12\n pushq %r13\n pushq %r14\n pushq %r15\n"
	"subq $8, %rsp\n" ALL(LOAD_A, x) "call *tsc_slot_ptr(%rip)\n" ALL(
		STORE,
		"tsc_regs_out") "addq $8, %rsp\n"
				"popq %r15\n popq %r14\n popq %r13\n popq %r12\n popq %rbp\n popq "
				"%rbx\n"
				"ret\n"
				/* The body's stand-ins: what they were entered with, and the red zone's words. */
				".globl tsc_body\n"
				"tsc_body:\n"
				"movl $1, tsc_went(%rip)\n"
				"jmp 1f\n"
				".globl tsc_timed\n"
				"tsc_timed:\n"
				"movl $2, tsc_went(%rip)\n"
				"1:\n" ALL(STORE, "tsc_seen") "movq -8(%rsp), %rax\n movq %rax, "
							      "tsc_seen_rz+0(%rip)\n"
							      "movq -16(%rsp), %rax\n movq %rax, "
							      "tsc_seen_rz+8(%rip)\n"
							      "movq -24(%rsp), %rax\n movq %rax, "
							      "tsc_seen_rz+16(%rip)\n"
							      "movq -112(%rsp), %rax\n movq %rax, "
							      "tsc_seen_rz+24(%rip)\n"
							      "ret\n");

/* This thread's stand-in for struct tt_tls, and one function's counters (struct tt_func_stats). */
static __thread uint8_t fake_tls[64] __attribute__((aligned(64), tls_model("initial-exec")));
static uint64_t func_stats[16];
static uint64_t *table[512];

#define SKIP (TT_FUNC_STATS_SKIP / 8)
#define PASSED (TT_FUNC_STATS_PASSED / 8)
#define CALLS (TT_FUNC_STATS_CALLS / 8)

/* In .bss, within a rel32 of the stand-ins (a counting stub jumps to them so). */
static uint8_t page[4096] __attribute__((aligned(4096)));
#define TARGET_RET 256 /* a `ret` in the page: where a counting stub's target word points */
static uint64_t target_word;

static int32_t tls_offset(void)
{
	uintptr_t tp;

	__asm__("movq %%fs:0, %0" : "=r"(tp));
	return (int32_t)((intptr_t)((uintptr_t)fake_tls - tp));
}

static void set_tls(uint8_t in_shim, uint32_t nstats)
{
	uint64_t **stats = table;

	memset(fake_tls, 0, sizeof(fake_tls));
	fake_tls[TT_TLS_IN_SHIM] = in_shim;
	memcpy(fake_tls + TT_TLS_STATS, &stats, sizeof(stats));
	memcpy(fake_tls + TT_TLS_NSTATS, &nstats, sizeof(nstats));
}

/* A slot for index, counting or plain, its relocated entry a `ret`. */
static void make_slot(uint32_t index, int counting)
{
	struct tt_slot_head h = { .index = index,
				  .tls_offset = tls_offset(),
				  .body = (uint64_t)(uintptr_t)tsc_body,
				  .timed = (uint64_t)(uintptr_t)tsc_timed };

	assert_int_equal(mprotect(page, 4096, PROT_READ | PROT_WRITE), 0);
	memset(page, 0xcc, 4096);
	if (counting) {
		tt_slot_write_counting(page, &h);
		page[TT_SLOT_COUNT_COPY] = 0xc3;
	} else {
		tt_slot_write_plain(page, &h);
		page[TT_SLOT_PLAIN_COPY] = 0xc3;
	}
	assert_int_equal(mprotect(page, 4096, PROT_READ | PROT_EXEC), 0);
	tsc_slot_ptr = page;
}

static void run(void)
{
	int i;

	for (i = 0; i < NREGS; i++)
		tsc_regs_in[i] = 0x1111111111111111ull * (uint64_t)(i + 1) ^ 0x8000000000000123ull;
	memset(tsc_seen, 0, sizeof(tsc_seen));
	memset(tsc_seen_rz, 0, sizeof(tsc_seen_rz));
	tsc_went = WENT_COPY;
	tsc_run_slot();
}

/* A GOT hook's counting stub for index, its target word pointing at a `ret`. */
static void make_stub(uint32_t index)
{
	struct tt_stub_head h = { .index = index,
				  .tls_offset = tls_offset(),
				  .target = (uint64_t)(uintptr_t)&target_word,
				  .body = (uint64_t)(uintptr_t)tsc_body,
				  .timed = (uint64_t)(uintptr_t)tsc_timed };

	assert_int_equal(mprotect(page, 4096, PROT_READ | PROT_WRITE), 0);
	memset(page, 0xcc, 4096);
	tt_stub_write_counting(page, &h);
	page[TARGET_RET] = 0xc3;
	target_word = (uint64_t)(uintptr_t)(page + TARGET_RET);
	assert_int_equal(mprotect(page, 4096, PROT_READ | PROT_EXEC), 0);
	tsc_slot_ptr = page;
}

/* Every register as the caller left it, but r11 (the index) where the body is entered. */
static void assert_regs_kept(const uint64_t *regs, int but_r11)
{
	int i;

	for (i = 0; i < NREGS; i++)
		if (!(but_r11 && i == R11))
			assert_int_equal(regs[i], tsc_regs_in[i]);
}

/* The body entered from its start, as from a plain head. */
static void assert_went_body(uint32_t index)
{
	assert_int_equal(tsc_went, WENT_BODY);
	assert_regs_kept(tsc_seen, 1);
	assert_int_equal(tsc_seen[R11], index);
	assert_int_equal(tsc_seen_rz[RZ_R11], tsc_regs_in[R11]);
}

static void counters(uint64_t calls, uint64_t skip, uint64_t passed)
{
	memset(func_stats, 0, sizeof(func_stats));
	func_stats[CALLS] = calls;
	func_stats[SKIP] = skip;
	func_stats[PASSED] = passed;
}

/* The table with index's counters (or none), the TLS block, the counters' starting values. */
static void arm(uint32_t index, int has_stat, uint8_t in_shim, uint32_t nstats, uint64_t calls,
		uint64_t skip, uint64_t passed)
{
	memset(table, 0, sizeof(table));
	table[index] = has_stat ? func_stats : NULL;
	set_tls(in_shim, nstats);
	counters(calls, skip, passed);
}

/* The timed entry, as the body's PROLOGUE leaves a call to time: the TLS offset in rax, the
 * counters in rdx, the index in r11d, the caller's rax, rcx, rdx in the red zone, the rest
 * kept; the countdown borrowed (FRAME_ENTER reloads it), nothing counted yet. */
static void assert_went_timed(uint32_t index)
{
	int r;

	assert_int_equal(tsc_went, WENT_TIMED);
	assert_int_equal(tsc_seen[RAX], (uint64_t)(int64_t)tls_offset());
	assert_int_equal(tsc_seen[RDX], (uint64_t)(uintptr_t)func_stats);
	assert_int_equal((uint32_t)tsc_seen[R11], index);
	assert_int_equal(tsc_seen_rz[RZ_RAX], tsc_regs_in[RAX]);
	assert_int_equal(tsc_seen_rz[RZ_RCX], tsc_regs_in[RCX]);
	assert_int_equal(tsc_seen_rz[RZ_RDX], tsc_regs_in[RDX]);
	for (r = 0; r < NREGS; r++)
		if (r != RAX && r != RDX && r != R11)
			assert_int_equal(tsc_seen[r], tsc_regs_in[r]);
}

static void assert_counters(uint64_t calls, uint64_t skip, uint64_t passed)
{
	assert_int_equal(func_stats[CALLS], calls);
	assert_int_equal(func_stats[SKIP], skip);
	assert_int_equal(func_stats[PASSED], passed);
}

/* Passed over: counted, every register kept, into the copy (the `ret`). */
static void test_counted(void **state)
{
	static const uint32_t indices[] = { 2, 300, 511 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(indices) / sizeof(indices[0]); i++) {
		make_slot(indices[i], 1);
		arm(indices[i], 1, 0, 512, 10, 5, 7);
		run();
		assert_int_equal(tsc_went, WENT_COPY);
		assert_regs_kept(tsc_regs_out, 0);
		assert_counters(11, 4, 8);
	}
}

/* Count-only functions (the countdown at its top, thread.h TT_COUNT_ONLY_SKIP) stay so. */
static void test_count_only(void **state)
{
	(void)state;
	make_slot(3, 1);
	arm(3, 1, 0, 4, 0, UINT64_MAX, 0);
	run();
	assert_int_equal(tsc_went, WENT_COPY);
	assert_regs_kept(tsc_regs_out, 0);
	assert_counters(1, UINT64_MAX - 1, 1);
}

/* The countdown ran out: the timed entry, the caller's r11 in the red zone too. */
static void test_timed(void **state)
{
	(void)state;
	make_slot(2, 1);
	arm(2, 1, 0, 3, 10, 0, 7);
	run();
	assert_went_timed(2);
	assert_int_equal(tsc_seen_rz[RZ_R11], tsc_regs_in[R11]);
	assert_counters(10, UINT64_MAX, 7);
}

/* The guard up (the shim's own call, or TT_IN_HANDLER), no thread setup (nstats 0), the
 * function added since (nstats <= index), its first call here (NULL counters): the body from
 * its start, every register as the caller left it, nothing counted. */
static void test_general(void **state)
{
	static const struct {
		uint8_t in_shim;
		uint32_t nstats;
		int has_stat;
	} cases[] = { { 1, 8, 1 }, { TT_IN_HANDLER, 8, 1 }, { 0, 0, 1 }, { 0, 5, 1 }, { 0, 4, 1 },
		      { 0, 8, 0 } };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_slot(5, 1);
		arm(5, cases[i].has_stat, cases[i].in_shim, cases[i].nstats, 10, 3, 7);
		run();
		assert_went_body(5);
		assert_counters(10, 3, 7);
	}
}

/* The plain head: always the body from its start. */
static void test_plain(void **state)
{
	(void)state;
	make_slot(2, 0);
	arm(2, 1, 0, 3, 10, 5, 7);
	run();
	assert_went_body(2);
	assert_counters(10, 5, 7);
}

/* The GOT stub: counted, every register kept but r11, through the target word. */
static void test_stub_counted(void **state)
{
	static const uint32_t indices[] = { 2, 300 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(indices) / sizeof(indices[0]); i++) {
		make_stub(indices[i]);
		arm(indices[i], 1, 0, 512, 10, 5, 7);
		run();
		assert_int_equal(tsc_went, WENT_COPY);
		assert_regs_kept(tsc_regs_out, 1);
		assert_counters(11, 4, 8);
		counters(0, UINT64_MAX, 0); /* count-only */
		run();
		assert_int_equal(tsc_went, WENT_COPY);
		assert_counters(1, UINT64_MAX - 1, 1);
	}
}

/* Its timed way: as the GOT body's PROLOGUE leaves a call to time. */
static void test_stub_timed(void **state)
{
	(void)state;
	make_stub(2);
	arm(2, 1, 0, 3, 10, 0, 7);
	run();
	assert_went_timed(2);
	assert_counters(10, UINT64_MAX, 7);
}

/* Its other way: the GOT body's entry, as from the plain stub (TLS offset in rax, the
 * caller's rax at -8, the index in r11d), nothing counted. */
static void test_stub_general(void **state)
{
	static const struct {
		uint8_t in_shim;
		uint32_t nstats;
		int has_stat;
	} cases[] = { { 1, 8, 1 }, { TT_IN_HANDLER, 8, 1 }, { 0, 0, 1 }, { 0, 5, 1 }, { 0, 8, 0 } };
	size_t i;
	int r;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_stub(5);
		arm(5, cases[i].has_stat, cases[i].in_shim, cases[i].nstats, 10, 3, 7);
		run();
		assert_int_equal(tsc_went, WENT_BODY);
		assert_int_equal(tsc_seen[RAX], (uint64_t)(int64_t)tls_offset());
		assert_int_equal(tsc_seen_rz[RZ_RAX], tsc_regs_in[RAX]);
		assert_int_equal(tsc_seen[R11], 5);
		for (r = 0; r < NREGS; r++)
			if (r != RAX && r != R11)
				assert_int_equal(tsc_seen[r], tsc_regs_in[r]);
		assert_counters(10, 3, 7);
	}
}

static void test_can_count(void **state)
{
	(void)state;
	assert_true(tt_slot_can_count(0));
	assert_true(tt_slot_can_count((1u << 28) - 1));
	assert_false(tt_slot_can_count(1u << 28));
	assert_false(tt_slot_can_count(UINT32_MAX));
}

/* The bytes the heads had when they were written as byte arrays (before x86/emit.c), for
 * index 0x123456 and 3, TLS offset -0x1a8, and the addresses in check_bytes: the emitter must
 * not move one. */
static const uint8_t plain_head[25] = {
	0x4c, 0x89, 0x5c, 0x24, 0x90, 0x41, 0xbb, 0x56, 0x34, 0x12, 0x00, 0xff, 0x25,
	0x00, 0x00, 0x00, 0x00, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
};
static const uint8_t counting_head[248] = {
	0x48, 0x89, 0x44, 0x24, 0xf8, 0x48, 0x89, 0x54, 0x24, 0xe8, 0x48, 0xc7, 0xc0, 0x58, 0xfe,
	0xff, 0xff, 0x64, 0x80, 0x78, 0x10, 0x00, 0x0f, 0x85, 0xaa, 0x00, 0x00, 0x00, 0x64, 0x81,
	0x78, 0x30, 0x56, 0x34, 0x12, 0x00, 0x0f, 0x86, 0x9c, 0x00, 0x00, 0x00, 0x64, 0x48, 0x8b,
	0x50, 0x28, 0x48, 0x8b, 0x92, 0xb0, 0xa2, 0x91, 0x00, 0x48, 0x85, 0xd2, 0x0f, 0x84, 0x87,
	0x00, 0x00, 0x00, 0x48, 0x83, 0x6a, 0x28, 0x01, 0x0f, 0x82, 0x66, 0x00, 0x00, 0x00, 0x48,
	0xff, 0x02, 0x48, 0xff, 0x42, 0x38, 0x48, 0x8b, 0x44, 0x24, 0xf8, 0x48, 0x8b, 0x54, 0x24,
	0xe8, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0x48, 0x89, 0x4c, 0x24,
	0xf0, 0x4c, 0x89, 0x5c, 0x24, 0x90, 0x41, 0xbb, 0x56, 0x34, 0x12, 0x00, 0xff, 0x25, 0x22,
	0x00, 0x00, 0x00, 0x48, 0x8b, 0x44, 0x24, 0xf8, 0x48, 0x8b, 0x54, 0x24, 0xe8, 0x4c, 0x89,
	0x5c, 0x24, 0x90, 0x41, 0xbb, 0x56, 0x34, 0x12, 0x00, 0xff, 0x25, 0x0f, 0x00, 0x00, 0x00,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88, 0x77, 0x66,
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
};
static const uint8_t counting_stub[128] = {
	0xf3, 0x0f, 0x1e, 0xfa, 0x48, 0x89, 0x44, 0x24, 0xf8, 0x48, 0xc7, 0xc0, 0x58, 0xfe, 0xff,
	0xff, 0x64, 0x80, 0x78, 0x10, 0x00, 0x75, 0x55, 0x64, 0x81, 0x78, 0x30, 0x56, 0x34, 0x12,
	0x00, 0x76, 0x4b, 0x64, 0x4c, 0x8b, 0x58, 0x28, 0x4d, 0x8b, 0x9b, 0xb0, 0xa2, 0x91, 0x00,
	0x4d, 0x85, 0xdb, 0x74, 0x3a, 0x49, 0x83, 0x6b, 0x28, 0x01, 0x72, 0x1b, 0x49, 0xff, 0x03,
	0x49, 0xff, 0x43, 0x38, 0x49, 0xbb, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x48,
	0x8b, 0x44, 0x24, 0xf8, 0x41, 0xff, 0x23, 0xcc, 0xcc, 0x48, 0x89, 0x4c, 0x24, 0xf0, 0x48,
	0x89, 0x54, 0x24, 0xe8, 0x4c, 0x89, 0xda, 0x41, 0xbb, 0x56, 0x34, 0x12, 0x00, 0xe9, 0x94,
	0xdf, 0xff, 0xff, 0x41, 0xbb, 0x56, 0x34, 0x12, 0x00, 0xe9, 0x89, 0x0f, 0x00, 0x00, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};

static const uint8_t plain_head_small[25] = {
	0x4c, 0x89, 0x5c, 0x24, 0x90, 0x41, 0xbb, 0x03, 0x00, 0x00, 0x00, 0xff, 0x25,
	0x00, 0x00, 0x00, 0x00, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
};
static const uint8_t counting_head_small[248] = {
	0x48, 0x89, 0x44, 0x24, 0xf8, 0x48, 0x89, 0x54, 0x24, 0xe8, 0x48, 0xc7, 0xc0, 0x58, 0xfe,
	0xff, 0xff, 0x64, 0x80, 0x78, 0x10, 0x00, 0x0f, 0x85, 0xaa, 0x00, 0x00, 0x00, 0x64, 0x81,
	0x78, 0x30, 0x03, 0x00, 0x00, 0x00, 0x0f, 0x86, 0x9c, 0x00, 0x00, 0x00, 0x64, 0x48, 0x8b,
	0x50, 0x28, 0x48, 0x8b, 0x92, 0x18, 0x00, 0x00, 0x00, 0x48, 0x85, 0xd2, 0x0f, 0x84, 0x87,
	0x00, 0x00, 0x00, 0x48, 0x83, 0x6a, 0x28, 0x01, 0x0f, 0x82, 0x66, 0x00, 0x00, 0x00, 0x48,
	0xff, 0x02, 0x48, 0xff, 0x42, 0x38, 0x48, 0x8b, 0x44, 0x24, 0xf8, 0x48, 0x8b, 0x54, 0x24,
	0xe8, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0x48, 0x89, 0x4c, 0x24,
	0xf0, 0x4c, 0x89, 0x5c, 0x24, 0x90, 0x41, 0xbb, 0x03, 0x00, 0x00, 0x00, 0xff, 0x25, 0x22,
	0x00, 0x00, 0x00, 0x48, 0x8b, 0x44, 0x24, 0xf8, 0x48, 0x8b, 0x54, 0x24, 0xe8, 0x4c, 0x89,
	0x5c, 0x24, 0x90, 0x41, 0xbb, 0x03, 0x00, 0x00, 0x00, 0xff, 0x25, 0x0f, 0x00, 0x00, 0x00,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88, 0x77, 0x66,
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
};
static const uint8_t counting_stub_small[128] = {
	0xf3, 0x0f, 0x1e, 0xfa, 0x48, 0x89, 0x44, 0x24, 0xf8, 0x48, 0xc7, 0xc0, 0x58, 0xfe, 0xff,
	0xff, 0x64, 0x80, 0x78, 0x10, 0x00, 0x75, 0x55, 0x64, 0x81, 0x78, 0x30, 0x03, 0x00, 0x00,
	0x00, 0x76, 0x4b, 0x64, 0x4c, 0x8b, 0x58, 0x28, 0x4d, 0x8b, 0x9b, 0x18, 0x00, 0x00, 0x00,
	0x4d, 0x85, 0xdb, 0x74, 0x3a, 0x49, 0x83, 0x6b, 0x28, 0x01, 0x72, 0x1b, 0x49, 0xff, 0x03,
	0x49, 0xff, 0x43, 0x38, 0x49, 0xbb, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x48,
	0x8b, 0x44, 0x24, 0xf8, 0x41, 0xff, 0x23, 0xcc, 0xcc, 0x48, 0x89, 0x4c, 0x24, 0xf0, 0x48,
	0x89, 0x54, 0x24, 0xe8, 0x4c, 0x89, 0xda, 0x41, 0xbb, 0x03, 0x00, 0x00, 0x00, 0xe9, 0x94,
	0xdf, 0xff, 0xff, 0x41, 0xbb, 0x03, 0x00, 0x00, 0x00, 0xe9, 0x89, 0x0f, 0x00, 0x00, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};

/* The three heads written for `index` (other fields as above) must be the bytes given. */
static void check_bytes(uint32_t index, const uint8_t *plain, const uint8_t *counting,
			const uint8_t *stub)
{
	static uint8_t code[512];
	struct tt_slot_head h = { .index = index,
				  .tls_offset = -0x1a8,
				  .body = 0x1122334455667788ull,
				  .timed = 0x66778899aabbccddull };
	struct tt_stub_head s = { .index = index,
				  .tls_offset = -0x1a8,
				  .target = 0x0102030405060708ull };

	memset(code, 0xcc, sizeof(code));
	tt_slot_write_plain(code, &h);
	assert_memory_equal(code, plain, TT_SLOT_PLAIN_CODE);
	memset(code, 0xcc, sizeof(code));
	tt_slot_write_counting(code, &h);
	assert_memory_equal(code, counting, TT_SLOT_COUNT_END);
	s.body = (uint64_t)(uintptr_t)code + 0x1000;
	s.timed = (uint64_t)(uintptr_t)code - 0x2000;
	memset(code, 0xcc, sizeof(code));
	tt_stub_write_counting(code, &s);
	assert_memory_equal(code, stub, TT_STUB_COUNT_SIZE);
}

/* A large index and a small one: the stats-table load keeps its disp32 either way (the layout
 * of the heads is fixed). */
static void test_bytes_unchanged(void **state)
{
	(void)state;
	check_bytes(0x123456, plain_head, counting_head, counting_stub);
	check_bytes(3, plain_head_small, counting_head_small, counting_stub_small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counted),	     cmocka_unit_test(test_count_only),
		cmocka_unit_test(test_timed),	     cmocka_unit_test(test_general),
		cmocka_unit_test(test_plain),	     cmocka_unit_test(test_can_count),
		cmocka_unit_test(test_stub_counted), cmocka_unit_test(test_stub_timed),
		cmocka_unit_test(test_stub_general), cmocka_unit_test(test_bytes_unchanged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
