/*
 * kept_file.c - see kept_file.h. Start-up bookkeeping, with the shim's guard up: libc is
 * used as any code would.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cache_dir.h"
#include "base/kept_file.h"
#include "base/sys.h"
#include "base/msort.h"

#define FIRST_ROOM 16 /* records of room when a file is first added to */
#define PAGE 4096     /* a page of records: the file's layout, whatever the machine's */

/* Where the records of a file of count records go: per in each page of records (page bytes:
 * one 4 KiB page, or the fewest that hold one record), the pages from offset first, after the
 * header and the index; len, the file's length. False when fmt cannot be laid out. */
struct layout {
	size_t per, page, pages, first, len;
};

static bool layout_of(struct layout *l, const struct tt_kept_format *fmt, size_t count)
{
	if (!fmt->record || !fmt->key || fmt->key % 8 || fmt->key > fmt->record ||
	    fmt->record > (1u << 20) || count > fmt->max || fmt->max > (1u << 24))
		return false;
	l->per = fmt->record <= PAGE ? PAGE / fmt->record : 1;
	l->page = (l->per * fmt->record + PAGE - 1) / PAGE * PAGE;
	l->pages = (count + l->per - 1) / l->per;
	l->first = (sizeof(struct tt_kept_header) + l->pages * fmt->key + PAGE - 1) / PAGE * PAGE;
	l->len = !count ? l->first
			: l->first + (l->pages - 1) * l->page +
				  (count - (l->pages - 1) * l->per) * fmt->record;
	return l->first <= UINT32_MAX;
}

static void header_of(struct tt_kept_header *h, const struct tt_kept_format *fmt,
		      const struct layout *l, size_t count)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, fmt->magic, sizeof(h->magic));
	snprintf(h->version, sizeof(h->version), "%s", TT_VERSION);
	h->count = (uint32_t)count;
	h->record = (uint32_t)fmt->record;
	h->key = (uint32_t)fmt->key;
	h->per = (uint32_t)l->per;
	h->first = (uint32_t)l->first;
}

/* Record i of f's own (malloc'd) records. */
static char *at(const struct tt_kept_file *f, const struct tt_kept_format *fmt, size_t i)
{
	return (char *)f->rec + i * fmt->record;
}

/* Record i of f's mapped file. */
static const char *mapped_at(const struct tt_kept_file *f, const struct tt_kept_format *fmt,
			     size_t i)
{
	return f->first + i / f->per * f->page + i % f->per * fmt->record;
}

bool tt_kept_load(struct tt_kept_file *f, const struct tt_kept_format *fmt, const char *path)
{
	struct tt_kept_header want;
	const struct tt_kept_header *h;
	struct layout l;
	struct stat st;
	size_t len;
	void *map;
	bool ok;
	int fd;

	/* Not followed: a link planted in the directory does not choose what is read. Not
	 * blocking: a FIFO there does not hold the program up. */
	if (tt_cache_refused())
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return false;
	/* Another's file, or one others may have written, refuses the cache (cache_dir.h). */
	if (!tt_cache_file_trusted(fd, path) || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size < sizeof(struct tt_kept_header)) {
		close(fd);
		return false;
	}
	len = (size_t)st.st_size;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return false;
	h = map;
	/* The whole header is what this format and count would write: magic, version, layout. */
	ok = layout_of(&l, fmt, h->count);
	if (ok) {
		header_of(&want, fmt, &l, h->count);
		ok = !memcmp(h, &want, sizeof(want)) && len == l.len;
	}
	if (!ok) {
		munmap(map, len);
		return false;
	}
	f->map = map;
	f->map_len = len;
	f->rec = NULL;
	f->n = f->sorted = h->count;
	f->cap = 0;
	f->per = l.per;
	f->page = l.page;
	f->index = (const char *)map + sizeof(*h);
	f->first = (const char *)map + l.first;
	return true;
}

/* The mapped record of key: the last page whose index entry is not above it, then that page's
 * records; its first must be the one its entry names (else the index is not this file's). */
static const void *find_mapped(const struct tt_kept_file *f, const struct tt_kept_format *fmt,
			       const void *key)
{
	size_t lo = 0, hi = (f->n + f->per - 1) / f->per, mid, page, in;

	while (lo < hi) { /* the first entry above key */
		mid = lo + (hi - lo) / 2;
		if (fmt->cmp(f->index + mid * fmt->key, key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	page = lo - 1;
	if (fmt->cmp(mapped_at(f, fmt, page * f->per), f->index + page * fmt->key))
		return NULL;
	in = f->n - page * f->per < f->per ? f->n - page * f->per : f->per;
	return bsearch(key, mapped_at(f, fmt, page * f->per), in, fmt->record, fmt->cmp);
}

/*
 * The records added since the file was read or written, m = n - sorted of them, are found
 * through f->order: their indexes in runs, each in the records' order (of one key, the older
 * first), one run for each bit set in m, the oldest records' (the highest bit's) first. The
 * m-th add merges its record with the runs of the bits it clears, as a binary counter
 * carries: O(log m) per add (amortised) and O(log^2 m) per find, where a scan of the added
 * records was O(m) per find: a cold run planning 70,000 functions spent 30 s in compares.
 */
static const void *find_added(const struct tt_kept_file *f, const struct tt_kept_format *fmt,
			      const void *key)
{
	size_t m = f->n - f->sorted, end = m, len, lo, hi, mid;
	const uint32_t *run;

	for (len = 1; end; len <<= 1) { /* the newest run first */
		if (!(m & len))
			continue;
		run = f->order + end - len;
		lo = 0;
		hi = len;
		while (lo < hi) { /* the first record above key */
			mid = lo + (hi - lo) / 2;
			if (fmt->cmp(at(f, fmt, run[mid]), key) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && !fmt->cmp(at(f, fmt, run[lo - 1]), key))
			return at(f, fmt, run[lo - 1]); /* the newest of its key in the run */
		end -= len;
	}
	return NULL;
}

/* The m-th record added is at order[m - 1]: merge the runs the carry joins to it. */
static void carry(struct tt_kept_file *f, const struct tt_kept_format *fmt, size_t m)
{
	uint32_t *scratch = f->order + f->order_cap / 2;
	size_t s, a, b, k, mid;

	for (s = 1; !(m & s); s <<= 1) { /* [m - 2s, m - s) older, [m - s, m) newer */
		a = m - 2 * s;
		mid = b = m - s;
		for (k = 0; a < mid || b < m; k++)
			scratch[k] = b == m || (a < mid && fmt->cmp(at(f, fmt, f->order[a]),
								    at(f, fmt, f->order[b])) <= 0)
					     ? f->order[a++]
					     : f->order[b++];
		memcpy(f->order + m - 2 * s, scratch, 2 * s * sizeof(*scratch));
	}
}

const void *tt_kept_find(const struct tt_kept_file *f, const struct tt_kept_format *fmt,
			 const void *key)
{
	const void *r;

	if (f->map)
		return f->n ? find_mapped(f, fmt, key) : NULL;
	/* Those added since the file was read or written (none in a run that only reads). */
	if ((r = find_added(f, fmt, key)))
		return r;
	return f->sorted ? bsearch(key, f->rec, f->sorted, fmt->record, fmt->cmp) : NULL;
}

/* The records of f in memory of their own, before one is added or they are sorted. */
static bool own(struct tt_kept_file *f, const struct tt_kept_format *fmt)
{
	void *rec;
	size_t i, in;

	if (!f->map)
		return true;
	rec = malloc((f->n + FIRST_ROOM) * fmt->record);
	if (!rec)
		return false;
	for (i = 0; i < f->n; i += in) { /* a page of records at a time */
		in = f->n - i < f->per ? f->n - i : f->per;
		memcpy((char *)rec + i * fmt->record, mapped_at(f, fmt, i), in * fmt->record);
	}
	munmap(f->map, f->map_len);
	f->map = NULL;
	f->index = f->first = NULL;
	f->rec = rec;
	f->cap = f->n + FIRST_ROOM;
	return true;
}

bool tt_kept_add(struct tt_kept_file *f, const struct tt_kept_format *fmt, const void *rec)
{
	size_t cap;
	void *grown;

	if (f->n >= fmt->max || !own(f, fmt))
		return false;
	if (f->n == f->cap) {
		cap = f->cap ? f->cap * 2 : FIRST_ROOM;
		grown = realloc(f->rec, cap * fmt->record);
		if (!grown)
			return false;
		f->rec = grown;
		f->cap = cap;
	}
	if (f->order_cap < 2 * f->cap) {
		grown = realloc(f->order, 2 * f->cap * sizeof(*f->order));
		if (!grown)
			return false;
		f->order = grown;
		f->order_cap = 2 * f->cap;
	}
	memcpy(at(f, fmt, f->n), rec, fmt->record);
	f->order[f->n - f->sorted] = (uint32_t)f->n;
	f->n++;
	carry(f, fmt, f->n - f->sorted);
	f->dirty = true;
	return true;
}

static int cmp_ctx(const void *a, const void *b, void *ctx)
{
	const struct tt_kept_format *fmt = ctx;

	return fmt->cmp(a, b);
}

/* Sort f (stable) and keep, of records with one key, the last added: a record made again
 * replaces the one that did not match. */
static bool sort(struct tt_kept_file *f, const struct tt_kept_format *fmt)
{
	void *scratch;
	size_t i, kept = 0;

	if (!own(f, fmt))
		return false;
	scratch = malloc((f->n ? f->n : 1) * fmt->record);
	if (!scratch)
		return false;
	tt_msort(f->rec, scratch, f->n, fmt->record, cmp_ctx, (void *)fmt);
	free(scratch);
	for (i = 0; i < f->n; i++) {
		if (kept && !fmt->cmp(at(f, fmt, kept - 1), at(f, fmt, i)))
			kept--;
		if (kept != i)
			memcpy(at(f, fmt, kept), at(f, fmt, i), fmt->record);
		kept++;
	}
	f->n = f->sorted = kept;
	return true;
}

/* The file of f's (sorted) records as it is written: header, index, pages of records. */
static char *image_of(const struct tt_kept_file *f, const struct tt_kept_format *fmt,
		      const struct layout *l)
{
	char *img = calloc(1, l->len);
	size_t i;

	if (!img)
		return NULL;
	header_of((struct tt_kept_header *)(void *)img, fmt, l, f->n);
	for (i = 0; i < f->n; i++) {
		if (i % l->per == 0)
			memcpy(img + sizeof(struct tt_kept_header) + i / l->per * fmt->key,
			       at(f, fmt, i), fmt->key);
		memcpy(img + l->first + i / l->per * l->page + i % l->per * fmt->record,
		       at(f, fmt, i), fmt->record);
	}
	return img;
}

bool tt_kept_save(struct tt_kept_file *f, const struct tt_kept_format *fmt, const char *path)
{
	char tmp[1024]; /* kept small: a dlopen may write from a thread with little stack */
	struct layout l;
	char *img;
	int fd, n;
	bool ok;

	f->dirty = false;
	if (tt_cache_refused() || !sort(f, fmt) || !layout_of(&l, fmt, f->n))
		return false;
	n = snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return false;
	img = image_of(f, fmt, &l);
	if (!img)
		return false;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		free(img);
		return false;
	}
	/* 0600 whatever the umask; without SIGXFSZ: a program under RLIMIT_FSIZE keeps
	 * running, the file is not kept. */
	ok = fchmod(fd, 0600) == 0 && tt_sys_write_all_nosig(fd, img, l.len) == 0;
	free(img);
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		return false;
	}
	return true;
}

void tt_kept_close(struct tt_kept_file *f)
{
	if (f->map)
		munmap(f->map, f->map_len);
	else
		free(f->rec);
	free(f->order);
	memset(f, 0, sizeof(*f));
}
