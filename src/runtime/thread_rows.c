/*
 * thread_rows.c - per-thread rows of each function (thread_rows.h).
 *
 * An exiting thread leaves one row per function it called: ~100 bytes, where its counters
 * were several pages. The rows live in one anonymous mapping that doubles as it fills, up to
 * MAX_ROWS; past that, a thread's rows are added into one row per function with tid 0, so a
 * program that starts millions of short threads keeps bounded memory and loses no count.
 * Everything here runs with in_shim set and the thread lock held, or at report time.
 */
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "base/chunked.h"
#include "base/sys.h"
#include "hook/funcs.h"
#include "hot/sample.h"
#include "report/self_dist.h"
#include "report/stats.h"
#include "runtime/thread_rows.h"

#define MAX_ROWS (1u << 16)

static struct tt_thread_row *rows;
static size_t nrows, cap;
static struct tt_chunked others; /* uint32_t by function: index + 1 of its tid-0 row */

/* Each function's kept rows in the order kept, so that a report reads a function's rows
 * without a scan of all (thousands of functions, thousands of exited threads). */
struct chain {
	uint32_t head, tail; /* index + 1 of its first and last row; 0: none */
};
static struct tt_chunked chains; /* struct chain by function */
static struct tt_chunked links;	 /* uint32_t by row: index + 1 of the function's next row */

/* rows[i], just made, after the other rows of its function. False when out of memory. */
static bool link_row(uint32_t i)
{
	uint32_t func = rows[i].func, *last;
	struct chain *c;

	if (tt_chunked_reserve(&chains, (uint64_t)func + 1, sizeof(*c)) < 0 ||
	    tt_chunked_reserve(&links, (uint64_t)i + 1, sizeof(*last)) < 0)
		return false;
	c = tt_chunked_at(&chains, func, sizeof(*c));
	*(uint32_t *)tt_chunked_at(&links, i, sizeof(*last)) = 0;
	if (c->tail) {
		last = tt_chunked_at(&links, c->tail - 1, sizeof(*last));
		*last = i + 1;
	} else {
		c->head = i + 1;
	}
	c->tail = i + 1;
	return true;
}

void tt_thread_rows_self_sums(const struct tt_self_hist *h, struct tt_self_hist_sums *out)
{
	out->count = __atomic_load_n(&h->count, __ATOMIC_RELAXED);
	out->total = __atomic_load_n(&h->total, __ATOMIC_RELAXED);
	out->nested = __atomic_load_n(&h->nested, __ATOMIC_RELAXED);
	out->whole_total = __atomic_load_n(&h->whole_total, __ATOMIC_RELAXED);
	out->lost = __atomic_load_n(&h->lost, __ATOMIC_RELAXED);
}

static void fill(struct tt_thread_row *r, const struct tt_func_stats *s, uint64_t sub)
{
	r->func = s->func;
	r->calls = __atomic_load_n(&s->calls, __ATOMIC_RELAXED);
	r->timed = __atomic_load_n(&s->hist.count, __ATOMIC_RELAXED);
	r->raw = __atomic_load_n(&s->hist.total, __ATOMIC_RELAXED);
	r->weights = __atomic_load_n(&s->whist.count, __ATOMIC_RELAXED);
	r->wraw = __atomic_load_n(&s->whist.total, __ATOMIC_RELAXED);
	r->wsq = __atomic_load_n(&s->est.wsq, __ATOMIC_RELAXED);
	tt_thread_rows_self_sums(&s->self, &r->self);
	tt_thread_rows_self_sums(&s->wself, &r->wself);
	r->sub = sub;
	r->back = tt_stats_floor_back(&s->hist, sub);
	r->wback = tt_stats_floor_back(&s->whist, sub);
	r->self.leaf_back = tt_self_leaf_back(&s->hist, &s->self, sub);
	r->wself.leaf_back = tt_self_leaf_back(&s->whist, &s->wself, sub);
}

void tt_thread_rows_weigh_fixed(struct tt_thread_row *r)
{
	uint64_t n = tt_sample_period;

	if (tt_sample_mode != TT_SAMPLE_FIXED)
		return;
	r->weights = r->timed * n;
	r->wraw = r->raw * n;
	r->wsq = r->timed * n * n;
	r->wself.count = r->self.count * n;
	r->wself.total = r->self.total * n;
	r->wself.nested = r->self.nested * n;
	r->wself.whole_total = r->self.whole_total * n;
	r->wself.lost = r->self.lost * n;
	r->wself.leaf_back = r->self.leaf_back * n;
	r->wback = r->back * n;
}

static void add_sums(struct tt_self_hist_sums *dst, const struct tt_self_hist_sums *src)
{
	dst->count += src->count;
	dst->total += src->total;
	dst->nested += src->nested;
	dst->whole_total += src->whole_total;
	dst->lost += src->lost;
	dst->leaf_back += src->leaf_back;
}

static void add(struct tt_thread_row *dst, const struct tt_thread_row *src)
{
	dst->calls += src->calls;
	dst->timed += src->timed;
	dst->raw += src->raw;
	dst->weights += src->weights;
	dst->wraw += src->wraw;
	dst->wsq += src->wsq;
	dst->sub = src->sub; /* every row of an image is made at the one overhead */
	dst->back += src->back;
	dst->wback += src->wback;
	add_sums(&dst->self, &src->self);
	add_sums(&dst->wself, &src->wself);
}

static bool grow(void)
{
	size_t ncap = cap ? cap * 2 : 256;
	struct tt_thread_row *n;

	if (ncap > MAX_ROWS)
		return false;
	n = tt_sys_mmap(NULL, ncap * sizeof(*n), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!n)
		return false;
	if (rows) {
		memcpy(n, rows, nrows * sizeof(*n));
		tt_sys_munmap(rows, cap * sizeof(*rows));
	}
	rows = n;
	cap = ncap;
	return true;
}

/* The tid-0 row of func, made when first needed (needs one free row). */
static struct tt_thread_row *other_row(uint32_t func)
{
	uint32_t *other;

	if (tt_chunked_reserve(&others, (uint64_t)func + 1, sizeof(*other)) < 0)
		return NULL;
	other = tt_chunked_at(&others, func, sizeof(*other));
	if (!*other) {
		if (nrows == cap)
			return NULL;
		memset(&rows[nrows], 0, sizeof(rows[0]));
		memcpy(rows[nrows].name, "(others)", 9);
		rows[nrows].func = func;
		if (!link_row((uint32_t)nrows))
			return NULL;
		*other = (uint32_t)++nrows;
	}
	return &rows[*other - 1];
}

/* The calling thread's own name, as it is now: one system call, no /proc. */
static void own_name(char name[16])
{
	tt_syscall3(SYS_prctl, PR_GET_NAME, (long)name, 0);
	name[15] = 0;
}

void tt_thread_rows_keep(struct tt_thread *t, uint64_t sub)
{
	uint32_t i, n = tt_funcs_count();
	char name[16] = "";

	if (t == tt_tls.thread)
		own_name(name);
	for (i = 1; i < n; i++) {
		const struct tt_func_stats *s = tt_thread_stat(t, i);
		struct tt_thread_row r, *o;

		if (!s)
			continue;
		memset(&r, 0, sizeof(r));
		fill(&r, s, sub);
		r.tid = t->tid;
		memcpy(r.name, name, sizeof(r.name));
		/* Keep a spare row for each function's tid-0 row once the table is full. */
		if (nrows + 1 < cap || grow()) {
			rows[nrows] = r;
			if (link_row((uint32_t)nrows))
				nrows++;
		} else if ((o = other_row(i))) {
			add(o, &r);
		}
	}
}

void tt_thread_rows_reset(void)
{
	if (rows)
		tt_sys_munmap(rows, cap * sizeof(*rows));
	tt_chunked_release(&others, sizeof(uint32_t));
	tt_chunked_release(&chains, sizeof(struct chain));
	tt_chunked_release(&links, sizeof(uint32_t));
	rows = NULL;
	nrows = cap = 0;
}

static void read_comm(struct tt_thread *t)
{
	char path[64], buf[32];
	long fd, n;
	int i = 0;
	int64_t tid = t->tid, div;

	memcpy(path, "/proc/self/task/", 16);
	i = 16;
	for (div = 1; tid / div >= 10; div *= 10)
		;
	for (; div > 0; div /= 10)
		path[i++] = (char)('0' + (tid / div) % 10);
	memcpy(path + i, "/comm", 6);
	fd = tt_sys_openat(-100 /* AT_FDCWD */, path, 0x80000 /* O_RDONLY | O_CLOEXEC */, 0);
	if (fd < 0)
		return;
	n = tt_sys_read((int)fd, buf, sizeof(buf) - 1);
	tt_sys_close((int)fd);
	if (n <= 0)
		return;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	if (n > 15)
		n = 15;
	memcpy(t->name, buf, (size_t)n);
	t->name[n] = 0;
}

void tt_thread_rows_names(void)
{
	struct tt_thread *t;

	tt_thread_lock();
	for (t = tt_thread_list; t; t = t->next) {
		if (t->tid <= 0)
			continue;
		if (t == tt_tls.thread) /* the reporting thread's own */
			own_name(t->name);
		else
			read_comm(t);
	}
	tt_thread_unlock();
}

static void put(struct tt_thread_row *out, size_t max, size_t n, const struct tt_thread_row *r)
{
	size_t j;

	if (n >= max)
		return;
	/* Insertion by tid: rows are few per function, and mostly come in order. */
	for (j = n; j > 0 && out[j - 1].tid > r->tid; j--)
		out[j] = out[j - 1];
	out[j] = *r;
}

size_t tt_thread_rows_of(uint32_t func, uint64_t sub, struct tt_thread_row *out, size_t max)
{
	struct tt_thread *t;
	const struct chain *c = tt_chunked_at(&chains, func, sizeof(*c));
	uint32_t k = c ? c->head : 0;
	size_t n = 0;

	for (; k; k = *(const uint32_t *)tt_chunked_at(&links, k - 1, sizeof(uint32_t)))
		put(out, max, n++, &rows[k - 1]);
	for (t = tt_thread_list; t; t = t->next) {
		const struct tt_func_stats *s = tt_thread_stat(t, func);
		struct tt_thread_row r;

		if (!s)
			continue;
		memset(&r, 0, sizeof(r));
		fill(&r, s, sub);
		r.tid = t->tid;
		memcpy(r.name, t->name, sizeof(r.name));
		r.name[15] = 0;
		put(out, max, n++, &r);
	}
	return n;
}
