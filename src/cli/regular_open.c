/*
 * regular_open.c - see regular_open.h.
 */
#include "cli/regular_open.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static const char *kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* path was not refused before: libdwfl asks for a debug file again each time one was not
 * found, and a file says the same each time. Past the first 64 paths, every time. */
static bool first_refusal(const char *path)
{
	static char *said[64];
	static size_t n;
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(said[i], path) == 0)
			return false;
	if (n < sizeof(said) / sizeof(said[0]) && (said[n] = strdup(path)))
		n++;
	return true;
}

int tt_open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		if (first_refusal(path))
			tt_cli_err("%s: %s, not read for call sites: their frames stay as recorded",
				   path, kind_of(st.st_mode));
		close(fd);
		return -1;
	}
	return fd;
}
