/*
 * attach_why.h - `tsctrace attach`'s pure part: what /proc says of the target (status, maps)
 * and which refusal, if any, to give before ptrace is tried. No system call here: the
 * callers read the files, so that every message can be unit-tested (tests/unit/
 * test_attach_why.c) without staging a process that would earn it.
 */
#ifndef TT_ATTACH_WHY_H
#define TT_ATTACH_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* From /proc/PID/status. -1 for a field not found. */
struct tt_proc_status {
	long tracer_pid; /* TracerPid */
	long ruid, euid; /* Uid: real, effective */
	long seccomp;	 /* Seccomp: 0 off, 1 strict, 2 filter */
	char state;	 /* State: R, S, T, t, Z... (0 when not found) */
};

void tt_attach_parse_status(const char *text, struct tt_proc_status *st);

/* What the attaching side is. */
struct tt_attacher {
	long uid;	  /* effective uid */
	bool cap_ptrace;  /* root or CAP_SYS_PTRACE in its effective set */
	bool is_ancestor; /* the target descends from it (Yama scope 1 allows that) */
	long scope;	  /* /proc/sys/kernel/yama/ptrace_scope, -1 when there is no Yama */
	bool seccomp_ok;  /* --allow-seccomp */
	long self_pid;	  /* its own pid: no attaching to itself */
};

/*
 * The reason attaching to pid must not be tried, written into why (one line, no "tsctrace:"
 * prefix); false when nothing stands in the way that can be told beforehand.
 */
bool tt_attach_refusal(long pid, const struct tt_proc_status *st, const struct tt_attacher *a,
		       char *why, size_t why_size);

/* A mapping of /proc/PID/maps. */
struct tt_map {
	uintptr_t start, end;
	unsigned long long offset;
	char perms[5];
	const char *path; /* into the caller's copy of the line; "" when anonymous */
	size_t path_len;
};

/* One line of /proc/PID/maps (no newline needed); false when it is not one. */
bool tt_attach_parse_map_line(const char *line, struct tt_map *m);

/*
 * The object of maps_text whose path's base name is `base` exactly, or starts with `base`
 * followed by '.' or '-' when prefix is true (libc.so.6, libc-2.36.so): the start of its
 * mapping at file offset 0 (its load address for a shared object whose first segment is at
 * address 0), and its path copied into path. False when none is mapped.
 */
bool tt_attach_find_object(const char *maps_text, const char *base, bool prefix, uintptr_t *start,
			   char *path, size_t path_size);

/* The object mapped from exactly this path; false when none. */
bool tt_attach_find_path(const char *maps_text, const char *path, uintptr_t *start);

#endif /* TT_ATTACH_WHY_H */
