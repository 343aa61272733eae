/*
 * attach_why.c - see attach_why.h. The Yama rules are those of the kernel's
 * Documentation/admin-guide/LSM/Yama.rst: 0 classic (same user), 1 restricted (a descendant,
 * or one that named us with PR_SET_PTRACER), 2 admin-only (CAP_SYS_PTRACE), 3 none at all
 * (until reboot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/attach_why.h"

/* The value after "name:" on a line of text, or NULL. */
static const char *field(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			p += n + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static long number(const char *p, const char **end)
{
	char *e;
	long v;

	if (!p || *p < '0' || *p > '9')
		return -1;
	v = strtol(p, &e, 10);
	if (end)
		*end = e;
	return v;
}

void tt_attach_parse_status(const char *text, struct tt_proc_status *st)
{
	const char *p, *e = NULL;

	st->tracer_pid = number(field(text, "TracerPid"), NULL);
	st->seccomp = number(field(text, "Seccomp"), NULL);
	p = field(text, "Uid");
	st->ruid = number(p, &e);
	while (e && (*e == ' ' || *e == '\t'))
		e++;
	st->euid = e ? number(e, NULL) : -1;
	p = field(text, "State");
	st->state = p && *p > ' ' ? *p : 0;
}

bool tt_attach_refusal(long pid, const struct tt_proc_status *st, const struct tt_attacher *a,
		       char *why, size_t why_size)
{
	if (pid == a->self_pid) {
		snprintf(why, why_size, "%ld is tsctrace itself", pid);
		return true;
	}
	if (st->state == 'Z' || st->state == 'X') {
		snprintf(why, why_size, "process %ld has exited (a zombie): nothing runs there",
			 pid);
		return true;
	}
	if (a->scope == 3) {
		snprintf(why, why_size,
			 "Yama's kernel.yama.ptrace_scope is 3: no process may ptrace another, "
			 "and the setting cannot be lowered until the machine reboots (set it in "
			 "/etc/sysctl.d below 3 for the next boot)");
		return true;
	}
	if (st->tracer_pid > 0) {
		snprintf(why, why_size,
			 "process %ld is already traced by process %ld (a debugger, strace, or "
			 "another tsctrace attach): only one tracer at a time; detach it first",
			 pid, st->tracer_pid);
		return true;
	}
	if (!a->cap_ptrace && st->ruid >= 0 && (st->ruid != a->uid || st->euid != a->uid)) {
		snprintf(why, why_size,
			 "process %ld belongs to user %ld, tsctrace runs as user %ld: attach as "
			 "that user, or as root (CAP_SYS_PTRACE)",
			 pid, st->euid >= 0 ? st->euid : st->ruid, a->uid);
		return true;
	}
	if (a->scope == 2 && !a->cap_ptrace) {
		snprintf(why, why_size,
			 "Yama's kernel.yama.ptrace_scope is 2 (admin-only): only root "
			 "(CAP_SYS_PTRACE) may attach; run tsctrace attach as root, or allow it "
			 "with: sudo sysctl kernel.yama.ptrace_scope=1");
		return true;
	}
	if (a->scope == 1 && !a->cap_ptrace && !a->is_ancestor) {
		snprintf(
			why, why_size,
			"Yama's kernel.yama.ptrace_scope is 1 (restricted): only a process's "
			"ancestors may attach to it; run tsctrace attach as root (CAP_SYS_PTRACE), "
			"or allow it with: sudo sysctl kernel.yama.ptrace_scope=0");
		return true;
	}
	if (st->seccomp == 1) {
		snprintf(why, why_size,
			 "process %ld runs under strict seccomp (read, write, _exit and sigreturn "
			 "only): the shim cannot be loaded there",
			 pid);
		return true;
	}
	if (st->seccomp == 2 && !a->seccomp_ok) {
		snprintf(
			why, why_size,
			"process %ld confines itself with a seccomp filter, which may kill it for "
			"a system call the shim makes (mmap, mprotect, membarrier, tgkill, futex): "
			"--allow-seccomp to try anyway",
			pid);
		return true;
	}
	return false;
}

bool tt_attach_parse_map_line(const char *line, struct tt_map *m)
{
	unsigned long long start, end, offset;
	char perms[5];
	int pos = 0;
	const char *p, *nl;

	if (sscanf(line, "%llx-%llx %4s %llx %*s %*s%n", &start, &end, perms, &offset, &pos) < 4 ||
	    pos == 0)
		return false;
	m->start = (uintptr_t)start;
	m->end = (uintptr_t)end;
	m->offset = offset;
	memcpy(m->perms, perms, sizeof(m->perms));
	for (p = line + pos; *p == ' '; p++)
		;
	nl = strchr(p, '\n');
	m->path = p;
	m->path_len = nl ? (size_t)(nl - p) : strlen(p);
	return true;
}

/* Whether the base name of path[0..len) is base, or base then '.' or '-' with prefix. */
static bool base_matches(const char *path, size_t len, const char *base, bool prefix)
{
	const char *b = path;
	size_t i, n = strlen(base), blen;

	for (i = 0; i < len; i++)
		if (path[i] == '/')
			b = path + i + 1;
	blen = len - (size_t)(b - path);
	if (blen < n || strncmp(b, base, n) != 0)
		return false;
	if (blen == n)
		return true;
	return prefix && (b[n] == '.' || b[n] == '-');
}

/* The first mapping at offset 0 whose path satisfies match. */
static bool find_map(const char *text, bool (*match)(const struct tt_map *, const void *),
		     const void *arg, struct tt_map *out)
{
	const char *line = text;

	while (line && *line) {
		struct tt_map m;

		if (tt_attach_parse_map_line(line, &m) && m.offset == 0 && m.path_len &&
		    m.path[0] == '/' && match(&m, arg)) {
			*out = m;
			return true;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

struct base_arg {
	const char *base;
	bool prefix;
};

static bool by_base(const struct tt_map *m, const void *arg)
{
	const struct base_arg *b = arg;

	return base_matches(m->path, m->path_len, b->base, b->prefix);
}

static bool by_path(const struct tt_map *m, const void *arg)
{
	const char *path = arg;

	return m->path_len == strlen(path) && strncmp(m->path, path, m->path_len) == 0;
}

bool tt_attach_find_object(const char *maps_text, const char *base, bool prefix, uintptr_t *start,
			   char *path, size_t path_size)
{
	struct base_arg b = { base, prefix };
	struct tt_map m;

	if (!find_map(maps_text, by_base, &b, &m) || m.path_len >= path_size)
		return false;
	memcpy(path, m.path, m.path_len);
	path[m.path_len] = 0;
	*start = m.start;
	return true;
}

bool tt_attach_find_path(const char *maps_text, const char *path, uintptr_t *start)
{
	struct tt_map m;

	if (!find_map(maps_text, by_path, path, &m))
		return false;
	*start = m.start;
	return true;
}
