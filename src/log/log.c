/*
 * log.c - see log.h. Lines longer than the buffer are cut, never split. They go to the
 * private duplicate of stderr (channel.c), never to whatever fd 2 has become.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/sys.h"
#include "hot/thread.h"
#include "log/channel.h"
#include "log/log.h"

#define KEEP_LINES 32
#define KEEP_BYTES 400

static bool quiet;
static char kept[KEEP_LINES][KEEP_BYTES]; /* messages for the report, without prefix */
static unsigned int nkept;

size_t tt_log_lines(const char **out, size_t max)
{
	unsigned int i, n = __atomic_load_n(&nkept, __ATOMIC_ACQUIRE);

	if (n > KEEP_LINES)
		n = KEEP_LINES;
	for (i = 0; i < n && i < max; i++)
		out[i] = kept[i];
	return n;
}

/* A long line is cut for the report at a space, not inside a word or a C++ type, and
 * ends " ..." to say so: the report keeps a summary, stderr had it whole. */
static void keep(const char *msg)
{
	unsigned int slot = __atomic_fetch_add(&nkept, 1, __ATOMIC_ACQ_REL);
	size_t n = strnlen(msg, KEEP_BYTES), cut;

	if (slot >= KEEP_LINES)
		return;
	if (n < KEEP_BYTES) {
		memcpy(kept[slot], msg, n + 1);
		return;
	}
	for (cut = KEEP_BYTES - 5; cut > KEEP_BYTES / 2 && msg[cut] != ' '; cut--)
		;
	if (msg[cut] != ' ')
		cut = KEEP_BYTES - 5;
	memcpy(kept[slot], msg, cut);
	memcpy(kept[slot] + cut, " ...", 5);
}

void tt_log_set_quiet(bool q)
{
	quiet = q;
}

static void vline(bool print, bool kept_too, const char *fmt, va_list ap)
{
	char line[1024];
	int saved = errno;
	uint8_t was = tt_shim_enter();
	int n = snprintf(line, sizeof(line), "tsctrace: ");

	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	if (kept_too)
		keep(line + 10);
	line[n++] = '\n';
	if (print)
		tt_channel_write(line, (size_t)n);
	tt_shim_leave(was);
	errno = saved;
}

void tt_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(true, true, fmt, ap);
	va_end(ap);
}

void tt_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(!quiet, true, fmt, ap);
	va_end(ap);
}

void tt_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(!quiet, false, fmt, ap);
	va_end(ap);
}
