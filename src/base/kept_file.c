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

#include "base/kept_file.h"
#include "base/msort.h"

#define FIRST_ROOM 16 /* records of room when a file is first added to */

static void header_of(struct tt_kept_header *h, const struct tt_kept_format *fmt, size_t count)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, fmt->magic, sizeof(h->magic));
	snprintf(h->version, sizeof(h->version), "%s", TT_VERSION);
	h->count = (uint32_t)count;
	h->record = (uint32_t)fmt->record;
}

static char *at(const struct tt_kept_file *f, const struct tt_kept_format *fmt, size_t i)
{
	return (char *)f->rec + i * fmt->record;
}

bool tt_kept_load(struct tt_kept_file *f, const struct tt_kept_format *fmt, const char *path)
{
	struct tt_kept_header want;
	const struct tt_kept_header *h;
	struct stat st;
	size_t len;
	void *map;
	int fd;

	/* Not followed: a link planted in the directory does not choose what is read. Not
	 * blocking: a FIFO there does not hold the program up. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
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
	header_of(&want, fmt, 0);
	if (memcmp(h, &want, offsetof(struct tt_kept_header, count)) || h->record != want.record ||
	    h->count > fmt->max || len != sizeof(*h) + (size_t)h->count * fmt->record) {
		munmap(map, len);
		return false;
	}
	f->map = map;
	f->map_len = len;
	f->rec = (char *)map + sizeof(*h);
	f->n = f->sorted = h->count;
	f->cap = 0;
	return true;
}

const void *tt_kept_find(const struct tt_kept_file *f, const struct tt_kept_format *fmt,
			 const void *key)
{
	size_t i;

	/* Those added since the file was read or written (none in a run that only reads). */
	for (i = f->n; i > f->sorted; i--)
		if (!fmt->cmp(at(f, fmt, i - 1), key))
			return at(f, fmt, i - 1);
	return f->sorted ? bsearch(key, f->rec, f->sorted, fmt->record, fmt->cmp) : NULL;
}

/* The records of f in memory of its own, before one is added or they are sorted. */
static bool own(struct tt_kept_file *f, const struct tt_kept_format *fmt)
{
	void *rec;

	if (!f->map)
		return true;
	rec = malloc((f->n + FIRST_ROOM) * fmt->record);
	if (!rec)
		return false;
	if (f->n)
		memcpy(rec, f->rec, f->n * fmt->record);
	munmap(f->map, f->map_len);
	f->map = NULL;
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
	memcpy(at(f, fmt, f->n++), rec, fmt->record);
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

bool tt_kept_save(struct tt_kept_file *f, const struct tt_kept_format *fmt, const char *path)
{
	char tmp[1024]; /* kept small: a dlopen may write from a thread with little stack */
	struct tt_kept_header h;
	size_t bytes;
	int fd, n;
	bool ok;

	f->dirty = false;
	if (!sort(f, fmt))
		return false;
	n = snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return false;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return false;
	header_of(&h, fmt, f->n);
	bytes = f->n * fmt->record;
	ok = write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	     (!bytes || write(fd, f->rec, bytes) == (ssize_t)bytes);
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
	memset(f, 0, sizeof(*f));
}
