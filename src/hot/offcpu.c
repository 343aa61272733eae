/*
 * offcpu.c - each thread's context switches as the kernel records them (offcpu.h). Hot path:
 * raw system calls, general registers, no libc.
 */
#include "hot/offcpu.h"

#include <linux/perf_event.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>

#include "base/sys.h"
#include "hot/thread.h"

#define PAGE 4096u
#define RING_BYTES ((TT_OFFCPU_PAGES - 1) * PAGE)

int tt_offcpu_error;

int tt_offcpu_open(struct tt_thread *t)
{
	struct perf_event_attr a;
	unsigned char *b = (unsigned char *)&a;
	long fd;
	void *m;
	size_t i;

	if (__atomic_load_n(&tt_offcpu_error, __ATOMIC_RELAXED) == TT_OFFCPU_SANDBOXED)
		return TT_OFFCPU_SANDBOXED;
	for (i = 0; i < sizeof(a); i++) /* no memset call needed for so little */
		b[i] = 0;
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_DUMMY; /* counts nothing: only the switch records */
	a.context_switch = 1;
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_TIME;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC_RAW;
	a.write_backward = 1; /* latest first from data_head: read-only, overwritten in turn */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = tt_syscall6(SYS_perf_event_open, (long)&a, 0 /* this thread */, -1, -1,
			 8 /* PERF_FLAG_FD_CLOEXEC */, 0);
	if (fd < 0)
		goto fail;
	m = tt_sys_mmap(NULL, TT_OFFCPU_PAGES * PAGE, 1 /* PROT_READ */, 1 /* MAP_SHARED */,
			(int)fd, 0);
	tt_sys_close((int)fd); /* the mapping holds the event */
	if (!m) {
		fd = -1; /* EPERM, most often: the locked-memory limit of perf mappings */
		goto fail;
	}
	t->offcpu_ring = m;
	return 0;
fail:
	if (!__atomic_load_n(&tt_offcpu_error, __ATOMIC_RELAXED))
		__atomic_store_n(&tt_offcpu_error, (int)fd, __ATOMIC_RELAXED);
	return (int)fd;
}

void tt_offcpu_close(struct tt_thread *t)
{
	if (t->offcpu_ring)
		tt_sys_munmap(t->offcpu_ring, TT_OFFCPU_PAGES * PAGE);
	t->offcpu_ring = NULL;
}

/* n bytes of the ring at position pos (modulo its size). */
static void ring_read(const unsigned char *data, uint64_t pos, void *to, uint32_t n)
{
	unsigned char *d = to;
	uint32_t i;

	for (i = 0; i < n; i++)
		d[i] = __atomic_load_n(&data[(pos + i) % RING_BYTES], __ATOMIC_RELAXED);
}

/* One pass over the ring from data_head; -2 when the kernel wrote meanwhile. */
static int scan(const struct perf_event_mmap_page *pg, struct tt_switch *out, uint32_t max,
		int *all)
{
	const unsigned char *data = (const unsigned char *)pg + PAGE;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t written = -head, avail = written < RING_BYTES ? written : RING_BYTES;
	uint64_t off = 0; /* from head: positions wrap around 2^64 as head goes down */
	uint32_t n = 0;

	while (n < max && off + sizeof(struct perf_event_header) <= avail) {
		struct perf_event_header h;
		uint64_t ns;

		ring_read(data, head + off, &h, sizeof(h));
		if (h.size < sizeof(h) || off + h.size > avail)
			break; /* the oldest record, partly overwritten */
		if (h.type == PERF_RECORD_SWITCH && h.size >= sizeof(h) + 8) {
			ring_read(data, head + off + h.size - 8, &ns, 8); /* sample_id: its time */
			out[n].ns = ns;
			out[n].out = (h.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
			n++;
		}
		off += h.size;
	}
	*all = written <= RING_BYTES && off >= avail;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&pg->data_head, __ATOMIC_RELAXED) == head ? (int)n : -2;
}

int tt_offcpu_latest(const struct tt_thread *t, struct tt_switch *out, uint32_t max, int *all)
{
	const struct perf_event_mmap_page *pg = t->offcpu_ring;
	int tries, n = -1;

	*all = 0;
	if (!pg)
		return -1;
	for (tries = 0; tries < 3; tries++) {
		n = scan(pg, out, max, all);
		if (n >= 0)
			return n;
	}
	return -1; /* switched again and again while reading: not known */
}
