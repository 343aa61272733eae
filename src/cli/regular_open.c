/*
 * regular_open.c - see regular_open.h.
 */
#include "regular_open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

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
		tt_cli_err("%s: %s, not read (a report names it): its frames stay as recorded", path,
			   kind_of(st.st_mode));
		close(fd);
		return -1;
	}
	return fd;
}
