/*
 * demangle.c - see demangle.h. libiberty hands the demangled text to a callback in pieces;
 * the pieces go to a fixed buffer or to a struct tt_buf.
 */
#include "base/demangle.h"

#include <libiberty/demangle.h>
#include <string.h>

struct sink {
	char *out; /* fixed buffer, or NULL when buf takes the text */
	size_t size, len;
	struct tt_buf *buf;
};

static void take(const char *s, size_t n, void *arg)
{
	struct sink *k = arg;

	if (k->buf) {
		tt_buf_append(k->buf, s, n);
	} else if (k->len + 1 < k->size) {
		size_t room = k->size - 1 - k->len;

		memcpy(k->out + k->len, s, n < room ? n : room);
		k->out[k->len + (n < room ? n : room)] = '\0';
	}
	k->len += n;
}

/* Demangle sym[0..len) into k; false when it is not a name the demangler reads. */
static bool run(const char *sym, size_t len, struct sink *k)
{
	char name[TT_DEMANGLE_MAX + 1];

	if (!tt_is_mangled(sym, len) || len > TT_DEMANGLE_MAX)
		return false;
	memcpy(name, sym, len);
	name[len] = '\0';
	return cplus_demangle_v3_callback(name, DMGL_PARAMS | DMGL_ANSI, take, k) != 0 &&
	       k->len > 0;
}

size_t tt_demangle(const char *sym, size_t len, char *out, size_t size)
{
	struct sink k = { out, size, 0, NULL };

	if (size)
		out[0] = '\0';
	if (!run(sym, len, &k)) {
		if (size)
			out[0] = '\0';
		return 0;
	}
	return k.len;
}

bool tt_demangle_buf(const char *sym, size_t len, struct tt_buf *b)
{
	struct tt_buf tmp = TT_BUF_INIT;
	struct sink k = { NULL, 0, 0, &tmp };
	bool ok = run(sym, len, &k) && !tmp.failed;

	/* Into a scratch buffer first: a name the demangler rejects halfway leaves b as it was. */
	if (ok)
		tt_buf_append(b, tmp.data, tmp.len);
	tt_buf_free(&tmp);
	return ok;
}
