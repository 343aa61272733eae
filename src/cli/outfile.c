/*
 * outfile.c - write a finished output to stdout, or to a file through a temporary file and
 * rename(2) (see outfile.h).
 *
 * The temporary file is ".<name>.XXXXXX" beside the target: rename is atomic only within one
 * file system, and a leading dot keeps it out of `ls` and shell globs while it exists. It is
 * fsync'ed before the rename so that a crash cannot leave the final name pointing at an empty
 * file; at tens of KiB per output that costs a few milliseconds.
 */
#include "cli/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static int write_all(int fd, const char *data, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* "<dir>/.<base>.XXXXXX" for path, in malloc'd memory. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	char *t = malloc(strlen(path) + sizeof(".") + sizeof(".XXXXXX"));

	if (t)
		sprintf(t, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	return t;
}

static int write_file(const char *path, const char *data, size_t len)
{
	char *tmp = temp_name(path);
	mode_t mask;
	int fd;

	if (!tmp) {
		tt_cli_err("cannot write %s: %s", path, strerror(ENOMEM));
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		tt_cli_err("cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	mask = umask(0); /* the only way to read it; the command has one thread */
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || write_all(fd, data, len) < 0 || fsync(fd) < 0)
		goto out_unlink;
	if (close(fd) < 0) {
		fd = -1;
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto out_unlink;
	free(tmp);
	return 0;
out_unlink:
	tt_cli_err("cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

int tt_outfile_write(const char *path, const char *data, size_t len)
{
	if (path && strcmp(path, "-") != 0)
		return write_file(path, data, len);
	if (write_all(STDOUT_FILENO, data, len) < 0) {
		tt_cli_err("cannot write to standard output: %s", strerror(errno));
		return -1;
	}
	return 0;
}
