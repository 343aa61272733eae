/*
 * report_out.c - see report_out.h. The rules, by what TSC_OUTPUT names:
 *
 *  - `-`: the shim's private duplicate of stderr (channel.c).
 *  - a device, FIFO or socket, or a link to one (/dev/null, a tty): written to as it is. It
 *    is opened without blocking (a FIFO nobody reads must not hang the exit) and checked with
 *    fstat on the open descriptor, so a link swapped meanwhile for one to a regular file gets
 *    nothing; a link in a sticky directory (/tmp) that belongs to someone else is not
 *    followed at all, as the kernel's protected_symlinks would not.
 *  - nothing, an empty file, a report of an earlier run, or this image's own earlier report
 *    (a dump): the report is put there, written to a temporary file in the same directory
 *    (unpredictable name, O_EXCL) and renamed into place. Onto a missing name with
 *    RENAME_NOREPLACE, over an old report with RENAME_EXCHANGE and a check that what came
 *    out is the file judged old: two processes of one run never replace each other's report,
 *    however they interleave.
 *  - this pid's report from before its exec: moved beside the name (as below), and this
 *    image, the program an exec'ing wrapper ran, takes the name.
 *  - a report of this run (report_kin.c: written after the run began, by another process),
 *    or anything that is not a report (a file, a directory, a link to a file): kept. The report goes beside it, with the pid inserted before the
 *    extension (fixed.json -> fixed.1234.json, name -> name.1234), never replacing
 *    anything (then fixed.1234-2.json, -3, ...).
 *  - when the name cannot be written (no such directory, no permission, full disk), or
 *    stderr is wanted and gone: one line, and the report to the private stderr; when that is
 *    gone too, or leads nowhere anyone reads (/dev/null), to a new file in $TMPDIR (else
 *    /tmp), tsctrace.EXE.PID.RANDOM.EXT, mode 0600 whatever the umask.
 *
 * Files are created 0644 less the umask: never writable by group or others, even under the
 * umask 0 some daemons set.
 *
 * A name with the pid in it (the default's %p) is tried first without a look: the temporary
 * file is made and renamed onto it with RENAME_NOREPLACE, which never replaces anything; only
 * when something is there does the judging above begin (with that temporary file). One
 * system call less for the usual case, the same outcome in every case.
 *
 * After a report is written to a file, one line (tt_note, silenced by TSC_QUIET=1) gives its
 * absolute path. Everything here runs at exit, possibly from a signal handler or an _exit
 * wrapper: raw system calls, static buffers (one report at a time), no malloc.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/basename.h"
#include "base/high_fd.h"
#include "base/sys.h"
#include "log/channel.h"
#include "log/log.h"
#include "report/report_path.h"
#include "runtime/clock.h"
#include "runtime/report_kin.h"
#include "runtime/report_out.h"
#include "runtime/run_dir.h"

#define TRIES 8		    /* re-judging the name after another process changed it */
#define BESIDE_MAX 100	    /* fixed.PID.json, fixed.PID-2.json ... */
#define DEVICE_WAIT_MS 5000 /* a reader that takes no byte for this long is given up */

enum kind {
	K_MISSING,
	K_REPLACE,
	K_BESIDE_RUN,
	K_BESIDE_FOREIGN,
	K_DEVICE,
	K_STDERR,
	K_AGAIN,
	K_ERROR
};

struct judged {
	enum kind kind;
	dev_t dev; /* K_REPLACE: the file judged replaceable */
	ino_t ino;
	int64_t pid; /* K_BESIDE_RUN: who wrote the report there */
	long err;    /* K_ERROR: -errno, or 0 with `refusal` saying why */
	const char *refusal;
	int fd; /* K_DEVICE: open for writing */
};

/* The file this image last put a report in, so that the next report replaces it. A fork
 * child inherits it with its parent's pid: then it is not the child's. Its name apart: the
 * rest is 8-byte aligned, among the small variables (Makefile, --sort-section=alignment),
 * so that the first report's look at `pid` does not map a page of zeros its write copies. */
static struct {
	int64_t pid;
	dev_t dev;
	ino_t ino;
} last __attribute__((aligned(8)));
static char last_path[PATH_MAX + 32];

/*
 * The names one delivery builds, one after the other as they are made: the report's path,
 * its temporary (the path and a suffix), the name it goes to (the path, or where our own
 * dump went), the pid-inserted name beside it. Each gets room for its longest form right
 * after the one before, so that a short path's delivery touches one page of them, where an
 * array apiece took a page each (lay_out_names).
 */
#define TMP_SUFFIX 48		     /* ".tmp." PID "." 8 hex digits, and room */
#define TARGET_BYTES (PATH_MAX + 32) /* the path, or last_path */
#define BESIDE_BYTES (PATH_MAX + 32)
static char names[PATH_MAX + (PATH_MAX + TMP_SUFFIX) + TARGET_BYTES + BESIDE_BYTES];
static char *const path = names; /* PATH_MAX */
static char *tmp, *target, *beside;
static size_t tmp_bytes;

static char where[PATH_MAX + 64];
static char why[PATH_MAX + 160];
static uint64_t image_start_ns; /* CLOCK_REALTIME at this image's start-up (report_kin.h) */

/* 64 unpredictable bits for a file name (the kernel's, else clock and address bits). */
static uint64_t random_u64(void)
{
	static uint64_t counter;
	uint64_t r;

	if (tt_syscall3(SYS_getrandom, &r, sizeof(r), 1 /* GRND_NONBLOCK */) == sizeof(r))
		return r;
	r = tt_clock_ns(CLOCK_REALTIME) ^ ((uint64_t)(uintptr_t)&r << 16) ^ ++counter;
	return r * 0x9e3779b97f4a7c15ull;
}

/* 32 of them, for the 8 hex digits of a name. */
static unsigned long long random32(void)
{
	return random_u64() & 0xffffffffu;
}

/*
 * A program may hold every descriptor its RLIMIT_NOFILE allows (some fill the table to the
 * limit, or dup2 over all of it): then nothing could be opened to write the report. At the
 * first open that finds the table full, the soft limit is raised by a few for the report's
 * own descriptors (when the hard limit allows; put back by tt_runtime_report_deliver), and the open
 * tried again. Nothing is probed before: the table is full in few programs.
 */
static struct {
	bool raised;
	struct rlimit old;
} room;

static void make_room(void)
{
	struct rlimit more;

	if (room.raised ||
	    tt_syscall6(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, (long)&room.old, 0, 0) != 0 ||
	    room.old.rlim_cur >= room.old.rlim_max)
		return;
	more = room.old;
	more.rlim_cur = room.old.rlim_cur + 8 < room.old.rlim_max ? room.old.rlim_cur + 8
								  : room.old.rlim_max;
	room.raised = tt_syscall6(SYS_prlimit64, 0, RLIMIT_NOFILE, (long)&more, 0, 0, 0) == 0;
}

static long open_report(const char *name, int flags, int mode)
{
	long fd = tt_fd_open_high(name, flags, mode); /* out of the program's way */

	if (fd == -EMFILE && !room.raised) {
		make_room();
		if (room.raised)
			fd = tt_fd_open_high(name, flags, mode);
	}
	return fd;
}

/* Write b to a new file at `name` (exclusive create, never through a link); 0 or -errno.
 * exact: the mode is `mode` whatever the umask (else the umask takes bits away, as for any
 * file). Nothing is left behind on failure. */
static long create_and_write(const char *name, const struct tt_buf *b, int mode, bool exact,
			     dev_t *dev, ino_t *ino)
{
	long fd = open_report(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode),
	     err;
	struct tt_held_fd held;

	if (fd < 0)
		return fd;
	if (exact && tt_syscall3(SYS_fchmod, fd, mode, 0) != 0) {
		tt_sys_close((int)fd);
		tt_sys_unlinkat(AT_FDCWD, name, 0);
		return -EPERM;
	}
	/* Other threads of the program run on (a dump, a report at exit from one thread): it
	 * may close the number and open its own file there. Checked before each write. */
	if (!tt_held_fd_take(&held, (int)fd))
		return -EBADF;
	err = tt_held_fd_write_all(&held, b->data, b->len);
	if (!err) {
		*dev = held.dev;
		*ino = held.ino;
	}
	if (tt_held_fd_close(&held) < 0 && !err)
		err = -EIO;
	if (err)
		tt_sys_unlinkat(AT_FDCWD, name, 0);
	return err;
}

/* The temporary file beside `path`: PATH.tmp.PID.RANDOM. */
static long make_tmp(const struct tt_run *run, const struct tt_buf *b, dev_t *dev, ino_t *ino)
{
	long err = -EEXIST;
	int i;

	for (i = 0; i < TRIES && err == -EEXIST; i++) {
		if ((size_t)snprintf(tmp, tmp_bytes, "%s.tmp.%lld.%08llx", path,
				     (long long)run->pid, random32()) >= tmp_bytes)
			return -ENAMETOOLONG;
		/* 0644 at most: a program that sets umask 0 (nginx) must not leave its
		 * report writable by everyone; a stricter umask still takes bits away. */
		err = create_and_write(tmp, b, 0644, false, dev, ino);
	}
	return err;
}

/* The report in $TMPDIR (else /tmp) under a new name, into `where`. 0 or -errno. */
static long to_tmpdir(const struct tt_run *run, const struct tt_buf *b)
{
	const char *dir = run->tmpdir[0] == '/' ? run->tmpdir : "/tmp";
	long err = -EEXIST;
	dev_t dev;
	ino_t ino;
	int i;

	for (i = 0; i < TRIES && err == -EEXIST; i++) {
		if ((size_t)snprintf(where, sizeof(where), "%s/tsctrace.%s.%lld.%08llx.%s", dir,
				     tt_run_name(run), (long long)run->pid, random32(),
				     run->cfg.format == TT_FMT_JSON ? "json" : "txt") >=
		    sizeof(where))
			return -ENAMETOOLONG;
		/* 0600 whatever the umask: /tmp is shared, and a report holds the program's
		 * argv; owned by the effective user, who alone can then read it */
		err = create_and_write(where, b, 0600, true, &dev, &ino);
	}
	return err;
}

/*
 * The report did not go where TSC_OUTPUT says, for the reason in `why`: to the private
 * stderr when someone reads it (unless that is what failed), else to $TMPDIR, with one line
 * either way (which reaches the user only if the private stderr is still there). A daemon's
 * stderr is /dev/null (nginx's workers, started so, cannot write into their root-owned
 * report directory once they are `nobody`): a report written there would vanish unsaid.
 */
static void fallback(const struct tt_run *run, const struct tt_buf *b, bool try_stderr)
{
	long err;

	if (try_stderr && tt_channel_read()) {
		tt_warn("%s; writing the report to stderr", why);
		if (tt_channel_write(b->data, b->len) == 0)
			return;
	}
	err = to_tmpdir(run, b);
	if (err)
		tt_warn("%s; no stderr, and not in %s either (%s): the report is lost", why,
			run->tmpdir[0] == '/' ? run->tmpdir : "/tmp", strerror((int)-err));
	else
		tt_warn("%s; report written to %s", why, where);
}

/*
 * Whether a symbolic link may be followed: not when it sits in a sticky directory (/tmp)
 * and belongs neither to us nor to the directory's owner (another user's link in /tmp is
 * how a privileged program is made to write where its user could not).
 */
static bool may_follow(const char *name, const struct stat *link)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(name, '/');
	size_t n = slash ? (size_t)(slash - name) : 0;
	struct stat st;

	if (n >= sizeof(dir))
		return false;
	if (!slash) {
		memcpy(dir, ".", 2);
	} else if (!n) {
		memcpy(dir, "/", 2); /* "/x" */
	} else {
		memcpy(dir, name, n);
		dir[n] = '\0';
	}
	if (tt_sys_fstatat(AT_FDCWD, dir, &st, 0) != 0)
		return false;
	return !(st.st_mode & S_ISVTX) || link->st_uid == st.st_uid ||
	       link->st_uid == (uid_t)tt_syscall3(SYS_geteuid, 0, 0, 0);
}

/* What stands at `name`, and so how the report gets there (see the top of the file). */
static void judge(const char *name, struct judged *j)
{
	struct stat st, fst;
	long fd, r = tt_sys_fstatat(AT_FDCWD, name, &st, AT_SYMLINK_NOFOLLOW);

	memset(j, 0, sizeof(*j));
	j->fd = -1;
	if (r == -ENOENT) {
		j->kind = K_MISSING;
		return;
	}
	j->kind = K_ERROR;
	j->err = r;
	if (r < 0)
		return;
	j->kind = K_BESIDE_FOREIGN;
	if (S_ISREG(st.st_mode)) {
		j->dev = st.st_dev;
		j->ino = st.st_ino;
		if (st.st_size == 0) {
			j->kind = K_REPLACE;
			return;
		}
		fd = open_report(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
				 0);
		if (fd == -ENOENT || fd == -ELOOP) {
			j->kind = K_AGAIN; /* changed since the look */
			return;
		}
		if (fd < 0)
			return; /* unreadable: cannot tell it is a report, so keep it */
		if (tt_sys_fstat((int)fd, &fst) != 0 || fst.st_dev != st.st_dev ||
		    fst.st_ino != st.st_ino)
			j->kind = K_AGAIN;
		else
			switch (tt_runtime_report_kin((int)fd, &fst, &j->pid, image_start_ns)) {
			case TT_KIN_OLDER: j->kind = K_REPLACE; break;
			case TT_KIN_THIS_RUN: j->kind = K_BESIDE_RUN; break;
			case TT_KIN_FOREIGN: break;
			}
		tt_sys_close((int)fd);
		return;
	}
	if (S_ISDIR(st.st_mode) || (S_ISLNK(st.st_mode) && !may_follow(name, &st)))
		return;
	/* A device, FIFO or socket, or a link to something. */
	fd = open_report(name, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
	if (fd < 0) {
		/* a dangling link or one to a directory is left alone as before */
		if (fd != -ENOENT && fd != -EISDIR) {
			j->kind = K_ERROR;
			j->err = fd;
			if (fd == -ENXIO && S_ISFIFO(st.st_mode)) {
				j->err = 0;
				j->refusal = "nobody has the FIFO open for reading";
			}
		}
		return;
	}
	if (tt_sys_fstat((int)fd, &fst) == 0 &&
	    (S_ISCHR(fst.st_mode) || S_ISFIFO(fst.st_mode) || S_ISSOCK(fst.st_mode))) {
		j->kind = K_DEVICE;
		j->fd = (int)fd;
		return;
	}
	tt_sys_close((int)fd); /* a link to a regular file: opened, never written */
	if (tt_channel_is_stderr(fst.st_dev, fst.st_ino)) {
		j->kind = K_STDERR; /* /dev/stderr, stderr being a file */
	} else if (strncmp(name, "/dev/", 5) == 0 || strncmp(name, "/proc/", 6) == 0) {
		/* /dev/stdout, /dev/fd/N: never a new file beside them */
		j->kind = K_ERROR;
		j->refusal = "it is a link to a file that is not a tsctrace report";
	}
}

/* Write to a device or FIFO opened non-blocking: wait for room, within reason. */
static long write_device(int fd, const struct tt_buf *b)
{
	const char *p = b->data;
	size_t left = b->len;
	struct tt_sigheld h;
	long err = 0;

	tt_sys_sigs_hold(&h);
	while (left > 0) {
		long n = tt_sys_write(fd, p, left);

		if (n == -EINTR)
			continue;
		if (n == -EAGAIN) {
			struct {
				int fd;
				short events, revents;
			} pfd = { fd, 4 /* POLLOUT */, 0 };

			n = tt_syscall3(SYS_poll, &pfd, 1, DEVICE_WAIT_MS);
			if (n == 0 || (n < 0 && n != -EINTR)) {
				err = n ? n : -ETIMEDOUT;
				break;
			}
			continue;
		}
		if (n <= 0) {
			err = n < 0 ? n : -EIO;
			break;
		}
		p += n;
		left -= (size_t)n;
	}
	tt_sys_sigs_release(&h, err);
	return err;
}

/* Rename tmp onto a missing name, never over one that appeared meanwhile; -EEXIST then. */
static long put_new(const char *name)
{
	struct stat st;
	long err = tt_sys_renameat2(AT_FDCWD, tmp, AT_FDCWD, name, RENAME_NOREPLACE);

	if (err != -EINVAL && err != -ENOSYS)
		return err;
	/* No RENAME_NOREPLACE on this file system: a hard link fails on an existing name too. */
	err = tt_sys_linkat(AT_FDCWD, tmp, AT_FDCWD, name);
	if (err == 0 || err == -EEXIST) {
		if (err == 0)
			tt_sys_unlinkat(AT_FDCWD, tmp, 0);
		return err;
	}
	/* Nor hard links (vfat): a plain rename, after one more look. */
	if (tt_sys_fstatat(AT_FDCWD, name, &st, AT_SYMLINK_NOFOLLOW) != -ENOENT)
		return -EEXIST;
	return tt_sys_renameat(AT_FDCWD, tmp, AT_FDCWD, name);
}

/*
 * Put tmp at name in place of exactly the file (dev, ino) judged replaceable: exchange the
 * two, and if what came out is something else (another process of the run put its report
 * there meanwhile), exchange them back. 0, -EAGAIN (look again), or -errno.
 */
static long replace_exact(const char *name, dev_t dev, ino_t ino)
{
	struct stat st;
	long err = tt_sys_renameat2(AT_FDCWD, tmp, AT_FDCWD, name, RENAME_EXCHANGE);

	if (err == -EINVAL || err == -ENOSYS) /* no exchange on this file system */
		return tt_sys_renameat(AT_FDCWD, tmp, AT_FDCWD, name);
	if (err == -ENOENT)
		return -EAGAIN;
	if (err)
		return err;
	if (tt_sys_fstatat(AT_FDCWD, tmp, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == dev &&
	    st.st_ino == ino) {
		tt_sys_unlinkat(AT_FDCWD, tmp, 0);
		return 0;
	}
	err = tt_sys_renameat2(AT_FDCWD, tmp, AT_FDCWD, name, RENAME_EXCHANGE);
	return err ? err : -EAGAIN;
}

/* name with "." PID (and "-K" from the second try) inserted before its extension. */
static bool beside_name(const char *name, int64_t pid, int k)
{
	const char *base = tt_base_name(name), *dot = strrchr(base, '.');
	size_t stem = dot && dot != base ? (size_t)(dot - name) : strlen(name);
	char suffix[48];
	int n = k > 1 ? snprintf(suffix, sizeof(suffix), ".%lld-%d", (long long)pid, k)
		      : snprintf(suffix, sizeof(suffix), ".%lld", (long long)pid);

	return snprintf(beside, BESIDE_BYTES, "%.*s%s%s", (int)stem, name, suffix, name + stem) <
		       (int)BESIDE_BYTES &&
	       n > 0;
}

/* Put tmp beside `name` under the first free pid-inserted name (into `beside`). */
static long put_beside(const char *name, int64_t pid)
{
	long err = -EEXIST;
	int k;

	for (k = 1; k <= BESIDE_MAX && err == -EEXIST; k++) {
		if (!beside_name(name, pid, k))
			return -ENAMETOOLONG;
		err = put_new(beside);
	}
	return err;
}

/*
 * This pid's report from before its exec stands at name (judged dev, ino): move it beside
 * (into `beside`), so that this image, the program the exec'd wrapper ran for, takes the name.
 * If what moved is not that file (replaced meanwhile), it is moved back. 0, -EAGAIN or
 * -errno.
 */
static long displace(const char *name, int64_t pid, dev_t dev, ino_t ino)
{
	struct stat st;
	long err = -EEXIST;
	int k;

	for (k = 1; k <= BESIDE_MAX && err == -EEXIST; k++) {
		if (!beside_name(name, pid, k))
			return -ENAMETOOLONG;
		err = tt_sys_renameat2(AT_FDCWD, name, AT_FDCWD, beside, RENAME_NOREPLACE);
	}
	if (err == -ENOENT)
		return -EAGAIN;
	if (err == -EINVAL || err == -ENOSYS)
		return -ENOTSUP; /* no RENAME_NOREPLACE here: the report goes beside instead */
	if (err)
		return err;
	if (tt_sys_fstatat(AT_FDCWD, beside, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == dev &&
	    st.st_ino == ino)
		return 0;
	tt_sys_renameat2(AT_FDCWD, beside, AT_FDCWD, name, RENAME_NOREPLACE);
	return -EAGAIN;
}

/* Whether this image's previous report is still where it put it. */
static bool last_is_ours(const struct tt_run *run)
{
	struct stat st;

	return last.pid == run->pid && last_path[0] &&
	       tt_sys_fstatat(AT_FDCWD, last_path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       st.st_dev == last.dev && st.st_ino == last.ino;
}

void tt_runtime_report_forget(void)
{
	last.pid = 0;
	last_path[0] = 0;
}

static void remember(const struct tt_run *run, const char *name, dev_t dev, ino_t ino)
{
	size_t n = strlen(name);

	last.pid = 0;
	if (n >= sizeof(last_path))
		return;
	memcpy(last_path, name, n + 1);
	last.dev = dev;
	last.ino = ino;
	last.pid = run->pid;
}

/* The report to the file `path` names (see the top of the file); name_has_pid: the template
 * put the pid in it. 0 or -1. */
static int to_path(const struct tt_run *run, const struct tt_buf *b, bool name_has_pid)
{
	struct judged j = { .kind = K_AGAIN };
	bool have_tmp = false, displaced = false;
	dev_t dev = 0;
	ino_t ino = 0;
	long err = 0;
	int i;

	/* A name with the pid in it is almost always free: the report goes there with no look
	 * first (renaming never replaces anything), and is judged only if something is there. */
	if (name_has_pid && !last_is_ours(run)) {
		memcpy(target, path, strlen(path) + 1);
		err = make_tmp(run, b, &dev, &ino);
		if (err)
			goto done;
		have_tmp = true;
		err = put_new(target);
		if (err != -EEXIST)
			goto done; /* placed (j.kind K_MISSING), or an error */
	}
	for (i = 0; i < TRIES; i++) {
		memcpy(target, path, strlen(path) + 1);
		if (last_is_ours(run)) {
			/* our own dump: this report replaces it where it went */
			memcpy(target, last_path, strlen(last_path) + 1);
			memset(&j, 0, sizeof(j));
			j.kind = K_REPLACE;
			j.dev = last.dev;
			j.ino = last.ino;
		} else {
			judge(path, &j);
		}
		switch (j.kind) {
		case K_AGAIN: continue;
		case K_DEVICE:
			err = write_device(j.fd, b);
			tt_sys_close(j.fd);
			goto done;
		case K_STDERR: err = tt_channel_write(b->data, b->len); goto done;
		case K_ERROR:
			if (j.refusal) {
				if (have_tmp)
					tt_sys_unlinkat(AT_FDCWD, tmp, 0);
				snprintf(why, sizeof(why), "not replacing %s: %s", path, j.refusal);
				fallback(run, b, true);
				return -1;
			}
			err = j.err;
			goto done;
		default: break;
		}
		displaced = false;
		if (!have_tmp) {
			err = make_tmp(run, b, &dev, &ino);
			if (err)
				goto done;
			have_tmp = true;
		}
		if (j.kind == K_BESIDE_RUN && j.pid == run->pid) {
			err = displace(path, run->pid, j.dev, j.ino);
			if (!err) {
				displaced = true;
				err = put_new(target);
			} else if (err == -ENOTSUP) {
				err = put_beside(path, run->pid);
			}
		} else if (j.kind == K_MISSING) {
			err = put_new(target);
		} else if (j.kind == K_REPLACE)
			err = replace_exact(target, j.dev, j.ino);
		else if (j.kind != K_BESIDE_RUN || j.pid != run->pid)
			err = put_beside(path, run->pid);
		if (err != -EEXIST && err != -EAGAIN)
			goto done;
	}
	/* The name kept changing under us (processes of the run racing): beside it. */
	memset(&j, 0, sizeof(j));
	j.kind = K_BESIDE_RUN;
	err = have_tmp ? 0 : make_tmp(run, b, &dev, &ino);
	have_tmp = !err;
	if (!err)
		err = put_beside(path, run->pid);
done:
	/* Not put anywhere: by error, or the report went to a device or stderr instead. */
	if (have_tmp && (err || j.kind == K_DEVICE || j.kind == K_STDERR))
		tt_sys_unlinkat(AT_FDCWD, tmp, 0);
	if (err) {
		snprintf(why, sizeof(why), "cannot write the report to %s: %s", path,
			 strerror((int)-err));
		fallback(run, b, true);
		return -1;
	}
	switch (j.kind) {
	case K_DEVICE:
	case K_STDERR: return 0;
	case K_BESIDE_FOREIGN:
		remember(run, beside, dev, ino);
		tt_warn("not replacing %s: it is not a tsctrace report; report written to %s", path,
			beside);
		return -1;
	case K_BESIDE_RUN:
		if (displaced && j.pid == run->pid) {
			remember(run, target, dev, ino);
			tt_note("report written to %s (this process's report from before its exec "
				"moved to %s)",
				target, beside);
			return 0;
		}
		remember(run, beside, dev, ino);
		if (j.pid == run->pid)
			tt_note("report written to %s (%s holds this process's report from before "
				"its exec)",
				beside, path);
		else if (j.pid)
			tt_note("report written to %s (%s holds the report of pid %lld, of the "
				"same run)",
				beside, path, (long long)j.pid);
		else
			tt_note("report written to %s (%s holds another report of the same run)",
				beside, path);
		return 0;
	default:
		remember(run, target, dev, ino);
		tt_note("report written to %s", target);
		return 0;
	}
}

/* The other names after the path (see `names`). */
static void lay_out_names(void)
{
	size_t n = strlen(path);

	tmp = path + n + 1;
	tmp_bytes = n + TMP_SUFFIX;
	target = tmp + tmp_bytes;
	beside = target + TARGET_BYTES;
}

/* Whether the template puts the pid in the name (%p; %% is a '%'). */
static bool has_pid(const char *tmpl)
{
	for (; *tmpl; tmpl++)
		if (*tmpl == '%' && *++tmpl == 'p')
			return true;
		else if (!*tmpl)
			break;
	return false;
}

static int deliver(const struct tt_run *run, const struct tt_buf *b)
{
	const char *tmpl = run->cfg.output ? run->cfg.output
					   : tt_report_path_default(run->cfg.format == TT_FMT_JSON);
	char name[PATH_MAX];
	long err;

	if (run->cfg.run_dir) { /* tsctrace run's own directory: TSC_OUTPUT does not apply */
		err = tt_run_dir_deliver(run, b, path, PATH_MAX);
		if (!err)
			return 0;
		snprintf(why, sizeof(why), "cannot write the report to %s: %s", path,
			 strerror((int)-err));
		fallback(run, b, true);
		return -1;
	}
	if (strcmp(tmpl, "-") == 0) {
		if (tt_channel_write(b->data, b->len) == 0)
			return 0;
		snprintf(why, sizeof(why), "stderr is closed");
		fallback(run, b, false);
		return -1;
	}
	if (tt_report_path_expand(tmpl, run->pid, tt_run_name(run),
				  run->clock.start_real_ns / 1000000000u, name, sizeof(name)) < 0) {
		snprintf(why, sizeof(why), "TSC_OUTPUT=%s is too long once expanded", tmpl);
		fallback(run, b, true);
		return -1;
	}
	if (name[0] == '/' || !run->cwd[0] ||
	    (size_t)snprintf(path, PATH_MAX, "%s/%s", run->cwd, name) >= PATH_MAX)
		memcpy(path, name, strlen(name) + 1);
	lay_out_names();
	return to_path(run, b, has_pid(tmpl));
}

int tt_runtime_report_deliver(const struct tt_run *run, const struct tt_buf *b)
{
	int ret;

	image_start_ns = run->clock.start_real_ns;
	room.raised = false;
	ret = deliver(run, b);
	if (room.raised)
		tt_syscall6(SYS_prlimit64, 0, RLIMIT_NOFILE, (long)&room.old, 0, 0, 0);
	room.raised = false;
	return ret;
}
