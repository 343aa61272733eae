/*
 * follow.c - see follow.h.
 *
 * TSC_FOLLOW=0 (`tsctrace run --no-follow`): the process the user started is traced, through
 * its own exec()s (`env X=1 prog`, `sh -c prog` that execs prog: the same process going on),
 * and nothing it starts is. A child started by exec* in a fork or vfork child, posix_spawn*,
 * system or popen gets the environment it would have got, less the shim in LD_PRELOAD (the
 * variable is dropped when nothing else was listed), so the dynamic loader never loads us
 * there. A fork child that does not exec runs the traced code it shares with its parent, but
 * writes no report.
 *
 * The TSC_* variables are left in the child's environment: without the shim they do nothing,
 * a program that preloads the shim again on purpose (a nested `tsctrace run`) keeps the
 * user's settings, and the child's environment differs from the untraced one by the least.
 *
 * Our entry in LD_PRELOAD is recognised by the file it names (device and inode of the file
 * we were loaded from), or, for a bare name that the loader looked up in its search path, by
 * our file name. An entry spelled with $LIB or $PLATFORM is not recognised.
 */
#include <dlfcn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "base/basename.h"
#include "base/sys.h"
#include "runtime/follow.h"

static bool no_follow;
static long traced_pid; /* the process the shim started in (not updated in a fork child) */
static bool lib_known;
static dev_t lib_dev;
static ino_t lib_ino;
static char lib_base[256];

#define PRELOAD "LD_PRELOAD="
#define PRELOAD_LEN (sizeof(PRELOAD) - 1)

void tt_follow_start(bool follow)
{
	Dl_info info;
	struct stat st;
	const char *base;

	no_follow = !follow;
	traced_pid = tt_sys_getpid();
	if (follow || !dladdr((void *)&tt_follow_start, &info) || !info.dli_fname)
		return;
	base = tt_base_name(info.dli_fname);
	if (strlen(base) < sizeof(lib_base))
		memcpy(lib_base, base, strlen(base) + 1);
	if (stat(info.dli_fname, &st) == 0) {
		lib_dev = st.st_dev;
		lib_ino = st.st_ino;
		lib_known = true;
	}
}

bool tt_follow_reports_here(void)
{
	return !no_follow || tt_sys_getpid() == traced_pid;
}

bool tt_follow_in_child(void)
{
	return no_follow && tt_sys_getpid() != traced_pid;
}

static bool is_sep(char c)
{
	return c == ' ' || c == ':';
}

/* Whether the LD_PRELOAD entry s[0..len) names this library. */
static bool is_ours(const char *s, size_t len)
{
	char path[4096];
	struct stat st;

	if (!memchr(s, '/', len))
		return len == strlen(lib_base) && memcmp(s, lib_base, len) == 0;
	if (!lib_known || len >= sizeof(path))
		return false;
	memcpy(path, s, len);
	path[len] = '\0';
	return tt_sys_fstatat(-100 /* AT_FDCWD */, path, &st, 0) == 0 && st.st_dev == lib_dev &&
	       st.st_ino == lib_ino;
}

/* Whether the LD_PRELOAD value v lists us. */
static bool lists_us(const char *v)
{
	size_t n;

	for (; *v; v += n) {
		while (is_sep(*v))
			v++;
		n = strcspn(v, " :");
		if (n && is_ours(v, n))
			return true;
	}
	return false;
}

static bool is_preload(const char *var)
{
	return strncmp(var, PRELOAD, PRELOAD_LEN) == 0;
}

size_t tt_follow_env_size(char *const envp[], bool child)
{
	size_t n, bytes = 0;
	bool cut = false;

	if (!no_follow || !child || !lib_base[0] || !envp)
		return 0;
	for (n = 0; envp[n]; n++) {
		if (is_preload(envp[n])) {
			bytes += strlen(envp[n]) + 1;
			cut = cut || lists_us(envp[n] + PRELOAD_LEN);
		}
	}
	return cut ? (n + 1) * sizeof(char *) + bytes : 0;
}

/* LD_PRELOAD=v without us into out; false when no entry is left. */
static bool cut_preload(const char *v, char *out)
{
	char sep = ':', *o = out + PRELOAD_LEN;
	const char *first = strpbrk(v, " :");
	size_t n;

	if (first)
		sep = *first; /* keep the user's separator */
	memcpy(out, PRELOAD, PRELOAD_LEN);
	for (; *v; v += n) {
		while (is_sep(*v))
			v++;
		n = strcspn(v, " :");
		if (!n || is_ours(v, n))
			continue;
		if (o > out + PRELOAD_LEN)
			*o++ = sep;
		memcpy(o, v, n);
		o += n;
	}
	*o = '\0';
	return o > out + PRELOAD_LEN;
}

char **tt_follow_env(char *const envp[], void *mem)
{
	char **out = mem, *str;
	size_t n, i, j = 0;

	if (!mem)
		return (char **)envp;
	for (n = 0; envp[n]; n++)
		;
	str = (char *)(out + n + 1);
	for (i = 0; i < n; i++) {
		if (!is_preload(envp[i])) {
			out[j++] = envp[i];
		} else if (cut_preload(envp[i] + PRELOAD_LEN, str)) {
			out[j++] = str;
			str += strlen(str) + 1;
		}
	}
	out[j] = NULL;
	return out;
}

void *tt_follow_env_map(size_t bytes)
{
	return tt_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

void tt_follow_env_unmap(void *mem, size_t bytes)
{
	tt_sys_munmap(mem, bytes);
}
