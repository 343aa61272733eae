/*
 * xref_cache.c - see xref_cache.h. Start-up and dlopen bookkeeping only (one thread at a
 * time, under the loader lock), with the shim's guard up: libc is used as any code would.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cache_dir.h"
#include "hook/xref_cache.h"

#define MAX_OBJECTS 64
#define MAX_ANSWERS 65536 /* per object: a whole library's functions, and more */

/* The file: this header, then `count` answers sorted by (lo, own_lo). */
struct header {
	char magic[8];	  /* "TTXREF1" */
	char version[24]; /* the shim's, NUL-padded: answers may change with it */
	uint32_t count;
	uint32_t pad;
};

struct object {
	char id[2 * 64 + 1];	  /* build ID, hex */
	struct tt_xref_answer *a; /* into map while only read, else malloc'd (cap of them) */
	size_t n, cap;
	void *map; /* the file, mapped read-only */
	size_t map_len;
	bool dirty;
};

static struct object objects[MAX_OBJECTS];
static size_t nobjects;
static char dir[512];
static int dir_state; /* 0 unknown, 1 usable, -1 none */

static int cmp(const void *x, const void *y)
{
	const struct tt_xref_answer *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->own_lo != b->own_lo)
		return a->own_lo < b->own_lo ? -1 : 1;
	return (a->hi > b->hi) - (a->hi < b->hi);
}

void tt_xref_cache_disable(void)
{
	dir_state = -1;
}

static bool find_dir(void)
{
	if (!dir_state)
		dir_state = tt_cache_dir(dir, sizeof(dir)) ? 1 : -1;
	return dir_state > 0;
}

/* Made when an answer is first written: a run that only reads makes no system call for it. */
static bool make_dir(void)
{
	static bool made;

	if (!made)
		made = tt_cache_dir_make(dir);
	return made;
}

static void hex(char *out, const uint8_t *id, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len && i < 64; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * i] = 0;
}

static void header_of(struct header *h, uint32_t count)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, "TTXREF1", 8);
	snprintf(h->version, sizeof(h->version), "%s", TT_VERSION);
	h->count = count;
}

/*
 * The file of o, when it is whole and this version's: mapped, not read, so that a look-up
 * touches only the pages its binary search does (libc's file holds the answers of every
 * function ever asked about: reading and checking it all took ~0.1 ms). It is written
 * sorted by save(); a file edited by hand is trusted no more and no less than one forged.
 */
static void load(struct object *o)
{
	char path[sizeof(dir) + 160];
	struct header want;
	const struct header *h;
	struct stat st;
	void *map;
	int fd;

	snprintf(path, sizeof(path), "%s/%s.xref", dir, o->id);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(*h)) {
		close(fd);
		return;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	h = map;
	header_of(&want, 0);
	if (memcmp(h->magic, want.magic, sizeof(h->magic)) ||
	    memcmp(h->version, want.version, sizeof(h->version)) || h->count > MAX_ANSWERS ||
	    (size_t)st.st_size != sizeof(*h) + h->count * sizeof(*o->a)) {
		munmap(map, (size_t)st.st_size);
		return;
	}
	o->map = map;
	o->map_len = (size_t)st.st_size;
	o->a = (struct tt_xref_answer *)(void *)((char *)map + sizeof(*h));
	o->n = h->count;
	o->cap = 0;
}

/* Answers of o in memory of its own, before one is added. */
static bool own(struct object *o)
{
	struct tt_xref_answer *a;

	if (!o->map)
		return true;
	a = malloc((o->n + 64) * sizeof(*a));
	if (!a)
		return false;
	if (o->n)
		memcpy(a, o->a, o->n * sizeof(*a));
	munmap(o->map, o->map_len);
	o->map = NULL;
	o->a = a;
	o->cap = o->n + 64;
	return true;
}

static struct object *object_of(const uint8_t *build_id, size_t len, bool make)
{
	char id[sizeof(objects[0].id)];
	size_t i;

	if (!build_id || !len || !find_dir())
		return NULL;
	hex(id, build_id, len);
	for (i = 0; i < nobjects; i++)
		if (!strcmp(objects[i].id, id))
			return &objects[i];
	if (!make || nobjects == MAX_OBJECTS)
		return NULL;
	memcpy(objects[nobjects].id, id, sizeof(id));
	load(&objects[nobjects]);
	return &objects[nobjects++];
}

bool tt_xref_cache_get(const uint8_t *build_id, size_t len, struct tt_xref_answer *a)
{
	struct object *o = object_of(build_id, len, true);
	const struct tt_xref_answer *found;

	if (!o || !o->n)
		return false;
	found = bsearch(a, o->a, o->n, sizeof(*a), cmp);
	if (!found || found->hi != a->hi || found->own_hi != a->own_hi)
		return false;
	a->hit = found->hit;
	a->from = found->from;
	return true;
}

void tt_xref_cache_put(const uint8_t *build_id, size_t len, const struct tt_xref_answer *a)
{
	struct object *o = object_of(build_id, len, true);
	struct tt_xref_answer *grown;

	if (!o || o->n == MAX_ANSWERS || !own(o))
		return;
	if (o->n == o->cap) {
		grown = realloc(o->a, (o->cap ? o->cap * 2 : 64) * sizeof(*o->a));
		if (!grown)
			return;
		o->a = grown;
		o->cap = o->cap ? o->cap * 2 : 64;
	}
	o->a[o->n++] = *a;
	o->dirty = true;
}

static void save(struct object *o)
{
	char path[sizeof(dir) + 160], tmp[sizeof(path) + 32];
	struct header h;
	size_t i, kept = 0;
	int fd;
	bool ok;

	if (o->n)
		qsort(o->a, o->n, sizeof(*o->a), cmp);
	for (i = 0; i < o->n; i++) /* a question asked twice keeps its first answer */
		if (!kept || cmp(&o->a[kept - 1], &o->a[i]) || o->a[kept - 1].hi != o->a[i].hi ||
		    o->a[kept - 1].own_hi != o->a[i].own_hi)
			o->a[kept++] = o->a[i];
	o->n = kept;
	snprintf(path, sizeof(path), "%s/%s.xref", dir, o->id);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (!make_dir())
		return;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return;
	header_of(&h, (uint32_t)o->n);
	ok = write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	     write(fd, o->a, o->n * sizeof(*o->a)) == (ssize_t)(o->n * sizeof(*o->a));
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
	o->dirty = false;
}

void tt_xref_cache_flush(void)
{
	size_t i;

	for (i = 0; i < nobjects; i++)
		if (objects[i].dirty)
			save(&objects[i]);
}
