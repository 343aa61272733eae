/*
 * slot_code.c - see slot_code.h. The bytes below were checked with
 * `objdump -D -b binary -mi386:x86-64` (tests/unit/test_slot_code.c runs them).
 */
#include <string.h>

#include "hook/slot_code.h"
#include "hot/tramp_layout.h"

_Static_assert(TT_TLS_IN_SHIM < 128 && TT_TLS_STATS < 128 && TT_TLS_NSTATS < 128 &&
		       TT_FSTAT_SKIP < 128 && TT_FSTAT_PASSED < 128 && TT_FSTAT_CALLS == 0,
	       "the counting head uses 8-bit displacements (and none for calls)");
_Static_assert(TT_SLOT_COUNT_TAIL >= TT_SLOT_COUNT_COPY + 80, "room for TT_COPY_MAX (relocate.h)");

static uint8_t *put(uint8_t *p, const void *bytes, size_t n)
{
	memcpy(p, bytes, n);
	return p + n;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	return put(p, &v, 4);
}

/* A jcc rel32 (0f cc) at p to `to`. */
static uint8_t *jcc(uint8_t *p, uint8_t cc, const uint8_t *to)
{
	*p++ = 0x0f;
	*p++ = cc;
	return put32(p, (uint32_t)(int32_t)(to - (p + 4)));
}

/* movl $index, %r11d; jmp *abs(%rip), where abs is 8 bytes at `abs`. */
static uint8_t *to_body(uint8_t *p, uint32_t index, const uint8_t *abs)
{
	*p++ = 0x41; /* movl $index, %r11d */
	*p++ = 0xbb;
	p = put32(p, index);
	*p++ = 0xff; /* jmp *rel32(%rip) */
	*p++ = 0x25;
	return put32(p, (uint32_t)(int32_t)(abs - (p + 4)));
}

static const uint8_t save_r11[5] = { 0x4c, 0x89, 0x5c, 0x24, 0x90 }; /* mov %r11,-112(%rsp) */
static const uint8_t save_rax[5] = { 0x48, 0x89, 0x44, 0x24, 0xf8 }; /* mov %rax,-8(%rsp) */
static const uint8_t save_rdx[5] = { 0x48, 0x89, 0x54, 0x24, 0xe8 }; /* mov %rdx,-24(%rsp) */
static const uint8_t save_rcx[5] = { 0x48, 0x89, 0x4c, 0x24, 0xf0 }; /* mov %rcx,-16(%rsp) */
static const uint8_t load_rax[5] = { 0x48, 0x8b, 0x44, 0x24, 0xf8 }; /* mov -8(%rsp),%rax */
static const uint8_t load_rdx[5] = { 0x48, 0x8b, 0x54, 0x24, 0xe8 }; /* mov -24(%rsp),%rdx */

bool tt_slot_can_count(uint32_t index)
{
	return index < (1u << 28); /* index * 8 in a signed disp32 */
}

void tt_slot_write_plain(uint8_t *slot, const struct tt_slot_head *h)
{
	uint8_t *p = put(slot, save_r11, sizeof(save_r11));

	p = to_body(p, h->index, p + 6 + 6);
	put(p, &h->body, 8);
}

void tt_slot_write_counting(uint8_t *slot, const struct tt_slot_head *h)
{
	uint8_t *timed = slot + TT_SLOT_COUNT_TAIL, *general = timed + 22;
	uint8_t *abs_timed = slot + TT_SLOT_COUNT_END - 16, *abs_body = abs_timed + 8;
	uint8_t *p = slot;

	/* rax and rdx into the red zone, the TLS offset into rax (the body's PROLOGUE keeps
	 * them at the same places, so that its timed entry can be taken from here). */
	p = put(p, save_rax, 5);
	p = put(p, save_rdx, 5);
	p = put(p, "\x48\xc7\xc0", 3); /* mov $tls_offset, %rax */
	p = put32(p, (uint32_t)h->tls_offset);
	/* The guard up (the shim's own call, or a handler that interrupted it): the body. */
	p = put(p, "\x64\x80\x78", 3); /* cmpb $0, %fs:IN_SHIM(%rax) */
	*p++ = TT_TLS_IN_SHIM;
	*p++ = 0;
	p = jcc(p, 0x85, general); /* jne */
	/* No thread setup, or the function added since: the body (its slow path). */
	p = put(p, "\x64\x81\x78", 3); /* cmpl $index, %fs:NSTATS(%rax) */
	*p++ = TT_TLS_NSTATS;
	p = put32(p, h->index);
	p = jcc(p, 0x86, general);	   /* jbe: nstats <= index */
	p = put(p, "\x64\x48\x8b\x50", 4); /* mov %fs:STATS(%rax), %rdx */
	*p++ = TT_TLS_STATS;
	p = put(p, "\x48\x8b\x92", 3); /* mov index*8(%rdx), %rdx */
	p = put32(p, h->index * 8u);
	p = put(p, "\x48\x85\xd2", 3); /* test %rdx, %rdx: the first call in this thread */
	p = jcc(p, 0x84, general);     /* jz */
	p = put(p, "\x48\x83\x6a", 3); /* subq $1, SKIP(%rdx): the countdown, as the body's */
	*p++ = TT_FSTAT_SKIP;
	*p++ = 1;
	p = jcc(p, 0x82, timed);       /* jb: it was zero, time this call */
	p = put(p, "\x48\xff\x02", 3); /* incq CALLS(%rdx) */
	p = put(p, "\x48\xff\x42", 3); /* incq PASSED(%rdx) */
	*p++ = TT_FSTAT_PASSED;
	p = put(p, load_rax, 5);
	p = put(p, load_rdx, 5);
	/* p == slot + TT_SLOT_COUNT_COPY: on into the relocated entry, written there. */

	/* Timed: as the body's PROLOGUE leaves it (rax = TLS offset, rdx = the counters, rax,
	 * rcx, rdx saved at -8, -16, -24), the caller's r11 where the plain head keeps it. */
	p = put(timed, save_rcx, 5);
	p = put(p, save_r11, 5);
	p = to_body(p, h->index, abs_timed);
	/* Anything else: the body from its start, every register as the caller left it. */
	p = put(general, load_rax, 5);
	p = put(p, load_rdx, 5);
	p = put(p, save_r11, 5);
	to_body(p, h->index, abs_body);
	put(abs_timed, &h->timed, 8);
	put(abs_body, &h->body, 8);
}

/* A jcc rel8 (7x) at p to `to`, which the layout below keeps within reach. */
static uint8_t *jcc8(uint8_t *p, uint8_t cc, const uint8_t *to)
{
	*p++ = cc;
	*p = (uint8_t)(int8_t)(to - (p + 1));
	return p + 1;
}

/* jmp rel32 at p to the absolute address `to`. */
static uint8_t *jmp32(uint8_t *p, uint64_t to)
{
	*p++ = 0xe9;
	return put32(p, (uint32_t)(int32_t)(int64_t)(to - (uint64_t)(uintptr_t)(p + 4)));
}

void tt_stub_write_counting(uint8_t *stub, const struct tt_stub_head *h)
{
	uint8_t *timed = stub + 84, *general = timed + 24; /* all within a rel8 */
	uint8_t *p = stub;

	memset(stub, 0xcc, TT_STUB_COUNT_SIZE);
	p = put(p, "\xf3\x0f\x1e\xfa", 4); /* endbr64: reached by indirect calls and jumps */
	p = put(p, save_rax, 5);
	p = put(p, "\x48\xc7\xc0", 3); /* mov $tls_offset, %rax */
	p = put32(p, (uint32_t)h->tls_offset);
	p = put(p, "\x64\x80\x78", 3); /* cmpb $0, %fs:IN_SHIM(%rax) */
	*p++ = TT_TLS_IN_SHIM;
	*p++ = 0;
	p = jcc8(p, 0x75, general);    /* jne */
	p = put(p, "\x64\x81\x78", 3); /* cmpl $index, %fs:NSTATS(%rax) */
	*p++ = TT_TLS_NSTATS;
	p = put32(p, h->index);
	p = jcc8(p, 0x76, general);	   /* jbe */
	p = put(p, "\x64\x4c\x8b\x58", 4); /* mov %fs:STATS(%rax), %r11 */
	*p++ = TT_TLS_STATS;
	p = put(p, "\x4d\x8b\x9b", 3); /* mov index*8(%r11), %r11 */
	p = put32(p, h->index * 8u);
	p = put(p, "\x4d\x85\xdb", 3); /* test %r11, %r11 */
	p = jcc8(p, 0x74, general);    /* jz */
	p = put(p, "\x49\x83\x6b", 3); /* subq $1, SKIP(%r11) */
	*p++ = TT_FSTAT_SKIP;
	*p++ = 1;
	p = jcc8(p, 0x72, timed);      /* jb */
	p = put(p, "\x49\xff\x03", 3); /* incq CALLS(%r11) */
	p = put(p, "\x49\xff\x43", 3); /* incq PASSED(%r11) */
	*p++ = TT_FSTAT_PASSED;
	p = put(p, "\x49\xbb", 2); /* movabs $target, %r11 */
	p = put(p, &h->target, 8);
	p = put(p, load_rax, 5);
	put(p, "\x41\xff\x23", 3); /* jmp *(%r11): this function's own indirect jump */

	/* Timed: rdx = the counters, rcx and rdx saved, as the body's PROLOGUE leaves them. */
	p = put(timed, save_rcx, 5);
	p = put(p, save_rdx, 5);
	p = put(p, "\x4c\x89\xda", 3); /* mov %r11, %rdx */
	*p++ = 0x41;		       /* movl $index, %r11d */
	*p++ = 0xbb;
	p = put32(p, h->index);
	jmp32(p, h->timed);
	/* Anything else: the body, as from the plain stub (rax still the TLS offset). */
	p = general;
	*p++ = 0x41;
	*p++ = 0xbb;
	p = put32(p, h->index);
	jmp32(p, h->body);
}
