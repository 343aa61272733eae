/*
 * load_read.c - a report's bytes, from a file or stdin, streamed into jansson's parser, with a
 * cap on how many are read (see load.h).
 *
 * Streamed rather than read whole first: input that is not JSON (/dev/zero, a binary) is
 * refused at its first bad byte instead of after the cap, and memory holds the parsed
 * document only, not the text as well. The reasons a user can act on stay apart: "cannot read"
 * (errno: a directory, an I/O error) is remembered here, apart from "not JSON" (jansson's line
 * and column) and "larger than the cap".
 *
 * The cap exists because an input that never ends (/dev/zero, `yes`, a FIFO fed forever) or
 * never stops being valid JSON (blanks) was read until the kernel killed the command. 256 MiB
 * is far above a real report: the shim traces at most 1,023 functions per process and writes
 * one to two KiB for a typical one (tens of KiB with thousands of buckets), and a merge of many
 * processes' reports with 40,000 typical functions is some 60 MiB. It bounds memory too, though
 * loosely: jansson's tree takes 10 to 30 times the text of a report, up to 75 times for
 * contrived JSON (millions of empty objects). So TSCTRACE_MAX_INPUT can lower the cap on a
 * small machine, or raise it for an exceptional report. Nesting needs no limit of ours:
 * jansson refuses depths past 2048. Nor does the number of functions: each needs a few hundred
 * bytes of required members, and every step over them is O(n log n).
 */
#include "cli/load.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/load_text.h"

#define MAX_INPUT_ENV "TSCTRACE_MAX_INPUT"
#define MAX_INPUT_DEFAULT ((uint64_t)256 << 20)
#define MAX_INPUT_TOP ((uint64_t)1 << 60) /* so that cap + 1 and the suffixes fit */
#define CHUNK 65536			  /* bytes per read(2) */

struct reader {
	int fd;
	uint64_t cap; /* bytes that may be read */
	uint64_t got; /* bytes read so far */
	int err;      /* errno of a failed read, else 0 */
	bool over;    /* the input goes on past cap */
	bool nul;     /* a NUL byte, at offset nul_at: binary data, never JSON text */
	uint64_t nul_at;
	size_t pos, len; /* buf[pos..len) is read but not yet handed to jansson */
	char head[32];	 /* the input's first bytes (NUL-terminated): is it a text report? */
	char buf[CHUNK];
};

/* "256M": a count, then K, M, G or T for KiB, MiB, GiB, TiB; 0 when malformed or 0. */
static uint64_t parse_size(const char *s)
{
	static const char units[] = "KMGT";
	const char *u;
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return 0;
	for (; *s >= '0' && *s <= '9'; s++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *s - '0', &v))
			return 0;
	if (*s && (u = strchr(units, *s & ~0x20)) && s[1] == '\0') {
		if (v > MAX_INPUT_TOP >> (10 * (u - units + 1)))
			return 0;
		v <<= 10 * (u - units + 1);
	} else if (*s) {
		return 0;
	}
	return v <= MAX_INPUT_TOP ? v : 0;
}

int tt_load_cap(uint64_t *cap)
{
	const char *env = getenv(MAX_INPUT_ENV);

	*cap = MAX_INPUT_DEFAULT;
	if (!env)
		return 0;
	*cap = parse_size(env);
	if (*cap)
		return 0;
	tt_cli_err("%s=%s: expected a size in bytes, or with K, M, G or T (KiB, MiB, GiB, TiB) "
		   "after it, such as 512M",
		   MAX_INPUT_ENV, env);
	return -1;
}

/* "256 MiB", or "1000 bytes" when no unit divides it. */
static void format_size(char *out, size_t size, uint64_t v)
{
	static const char *const units[] = { "TiB", "GiB", "MiB", "KiB" };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (v && v % ((uint64_t)1 << (10 * (4 - i))) == 0) {
			snprintf(out, size, "%" PRIu64 " %s", v >> (10 * (4 - i)), units[i]);
			return;
		}
	}
	snprintf(out, size, "%" PRIu64 " bytes", v);
}

/* The next chunk into r->buf: never more than cap + 1 bytes in all, the one to tell that the
 * input goes on. 0 at the end, -1 when the read failed or went past the cap. */
static int refill(struct reader *r)
{
	uint64_t left = r->cap + 1 - r->got;
	const char *nul;
	ssize_t n;

	do
		n = read(r->fd, r->buf, left < CHUNK ? (size_t)left : CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		r->err = errno;
		return -1;
	}
	if (r->got == 0)
		snprintf(r->head, sizeof(r->head), "%.*s", (int)n, r->buf);
	r->got += (uint64_t)n;
	r->over = r->got > r->cap;
	r->pos = 0;
	r->len = (size_t)n;
	/* Said here because jansson takes a NUL for the end of the text: /dev/zero would be
	 * "'[' or '{' expected near end of file". */
	nul = memchr(r->buf, '\0', r->len - (size_t)(r->over ? r->got - r->cap : 0));
	if (nul) {
		r->nul = true;
		r->nul_at = r->got - r->len + (uint64_t)(nul - r->buf);
	}
	return r->over || r->nul ? -1 : 0;
}

/* jansson's source of bytes (json_load_callback): 0 at the end, (size_t)-1 on failure. */
static size_t feed(void *out, size_t size, void *data)
{
	struct reader *r = data;
	size_t n;

	/* Once failed, failed for good: another read could go on past the cap. */
	if (r->err || r->over || r->nul || (r->pos == r->len && refill(r) < 0))
		return (size_t)-1;
	n = r->len - r->pos < size ? r->len - r->pos : size;
	memcpy(out, r->buf + r->pos, n);
	r->pos += n;
	return n;
}

/* The shim's text report starts "tsctrace 0.1.0 report". */
static bool is_text(const struct reader *r)
{
	return strncmp(r->head, "tsctrace ", 9) == 0 && strstr(r->head, " report\n");
}

/* The rest of a text report after its first chunk, read whole (at most cap bytes) and turned
 * into JSON by load_text.c; NULL after a "tsctrace:" line. */
static json_t *parse_text(const char *file, struct reader *r)
{
	size_t size = r->len, cap = CHUNK * 2;
	char *text = malloc(cap + 1), *more;
	json_t *root = NULL;

	if (!text) {
		tt_cli_err("%s: out of memory", file);
		return NULL;
	}
	memcpy(text, r->buf, r->len);
	while (r->len && refill(r) == 0 && r->len) {
		if (size + r->len > cap) {
			cap = cap * 2 > size + r->len ? cap * 2 : size + r->len;
			if (!(more = realloc(text, cap + 1))) {
				free(text);
				tt_cli_err("%s: out of memory", file);
				return NULL;
			}
			text = more;
		}
		memcpy(text + size, r->buf, r->len);
		size += r->len;
	}
	text[size] = '\0';
	if (!r->err && !r->over && !r->nul)
		root = tt_load_text(file, text);
	free(text);
	return root;
}

/* Parse what r reads; NULL after a "tsctrace:" line. */
static json_t *parse(const char *file, struct reader *r)
{
	char limit[32];
	json_error_t err;
	json_t *root = NULL;

	/* The first chunk tells a text report; then feed() hands jansson that chunk first. */
	if (refill(r) == 0 && is_text(r)) {
		root = parse_text(file, r);
		if (root || (!r->err && !r->over && !r->nul))
			return root;
	}
	/* Duplicate keys would make "which value counts" a guess: refuse them. */
	if (!r->err && !r->over && !r->nul)
		root = json_load_callback(feed, r, JSON_REJECT_DUPLICATES, &err);

	/* Checked first: jansson takes a failed read for the end of the input. */
	if (r->err || r->over || r->nul) {
		json_decref(root);
		format_size(limit, sizeof(limit), r->cap);
		if (r->err)
			tt_cli_err("cannot read %s: %s", file, strerror(r->err));
		else if (r->nul)
			tt_cli_err("%s: not a JSON report: a NUL byte at offset %" PRIu64, file,
				   r->nul_at);
		else
			tt_cli_err("%s: larger than %s, the most read from one report (%s changes "
				   "it)",
				   file, limit, MAX_INPUT_ENV);
		return NULL;
	}
	if (!root)
		tt_cli_err("%s: not a JSON report: %s (line %d, column %d)", file, err.text,
			   err.line, err.column);
	return root;
}

json_t *tt_load_parse(const char *file, uint64_t cap)
{
	bool is_stdin = strcmp(file, "-") == 0;
	struct reader *r = malloc(sizeof(*r));
	json_t *root = NULL;

	if (!r) {
		tt_cli_err("%s: out of memory", file);
		return NULL;
	}
	r->fd = is_stdin ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC);
	r->cap = cap;
	r->got = 0;
	r->err = 0;
	r->over = r->nul = false;
	r->nul_at = 0;
	r->pos = r->len = 0;
	r->head[0] = '\0';
	if (r->fd < 0)
		tt_cli_err("cannot open %s: %s", file, strerror(errno));
	else
		root = parse(file, r);
	if (r->fd >= 0 && !is_stdin)
		close(r->fd);
	free(r);
	return root;
}
