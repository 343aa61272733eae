/*
 * pprof.c - call paths as a gzipped pprof profile (see pprof.h).
 *
 * The profile's tables are built with uthash lookups: strings, frames (a function and its
 * location, one each per distinct name and object) and mappings (per object base name, as
 * caller frames name objects by base name).
 */
#include "cli/pprof.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>
#include <zlib.h>

#include "base/basename.h"
#include "cli/cli.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

struct key {
	UT_hash_handle hh;
	uint64_t id;
	char k[];
};

struct vec {
	void **v;
	size_t n, cap;
};

struct builder {
	bool oom;
	struct key *strs, *frames, *maps;
	struct vec strtab, fns, locs, mappings, samples;
};

static void *push(struct builder *b, struct vec *v, void *p)
{
	if (!p || b->oom)
		goto fail;
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 16;
		void **nv = realloc(v->v, cap * sizeof(*nv));

		if (!nv)
			goto fail;
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = p;
	return p;
fail:
	b->oom = true;
	free(p);
	return NULL;
}

/* The entry of table for the len bytes at k; *fresh says it was just added (id 0). */
static struct key *lookup(struct builder *b, struct key **table, const char *k, size_t len,
			  bool *fresh)
{
	struct key *e;

	*fresh = false;
	HASH_FIND(hh, *table, k, len, e);
	if (e)
		return e;
	e = calloc(1, sizeof(*e) + len + 1);
	if (!e) {
		b->oom = true;
		return NULL;
	}
	memcpy(e->k, k, len);
	HASH_ADD_KEYPTR(hh, *table, e->k, len, e);
	*fresh = true;
	return e;
}

/* Index of the len bytes at s in the string table. */
static int64_t str(struct builder *b, const char *s, size_t len)
{
	bool fresh;
	struct key *e = lookup(b, &b->strs, s, len, &fresh);

	if (!e)
		return 0;
	if (fresh) {
		e->id = b->strtab.n;
		if (!push(b, &b->strtab, strndup(s, len)))
			return 0;
	}
	return (int64_t)e->id;
}

static int64_t cstr(struct builder *b, const char *s)
{
	return str(b, s, strlen(s));
}

/* The mapping of the object whose base name is obj; file: its path when known. */
static uint64_t mapping(struct builder *b, const char *obj, size_t len, const char *file)
{
	bool fresh;
	struct key *e = lookup(b, &b->maps, obj, len, &fresh);
	pb_mapping *m;

	if (!e)
		return 0;
	if (!fresh)
		return e->id;
	m = malloc(sizeof(*m));
	if (m) {
		perftools__profiles__mapping__init(m);
		m->id = b->mappings.n + 1;
		m->filename = file ? cstr(b, file) : str(b, obj, len);
		m->has_functions = 1; /* names are known: nothing for pprof to symbolize */
	}
	if (push(b, &b->mappings, m))
		e->id = m->id;
	return e->id;
}

/* The location of function fn in object obj (base name; may be empty). */
static uint64_t frame(struct builder *b, const char *fn, size_t fnlen, const char *obj,
		      size_t objlen, const char *system_name)
{
	size_t klen = fnlen + 1 + objlen;
	char *k = malloc(klen);
	struct key *e;
	pb_function *f;
	pb_location *l;
	pb_line *line;
	bool fresh;

	if (!k) {
		b->oom = true;
		return 0;
	}
	memcpy(k, fn, fnlen);
	k[fnlen] = 0;
	memcpy(k + fnlen + 1, obj, objlen);
	e = lookup(b, &b->frames, k, klen, &fresh);
	free(k);
	if (!e || !fresh)
		return e ? e->id : 0;
	f = push(b, &b->fns, malloc(sizeof(*f)));
	if (!f)
		return 0;
	perftools__profiles__function__init(f);
	l = push(b, &b->locs, malloc(sizeof(*l)));
	if (!l)
		return 0;
	perftools__profiles__location__init(l);
	line = malloc(sizeof(*line));
	l->line = malloc(sizeof(*l->line));
	if (!line || !l->line) {
		free(line);
		b->oom = true;
		return 0;
	}
	perftools__profiles__line__init(line);
	l->line[0] = line;
	l->n_line = 1;
	f->id = l->id = e->id = b->fns.n;
	f->name = str(b, fn, fnlen);
	f->system_name = system_name ? cstr(b, system_name) : f->name;
	line->function_id = f->id;
	l->mapping_id = objlen ? mapping(b, obj, objlen, NULL) : 0;
	return e->id;
}

/* Samples of reports measured in ticks carry ns too when every report knows its tsc_hz. */
struct units {
	bool in_ns;   /* the reports' clock counts ns: cycles are already time */
	bool with_ns; /* ticks converted at each report's tsc_hz */
};

static int value(const char *cmd, uint64_t v, int64_t *out)
{
	if (v > INT64_MAX) {
		tt_cli_err("%s: a value above 2^63 does not fit a pprof sample", cmd);
		return -1;
	}
	*out = (int64_t)v;
	return 0;
}

static pb_label *label(struct builder *b, const char *key, const char *s, int64_t num)
{
	pb_label *l = malloc(sizeof(*l));

	if (!l) {
		b->oom = true;
		return NULL;
	}
	perftools__profiles__label__init(l);
	l->key = cstr(b, key);
	if (s)
		l->str = cstr(b, s);
	else
		l->num = num;
	return l;
}

static int add_sample(const char *cmd, struct builder *b, const struct tt_callpath *p,
		      struct units u)
{
	const struct tt_report_func *f = p->func;
	size_t i, nv = u.with_ns ? 3 : 2;
	struct tt_frame fr;
	pb_sample *s;
	uint64_t ns;

	if (!p->calls && !p->cycles)
		return 0;
	s = push(b, &b->samples, malloc(sizeof(*s)));
	if (!s)
		return 0;
	perftools__profiles__sample__init(s);
	s->location_id = calloc(p->nframes + 1, sizeof(*s->location_id));
	s->value = calloc(nv, sizeof(*s->value));
	s->label = calloc(2, sizeof(*s->label));
	if (!s->location_id || !s->value || !s->label) {
		b->oom = true;
		return 0;
	}
	s->n_value = nv;
	if (value(cmd, p->calls, &s->value[0]) < 0 || value(cmd, p->cycles, &s->value[1]) < 0)
		return -1;
	if (u.with_ns) {
		ns = (uint64_t)(((unsigned __int128)p->cycles * 1000000000u +
				 p->rep->r.clock.tsc_hz / 2) /
				p->rep->r.clock.tsc_hz);
		if (value(cmd, ns, &s->value[2]) < 0)
			return -1;
	}
	s->location_id[s->n_location_id++] = frame(b, f->name, strlen(f->name),
						   tt_base_name(f->object),
						   strlen(tt_base_name(f->object)), f->symbol);
	for (i = 0; i < p->nframes; i++) {
		tt_frame_split(p->frames[i], &fr);
		if (!tt_frame_is_shim(&fr))
			s->location_id[s->n_location_id++] = frame(b, fr.fn, fr.fnlen,
								   fr.obj ? fr.obj : "", fr.objlen,
								   NULL);
	}
	if ((s->label[0] = label(b, "program", tt_base_name(p->rep->r.program), 0)))
		s->n_label = 1;
	if ((s->label[1] = label(b, "pid", NULL, p->rep->r.pid)))
		s->n_label = 2;
	return 0;
}

static struct units units_of(struct cli_report **reps, size_t n)
{
	struct units u = { n > 0 && tt_load_in_ns(&reps[0]->r),
			   !(n > 0 && tt_load_in_ns(&reps[0]->r)) };
	size_t i;

	for (i = 0; i < n; i++)
		if (!reps[i]->r.clock.tsc_hz)
			u.with_ns = false;
	return u;
}

static void value_type(struct builder *b, pb_value_type *vt, const char *type, const char *unit)
{
	perftools__profiles__value_type__init(vt);
	vt->type = cstr(b, type);
	vt->unit = cstr(b, unit);
}

/* The profile's header: types, times and one comment per report. */
static int64_t *header(struct builder *b, pb_profile *p, pb_value_type *vt, pb_value_type **vtp,
		       struct cli_report **reps, size_t n, struct units u)
{
	uint64_t start = UINT64_MAX, end = 0;
	int64_t *comments = calloc(n ? n : 1, sizeof(*comments));
	char line[64];
	size_t i;

	value_type(b, &vt[0], "calls", "count");
	value_type(b, &vt[1], u.in_ns ? "time" : "cycles", u.in_ns ? "nanoseconds" : "count");
	value_type(b, &vt[2], "time", "nanoseconds");
	for (i = 0; i < 3; i++)
		vtp[i] = &vt[i];
	p->sample_type = vtp;
	p->n_sample_type = u.with_ns ? 3 : 2;
	p->default_sample_type = vt[1].type;
	for (i = 0; i < n; i++) {
		const struct tt_report *r = &reps[i]->r;
		struct tt_buf c = TT_BUF_INIT;

		start = r->start_unix_ns < start ? r->start_unix_ns : start;
		end = r->start_unix_ns + r->wall_ns > end ? r->start_unix_ns + r->wall_ns : end;
		snprintf(line, sizeof(line), " pid %" PRId64, r->pid);
		tt_buf_puts(&c, "tsctrace report of ");
		tt_buf_puts(&c, r->program);
		tt_buf_puts(&c, line);
		if (comments && !c.failed)
			comments[i] = cstr(b, c.data);
		else
			b->oom = true;
		tt_buf_free(&c);
	}
	p->comment = comments;
	p->n_comment = comments ? n : 0;
	if (n && start <= INT64_MAX && end - start <= INT64_MAX) {
		p->time_nanos = (int64_t)start;
		p->duration_nanos = (int64_t)(end - start);
	}
	return comments;
}

/* data gzipped (deterministic: zlib's gzip header carries no time or name) onto out. */
static int gzip_onto(struct tt_buf *out, const uint8_t *data, size_t len)
{
	z_stream z;
	uint8_t *buf;
	size_t bound;
	int rc;

	memset(&z, 0, sizeof(z));
	if (len > UINT_MAX || deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
					   Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	bound = deflateBound(&z, len);
	buf = bound <= UINT_MAX ? malloc(bound) : NULL;
	if (!buf) {
		deflateEnd(&z);
		return -1;
	}
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = buf;
	z.avail_out = (uInt)bound;
	rc = deflate(&z, Z_FINISH);
	if (rc == Z_STREAM_END)
		tt_buf_append(out, (const char *)buf, z.total_out);
	deflateEnd(&z);
	free(buf);
	return rc == Z_STREAM_END && !out->failed ? 0 : -1;
}

static void builder_free(struct builder *b)
{
	struct key *e, *tmp;
	size_t i, j;

	for (i = 0; i < b->samples.n; i++) {
		pb_sample *s = b->samples.v[i];

		for (j = 0; j < s->n_label; j++)
			free(s->label[j]);
		free(s->label);
		free(s->location_id);
		free(s->value);
		free(s);
	}
	for (i = 0; i < b->locs.n; i++) {
		pb_location *l = b->locs.v[i];

		for (j = 0; j < l->n_line; j++)
			free(l->line[j]);
		free(l->line);
		free(l);
	}
	for (i = 0; i < b->fns.n; i++)
		free(b->fns.v[i]);
	for (i = 0; i < b->mappings.n; i++)
		free(b->mappings.v[i]);
	for (i = 0; i < b->strtab.n; i++)
		free(b->strtab.v[i]);
	free(b->samples.v);
	free(b->locs.v);
	free(b->fns.v);
	free(b->mappings.v);
	free(b->strtab.v);
	HASH_ITER(hh, b->strs, e, tmp) {
		HASH_DEL(b->strs, e);
		free(e);
	}
	HASH_ITER(hh, b->frames, e, tmp) {
		HASH_DEL(b->frames, e);
		free(e);
	}
	HASH_ITER(hh, b->maps, e, tmp) {
		HASH_DEL(b->maps, e);
		free(e);
	}
}

int tt_pprof_write(const char *cmd, struct cli_report **reps, size_t n,
		   const struct tt_callpaths *cp, struct tt_buf *out)
{
	pb_profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct units u = units_of(reps, n);
	struct builder b;
	pb_value_type vt[3], *vtp[3];
	int64_t *comments;
	uint8_t *packed = NULL;
	size_t i, j, len = 0;
	int rc = -1;

	memset(&b, 0, sizeof(b));
	cstr(&b, ""); /* index 0, as the format requires */
	comments = header(&b, &p, vt, vtp, reps, n, u);
	/* The programs first (pprof takes the first mapping for the main binary), then the
	 * objects of the traced functions, all with the paths the reports give. */
	for (i = 0; i < n; i++) {
		/* the executable (its objects' name), not the name it was run by */
		const char *exe = reps[i]->r.exe ? reps[i]->r.exe : reps[i]->r.program;

		if (*tt_base_name(exe))
			mapping(&b, tt_base_name(exe), strlen(tt_base_name(exe)), exe);
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < reps[i]->r.nfuncs; j++) {
			const char *obj = reps[i]->funcs[j].object;

			if (*tt_base_name(obj))
				mapping(&b, tt_base_name(obj), strlen(tt_base_name(obj)), obj);
		}
	}
	for (i = 0; i < cp->n; i++)
		if (add_sample(cmd, &b, &cp->p[i], u) < 0)
			goto out;
	p.sample = (pb_sample **)b.samples.v;
	p.n_sample = b.samples.n;
	p.mapping = (pb_mapping **)b.mappings.v;
	p.n_mapping = b.mappings.n;
	p.location = (pb_location **)b.locs.v;
	p.n_location = b.locs.n;
	p.function = (pb_function **)b.fns.v;
	p.n_function = b.fns.n;
	p.string_table = (char **)b.strtab.v;
	p.n_string_table = b.strtab.n;
	if (!b.oom) {
		len = perftools__profiles__profile__get_packed_size(&p);
		packed = malloc(len ? len : 1);
	}
	if (!packed || perftools__profiles__profile__pack(&p, packed) != len ||
	    gzip_onto(out, packed, len) < 0)
		tt_cli_err("%s: out of memory", cmd);
	else
		rc = 0;
out:
	free(packed);
	free(comments);
	builder_free(&b);
	return rc;
}
