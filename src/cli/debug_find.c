/*
 * debug_find.c - see debug_find.h.
 */
#include "cli/debug_find.h"

#include <elfutils/libdwelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/regular_open.h"

#define SYSTEM_DEBUG_DIR "/usr/lib/debug"

struct search {
	const unsigned char *id; /* the module's build ID, or NULL */
	size_t idlen;
	GElf_Word crc; /* of .gnu_debuglink; 0: none to check */
	bool refused;  /* some place held something else than a regular file */
};

/* fd's ELF carries the build ID id[0..len). */
static bool has_build_id(int fd, const unsigned char *id, size_t len)
{
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	const void *bits;
	ssize_t n;
	bool same;

	if (!elf)
		return false;
	n = dwelf_elf_gnu_build_id(elf, &bits);
	same = n > 0 && (size_t)n == len && memcmp(bits, id, len) == 0;
	elf_end(elf);
	return same;
}

/* The CRC-32 of fd's whole contents (.gnu_debuglink's checksum is zlib's CRC-32). */
static bool crc_is(int fd, GElf_Word want)
{
	unsigned char chunk[65536];
	uLong crc = crc32(0, NULL, 0);
	ssize_t n;
	off_t at = 0;

	while ((n = pread(fd, chunk, sizeof(chunk), at)) > 0) {
		crc = crc32(crc, chunk, (uInt)n);
		at += n;
	}
	return n == 0 && (GElf_Word)crc == want;
}

/* A descriptor of path when it is a regular file and the debug file looked for. */
static int try_place(struct search *s, const char *path, bool by_build_id,
		     char **debuginfo_file_name)
{
	int fd = tt_open_regular(path);
	bool ok;

	if (fd < 0) {
		/* A refusal has said so; a missing file is the common case. */
		s->refused |= access(path, F_OK) == 0;
		return -1;
	}
	if (s->id)
		ok = has_build_id(fd, s->id, s->idlen);
	else if (by_build_id || !s->crc)
		ok = true; /* the name says it (or nothing is known to check it by) */
	else
		ok = crc_is(fd, s->crc);
	if (!ok || !(*debuginfo_file_name = strdup(path))) {
		close(fd);
		return -1;
	}
	return fd;
}

static const char *dir_at(const struct tt_debug_dirs *d, size_t i)
{
	return i < d->ndirs ? d->dirs[i] : SYSTEM_DEBUG_DIR;
}

static int by_build_id(struct search *s, const struct tt_debug_dirs *d, char **out)
{
	char hex[2 * 64 + 1], path[PATH_MAX];
	size_t i;
	int fd;

	if (!s->id || s->idlen < 2 || s->idlen > 64)
		return -1;
	for (i = 0; i < s->idlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", s->id[i]);
	for (i = 0; i <= d->ndirs; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", dir_at(d, i),
				     hex, hex + 2) >= sizeof(path))
			continue;
		fd = try_place(s, path, true, out);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

static int by_debuglink(struct search *s, const struct tt_debug_dirs *d, const char *file,
			const char *link, char **out)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *slash = strrchr(file, '/');
	size_t i, k;
	int fd, n;

	if (link[0] == '/')
		return try_place(s, link, false, out);
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
	for (k = 0; k < 2 + 2 * (d->ndirs + 1); k++) {
		i = (k - 2) / 2;
		if (k == 0)
			n = snprintf(path, sizeof(path), "%s/%s", dir, link);
		else if (k == 1)
			n = snprintf(path, sizeof(path), "%s/.debug/%s", dir, link);
		else if (k % 2 == 0)
			n = snprintf(path, sizeof(path), "%s/%s/%s", dir_at(d, i), dir, link);
		else
			n = snprintf(path, sizeof(path), "%s/%s", dir_at(d, i), link);
		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		fd = try_place(s, path, false, out);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

int tt_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, GElf_Addr base,
		      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		      char **debuginfo_file_name)
{
	static const struct tt_debug_dirs none;
	const struct tt_debug_dirs *d = *userdata ? *userdata : &none;
	struct search s = { .crc = debuglink_crc };
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &bits, &vaddr), fd = -1;
	const char *urls = getenv("DEBUGINFOD_URLS");

	/* Without its .gnu_debuglink's CRC (a dwz alternate file), the module's own build ID is
	 * not the file's: nothing to check it by. */
	if (n > 0 && debuglink_crc) {
		s.id = bits;
		s.idlen = (size_t)n;
	}
	if (n > 0 && (!debuglink_file || debuglink_crc)) {
		struct search by_id = { .id = bits, .idlen = (size_t)n };

		fd = by_build_id(&by_id, d, debuginfo_file_name);
		s.refused |= by_id.refused;
	}
	if (fd < 0 && debuglink_file && file_name)
		fd = by_debuglink(&s, d, file_name, debuglink_file, debuginfo_file_name);
	if (fd < 0 && !s.refused && urls && urls[0])
		fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						  debuglink_file, debuglink_crc,
						  debuginfo_file_name);
	return fd;
}

int tt_find_no_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		   char **file_name, Elf **elfp)
{
	(void)mod;
	(void)userdata;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)elfp;
	return -1;
}
