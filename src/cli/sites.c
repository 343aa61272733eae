/*
 * sites.c - see sites.h. One Dwfl session per object of the report, opened on first use, at
 * bias 0: a location's address is the object's own (its run-time address minus load bias),
 * the address its symbol table and line table use.
 */
#include "cli/sites.h"

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/basename.h"
#include "base/build_id_hex.h"
#include "cli/cli.h"
#include "cli/debug_find.h"
#include "cli/read_deadline.h"
#include "cli/regular_open.h"

#define FRAME_BYTES 512
#define SYSTEM_DEBUG_DIR "/usr/lib/debug"

struct site_object {
	const char *path;     /* as recorded */
	const char *build_id; /* hex, "" when none */
	bool tried;
	Dwfl *dwfl;
	Dwfl_Module *mod;
};

struct tt_sites {
	struct site_object *objs;
	size_t nobjs;
	char **strings; /* every string put into the report */
	size_t nstrings, cap;
	char *debuginfo_path; /* for libdwfl's standard search (debuginfod) */
	Dwfl_Callbacks cb;
	const char *const *dirs;
	size_t ndirs;
	struct tt_debug_dirs debug_dirs; /* for debug_find.c's, each module's user data */
	bool oom;
};

static char *keep(struct tt_sites *s, char *str)
{
	char **bigger;

	if (!str) {
		s->oom = true;
		return NULL;
	}
	if (s->nstrings == s->cap) {
		bigger = realloc(s->strings, (s->cap ? s->cap * 2 : 64) * sizeof(*bigger));
		if (!bigger) {
			free(str);
			s->oom = true;
			return NULL;
		}
		s->strings = bigger;
		s->cap = s->cap ? s->cap * 2 : 64;
	}
	s->strings[s->nstrings++] = str;
	return str;
}

/* The build ID of mod in hex equals want. */
static bool same_build_id(Dwfl_Module *mod, const char *want)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &bits, &vaddr), i;
	char hex[3];

	if (n <= 0 || strlen(want) != 2 * (size_t)n)
		return false;
	for (i = 0; i < n; i++) {
		snprintf(hex, sizeof(hex), "%02x", bits[i]);
		if (memcmp(hex, want + 2 * i, 2) != 0)
			return false;
	}
	return true;
}

/* Report file as o's module; false when it is not a regular file, libdwfl cannot read it, or
 * its build ID is not the recorded one. */
static bool report_file(struct tt_sites *s, struct site_object *o, const char *file)
{
	int fd = tt_open_regular(file);
	void **userdata;

	if (fd < 0)
		return false;
	o->dwfl = dwfl_begin(&s->cb);
	if (!o->dwfl) {
		close(fd);
		return false;
	}
	dwfl_report_begin(o->dwfl);
	/* On success libdwfl keeps fd (closed by dwfl_end); on failure it is still ours. */
	o->mod = dwfl_report_elf(o->dwfl, tt_base_name(o->path), file, fd, 0, false);
	dwfl_report_end(o->dwfl, NULL, NULL);
	if (!o->mod)
		close(fd);
	if (o->mod && (!o->build_id[0] || same_build_id(o->mod, o->build_id))) {
		dwfl_module_info(o->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		*userdata = &s->debug_dirs;
		return true;
	}
	dwfl_end(o->dwfl);
	o->dwfl = NULL;
	o->mod = NULL;
	return false;
}

/* DIR/.build-id/xx/yyyy.debug (or the ELF itself, DIR/.build-id/xx/yyyy) for o's build ID. */
static bool report_by_build_id(struct tt_sites *s, struct site_object *o, const char *dir)
{
	static const char *const suffixes[] = { ".debug", "" };
	char file[4096];
	size_t k;

	/* tt_sites_resolve let only hex through: the path stays under dir. */
	if (strlen(o->build_id) < 4)
		return false;
	for (k = 0; k < 2; k++) {
		if ((size_t)snprintf(file, sizeof(file), "%s/.build-id/%.2s/%s%s", dir, o->build_id,
				     o->build_id + 2, suffixes[k]) >= sizeof(file))
			continue;
		if (report_file(s, o, file))
			return true;
	}
	return false;
}

static Dwfl_Module *module_of(struct tt_sites *s, struct site_object *o)
{
	size_t i;

	if (o->tried)
		return o->mod;
	o->tried = true;
	if (report_file(s, o, o->path))
		return o->mod;
	for (i = 0; i < s->ndirs; i++)
		if (report_by_build_id(s, o, s->dirs[i]))
			return o->mod;
	report_by_build_id(s, o, SYSTEM_DEBUG_DIR);
	return o->mod;
}

/* A frame named from o's debug information into out; false when nothing is known there. */
static bool name_frame(struct tt_sites *s, struct site_object *o, uint64_t address, char *out,
		       size_t size)
{
	Dwfl_Module *mod = module_of(s, o);
	/* A frame's address is where the call returns to: the call itself is the byte before. */
	GElf_Addr at = address ? address - 1 : 0;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *fn = NULL, *file = NULL;
	Dwfl_Line *line;
	int lineno = 0;
	size_t len;

	if (!mod)
		return false;
	/* libdwfl reads the symbols, DWARF and debug file when first asked. */
	fn = dwfl_module_addrinfo(mod, at, &off, &sym, NULL, NULL, NULL);
	line = dwfl_module_getsrc(mod, at);
	if (line)
		file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (!fn && !file)
		return false;
	if (fn)
		len = (size_t)snprintf(out, size, "%s+0x%llx", fn, (unsigned long long)off + 1);
	else
		len = (size_t)snprintf(out, size, "%s+0x%llx", tt_base_name(o->path),
				       (unsigned long long)address);
	if (file && len < size)
		len += (size_t)snprintf(out + len, size - len, " at %s:%d", tt_base_name(file),
					lineno);
	if (len < size)
		snprintf(out + len, size - len, " (%s)", tt_base_name(o->path));
	return true;
}

/* name_frame, bounded in time: the files it reads are named by the report. */
static bool name_frame_in_time(struct tt_sites *s, struct site_object *o, uint64_t address,
			       char *out, size_t size)
{
	bool named;

	tt_read_deadline_start(o->path);
	named = name_frame(s, o, address, out, size);
	tt_read_deadline_stop();
	return named;
}

/* The caller's frames renamed where its locations allow; its site joined anew. */
static void resolve_caller(struct tt_sites *s, json_t *jc, struct tt_report_caller *c)
{
	json_t *locs = json_object_get(jc, "locations"), *l, *obj, *addr;
	const char **frames = (const char **)c->frames;
	char buf[FRAME_BYTES], *joined, *str;
	size_t k, len = 0;
	bool changed = false;

	if (!json_is_array(locs) || json_array_size(locs) != c->nframes || !c->nframes)
		return;
	for (k = 0; k < c->nframes; k++) {
		unsigned long long a;
		char *end;

		l = json_array_get(locs, k);
		obj = json_object_get(l, "object");
		addr = json_object_get(l, "address");
		/* A tail call's frame is at its function's entry, not after a call: the shim's
		 * name, which says so, stays. */
		if (!json_is_integer(obj) || json_integer_value(obj) < 0 ||
		    (size_t)json_integer_value(obj) >= s->nobjs || !json_is_string(addr) ||
		    json_is_true(json_object_get(l, "tail")))
			continue;
		a = strtoull(json_string_value(addr), &end, 16);
		if (*end ||
		    !name_frame_in_time(s, &s->objs[json_integer_value(obj)], a, buf, sizeof(buf)))
			continue;
		str = keep(s, strdup(buf));
		if (!str)
			return;
		frames[k] = str;
		changed = true;
	}
	if (!changed)
		return;
	for (k = 0; k < c->nframes; k++)
		len += strlen(frames[k]) + 4;
	joined = keep(s, malloc(len + 1));
	if (!joined)
		return;
	joined[0] = '\0';
	for (k = 0, len = 0; k < c->nframes; k++)
		len += (size_t)sprintf(joined + len, "%s%s", k ? " <- " : "", frames[k]);
	c->site = joined;
}

/* "-:.debug:DIR...:/usr/lib/debug": beside the file, its .debug/, the given directories
 * (by build ID, and by the file's own path under them), then the system's. */
static char *debuginfo_path(const char *const *dirs, size_t ndirs)
{
	size_t len = strlen("-:.debug:") + strlen(SYSTEM_DEBUG_DIR) + 1, i;
	char *p;

	for (i = 0; i < ndirs; i++)
		len += strlen(dirs[i]) + 1;
	p = malloc(len);
	if (!p)
		return NULL;
	strcpy(p, "-:.debug:");
	for (i = 0; i < ndirs; i++) {
		strcat(p, dirs[i]);
		strcat(p, ":");
	}
	strcat(p, SYSTEM_DEBUG_DIR);
	return p;
}

int tt_sites_resolve(struct cli_report *rep, const char *const *dirs, size_t ndirs,
		     struct tt_sites **out)
{
	json_t *objs = json_object_get(rep->root, "objects"), *funcs, *jf, *callers;
	struct tt_sites *s = calloc(1, sizeof(*s));
	size_t i, j;

	*out = s;
	if (!s) {
		tt_cli_err("report: out of memory");
		return -1;
	}
	if (!json_is_array(objs) || !json_array_size(objs))
		return 0;
	s->dirs = dirs;
	s->ndirs = ndirs;
	s->debuginfo_path = debuginfo_path(dirs, ndirs);
	s->objs = calloc(json_array_size(objs), sizeof(*s->objs));
	if (!s->debuginfo_path || !s->objs) {
		tt_cli_err("report: out of memory");
		return -1;
	}
	s->cb.find_elf = tt_find_no_elf;
	s->cb.find_debuginfo = tt_find_debuginfo;
	s->cb.debuginfo_path = &s->debuginfo_path;
	s->debug_dirs.dirs = dirs;
	s->debug_dirs.ndirs = ndirs;
	for (i = 0; i < json_array_size(objs); i++) {
		json_t *o = json_array_get(objs, i);
		const char *path = json_string_value(json_object_get(o, "path"));
		const char *id = json_string_value(json_object_get(o, "build_id"));

		if (id && id[0] && !tt_build_id_hex_ok(id)) {
			/* No path is built from it: the object is taken as having none. */
			tt_cli_err("report: %s: objects[%zu].build_id is not a build ID in hex, "
				   "ignored",
				   rep->file, i);
			id = NULL;
		}
		s->objs[i].path = path ? path : "";
		s->objs[i].build_id = id ? id : "";
		s->objs[i].tried = !path; /* nothing to look for */
	}
	s->nobjs = json_array_size(objs);
	funcs = json_object_get(rep->root, "functions");
	for (i = 0; i < rep->r.nfuncs && i < json_array_size(funcs); i++) {
		jf = json_array_get(funcs, i);
		callers = json_object_get(jf, "callers");
		for (j = 0; j < rep->funcs[i].ncallers && j < json_array_size(callers); j++)
			resolve_caller(s, json_array_get(callers, j),
				       (struct tt_report_caller *)&rep->funcs[i].callers[j]);
	}
	if (s->oom) {
		tt_cli_err("report: out of memory");
		return -1;
	}
	return 0;
}

void tt_sites_free(struct tt_sites *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nobjs; i++)
		if (s->objs[i].dwfl)
			dwfl_end(s->objs[i].dwfl);
	for (i = 0; i < s->nstrings; i++)
		free(s->strings[i]);
	free(s->strings);
	free(s->objs);
	free(s->debuginfo_path);
	free(s);
}
