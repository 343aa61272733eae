/*
 * plan_cache.c - see plan_cache.h. Start-up and dlopen bookkeeping only (one thread at a
 * time, under the loader lock), with the shim's guard up: libc is used as any code would.
 * The file's mechanics are xref_cache.c's: mapped read-only, binary search, written whole.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cache_dir.h"
#include "base/msort.h"
#include "hook/plan_cache.h"

#define MAX_OBJECTS 64
#define MAX_PLANS 65536 /* per object */

/* The file: this header, then `count` records sorted by tt_reloc_kept_cmp. */
struct header {
	char magic[8];	  /* "TTPLAN1" */
	char version[24]; /* the shim's, NUL-padded: plans may change with it */
	uint32_t count;
	uint32_t record; /* sizeof(struct tt_reloc_kept) */
};

struct object {
	char id[2 * 64 + 1];	 /* build ID, hex */
	struct tt_reloc_kept *k; /* into map while only read, else malloc'd (cap of them) */
	size_t n, cap;
	size_t sorted; /* the first records, as the file had them: those searched */
	void *map;
	size_t map_len;
	bool dirty;
};

static struct object objects[MAX_OBJECTS];
static size_t nobjects;
static char dir[512];
static int dir_state; /* 0 unknown, 1 usable, -1 none */

void tt_plan_cache_disable(void)
{
	dir_state = -1;
}

static bool find_dir(void)
{
	if (!dir_state)
		dir_state = tt_cache_dir(dir, sizeof(dir)) ? 1 : -1;
	return dir_state > 0;
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
	memcpy(h->magic, "TTPLAN1", 8);
	snprintf(h->version, sizeof(h->version), "%s", TT_VERSION);
	h->count = count;
	h->record = sizeof(struct tt_reloc_kept);
}

static void load(struct object *o)
{
	char path[sizeof(dir) + 160];
	struct header want;
	const struct header *h;
	struct stat st;
	void *map;
	int fd;

	snprintf(path, sizeof(path), "%s/%s.plan", dir, o->id);
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
	if (memcmp(h, &want, offsetof(struct header, count)) || h->record != want.record ||
	    h->count > MAX_PLANS || (size_t)st.st_size != sizeof(*h) + h->count * sizeof(*o->k)) {
		munmap(map, (size_t)st.st_size);
		return;
	}
	o->map = map;
	o->map_len = (size_t)st.st_size;
	o->k = (struct tt_reloc_kept *)(void *)((char *)map + sizeof(*h));
	o->n = o->sorted = h->count;
	o->cap = 0;
}

/* The records of o in memory of its own, before one is added. */
static bool own(struct object *o)
{
	struct tt_reloc_kept *k;

	if (!o->map)
		return true;
	k = malloc((o->n + 16) * sizeof(*k));
	if (!k)
		return false;
	if (o->n)
		memcpy(k, o->k, o->n * sizeof(*k));
	munmap(o->map, o->map_len);
	o->map = NULL;
	o->k = k;
	o->cap = o->n + 16;
	return true;
}

static struct object *object_of(const uint8_t *build_id, size_t len)
{
	char id[sizeof(objects[0].id)];
	size_t i;

	if (!build_id || !len || !find_dir())
		return NULL;
	hex(id, build_id, len);
	for (i = 0; i < nobjects; i++)
		if (!strcmp(objects[i].id, id))
			return &objects[i];
	if (nobjects == MAX_OBJECTS)
		return NULL;
	memcpy(objects[nobjects].id, id, sizeof(id));
	load(&objects[nobjects]);
	return &objects[nobjects++];
}

bool tt_plan_cache_get(const uint8_t *build_id, size_t len, uint64_t off, uint64_t size,
		       uint32_t kind, const uint8_t *code, size_t avail, uint64_t copy_addr,
		       struct tt_reloc *out, uint32_t *used)
{
	struct object *o = object_of(build_id, len);
	struct tt_reloc_kept key = { .off = off, .size = size, .kind = kind };
	const struct tt_reloc_kept *found;

	/* The sorted records only (the file's; all of them once written): a plan put since
	 * is asked for again only where a dlopen brings its object back, which plans again. */
	if (!o || !o->sorted)
		return false;
	found = bsearch(&key, o->k, o->sorted, sizeof(key), tt_reloc_kept_cmp);
	if (!found ||
	    !tt_reloc_reuse(found, code, avail, (uint64_t)(uintptr_t)code, copy_addr, out))
		return false;
	*used = found->used;
	return true;
}

void tt_plan_cache_put(const uint8_t *build_id, size_t len, const struct tt_reloc_kept *k)
{
	struct object *o = object_of(build_id, len);
	struct tt_reloc_kept *grown;

	if (!o || o->n == MAX_PLANS || !own(o))
		return;
	if (o->n == o->cap) {
		grown = realloc(o->k, (o->cap ? o->cap * 2 : 16) * sizeof(*o->k));
		if (!grown)
			return;
		o->k = grown;
		o->cap = o->cap ? o->cap * 2 : 16;
	}
	o->k[o->n++] = *k;
	o->dirty = true;
}

static int cmp_ctx(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return tt_reloc_kept_cmp(a, b);
}

static void save(struct object *o)
{
	char path[sizeof(dir) + 160], tmp[sizeof(path) + 32];
	struct tt_reloc_kept *scratch = malloc((o->n ? o->n : 1) * sizeof(*o->k));
	struct header h;
	size_t i, kept = 0;
	int fd;
	bool ok;

	o->dirty = false;
	if (!scratch)
		return;
	/* Stable: of the records of one key, the last put (a plan made again) is kept. */
	tt_msort(o->k, scratch, o->n, sizeof(*o->k), cmp_ctx, NULL);
	free(scratch);
	for (i = 0; i < o->n; i++) {
		if (kept && !tt_reloc_kept_cmp(&o->k[kept - 1], &o->k[i]))
			kept--;
		o->k[kept++] = o->k[i];
	}
	o->n = o->sorted = kept;
	snprintf(path, sizeof(path), "%s/%s.plan", dir, o->id);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (!tt_cache_dir_make(dir))
		return;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return;
	header_of(&h, (uint32_t)o->n);
	ok = write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	     write(fd, o->k, o->n * sizeof(*o->k)) == (ssize_t)(o->n * sizeof(*o->k));
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
}

void tt_plan_cache_flush(void)
{
	size_t i;

	for (i = 0; i < nobjects; i++)
		if (objects[i].dirty)
			save(&objects[i]);
}
