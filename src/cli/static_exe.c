/*
 * static_exe.c - see static_exe.h. The file is found as execvp finds it: a name with a slash
 * is a path, any other is looked up in $PATH (execvp's default when unset).
 */
#include "cli/static_exe.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PHDRS_MAX 64 /* real executables have about a dozen */

/* The file execvp would run for prog into out, or false. */
static bool find_prog(const char *prog, char *out, size_t size)
{
	const char *path = getenv("PATH"), *dir;
	size_t n;

	if (strchr(prog, '/'))
		return snprintf(out, size, "%s", prog) < (int)size;
	if (!path)
		path = "/bin:/usr/bin";
	for (dir = path; *dir; dir += n + (dir[n] == ':')) {
		n = strcspn(dir, ":");
		if (snprintf(out, size, "%.*s%s%s", (int)n, dir, n ? "/" : "", prog) < (int)size &&
		    access(out, X_OK) == 0)
			return true;
		if (!dir[n])
			break;
	}
	return false;
}

/* ld-linux-x86-64.so.2 run as a program (`tsctrace run -- ld.so ./app`) loads the shim. */
static bool is_loader(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strncmp(base, "ld-linux", 8) == 0 || strncmp(base, "ld64.so", 7) == 0;
}

static bool lacks_interp(int fd)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[PHDRS_MAX];
	size_t i, n;

	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) || eh.e_phentsize != sizeof(ph[0]) ||
	    eh.e_phnum == 0 || eh.e_phnum > PHDRS_MAX)
		return false;
	n = eh.e_phnum;
	if (pread(fd, ph, n * sizeof(ph[0]), (off_t)eh.e_phoff) != (ssize_t)(n * sizeof(ph[0])))
		return false;
	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_INTERP)
			return false;
	return true;
}

bool tt_cli_is_static(const char *prog)
{
	char path[PATH_MAX];
	bool ret;
	int fd;

	if (!find_prog(prog, path, sizeof(path)) || is_loader(path))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ret = lacks_interp(fd);
	close(fd);
	return ret;
}
