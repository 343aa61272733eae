/*
 * build_id_files.c - see build_id_files.h.
 */
#include <stdio.h>
#include <string.h>

#include "base/cache_dir.h"
#include "base/cache_key.h"
#include "base/kept_mac.h"
#include "hook/build_id_files.h"

void tt_build_id_files_disable(struct tt_build_id_files *s)
{
	s->dir_state = -1;
}

static bool find_dir(struct tt_build_id_files *s)
{
	if (!s->dir_state)
		s->dir_state = tt_cache_dir(s->dir, sizeof(s->dir)) ? 1 : -1;
	return s->dir_state > 0;
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

static bool path_of(const struct tt_build_id_files *s, const struct tt_build_id_file *o, char *out,
		    size_t len)
{
	int n = snprintf(out, len, "%s/%s%s", s->dir, o->id, s->suffix);

	return n > 0 && (size_t)n < len;
}

struct tt_kept_file *tt_build_id_file(struct tt_build_id_files *s, const uint8_t *build_id,
				      size_t len)
{
	char id[sizeof(s->objects[0].id)], path[sizeof(s->dir) + 160];
	struct tt_build_id_file *o;
	size_t i;

	if (!build_id || !len || !find_dir(s))
		return NULL;
	hex(id, build_id, len);
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->objects[i].id, id))
			return &s->objects[i].file;
	if (s->n == TT_BUILD_ID_FILES_MAX)
		return NULL;
	o = &s->objects[s->n++];
	memcpy(o->id, id, sizeof(id));
	if (path_of(s, o, path, sizeof(path)))
		tt_kept_load(&o->file, s->fmt, path);
	return &o->file;
}

void tt_build_id_files_flush(struct tt_build_id_files *s)
{
	char path[sizeof(s->dir) + 160];
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (!s->objects[i].file.dirty)
			continue;
		if (!s->dir_made)
			s->dir_made = tt_cache_dir_make(s->dir);
		if (s->dir_made && path_of(s, &s->objects[i], path, sizeof(path)))
			tt_kept_save(&s->objects[i].file, s->fmt, path);
		else
			s->objects[i].file.dirty = false;
	}
}

const void *tt_build_id_find(struct tt_build_id_files *s, const uint8_t *build_id, size_t len,
			     const void *key, bool *rejected)
{
	struct tt_kept_file *f = tt_build_id_file(s, build_id, len);
	uint8_t mac_key[TT_SIPHASH_KEY];
	const void *found = f ? tt_kept_find(f, s->fmt, key) : NULL;

	if (!found || !tt_cache_key(s->dir, false, mac_key))
		return NULL;
	if (!tt_kept_mac_ok(mac_key, s->fmt, build_id, len, found)) {
		*rejected = true;
		return NULL;
	}
	return found;
}

void tt_build_id_add(struct tt_build_id_files *s, const uint8_t *build_id, size_t len,
		     const void *rec)
{
	struct tt_kept_file *f = tt_build_id_file(s, build_id, len);
	uint8_t mac_key[TT_SIPHASH_KEY];
	_Alignas(16) uint8_t copy[TT_BUILD_ID_RECORD_MAX];

	if (!f || s->fmt->record > sizeof(copy) || s->fmt->record < TT_KEPT_MAC_BYTES)
		return;
	if (!s->dir_made)
		s->dir_made = tt_cache_dir_make(s->dir);
	if (!s->dir_made || !tt_cache_key(s->dir, true, mac_key))
		return;
	memcpy(copy, rec, s->fmt->record);
	tt_kept_mac_sign(mac_key, s->fmt, build_id, len, copy);
	tt_kept_add(f, s->fmt, copy);
}
