/*
 * config_funcs.c - TSC_FUNCS (libtsctrace(7), ENVIRONMENT) -> cfg->funcs.
 *
 * Pure, like config.c: reads only the string it is given, reports each malformed entry as one
 * line through the caller's callback and skips it. Runs once at start-up, before anything is
 * traced, so malloc is fine here.
 *
 * An entry is [object:]name[@version]. Names are symbol characters (letters, digits, '_', '.',
 * '$') or the glob characters * ? [...]; versions add '-'. A name holding "::" or '(' is a C++
 * name as c++filt prints it ("ns::Klass::method", "ns::foo(std::string const&)"): any
 * printable characters, with white space and commas inside its () and <> nesting, which do
 * not end the entry; a ':' of "::" never ends an object. Exact duplicates are merged so that
 * one function never gets two stubs (found through a hash set of the entries kept: a list
 * of thousands of names costs no more than a list of ten). Entries beyond what the shim can trace
 * are skipped with one line.
 */
#include "config/config_funcs.h"

#include "base/cxx_match.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TSC_FUNCS entries kept: as many as a 32-bit function index counts (index 0 is the shim's
 * calibration function); the shim's tables grow to hold them. */
#define MAX_FUNCS (UINT32_MAX - 1u)

/* A piece of the variable's value; s == NULL when absent. */
struct span {
	const char *s;
	size_t len;
};

/* A TSC_FUNCS entry cut into its parts, still pointing into the variable's value. */
struct entry {
	struct span object, name, version;
	bool glob, cxx;
};

struct funcs_parser {
	struct tt_config *cfg;
	const struct tt_config_diag *diag;
	size_t funcs_cap; /* slots allocated in cfg->funcs */
	uint32_t *set;	  /* entries kept, for duplicates: index by hash, FREE_SLOT when free */
	size_t set_size;  /* a power of two, at least twice the entries */
};

static bool is_symchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

static const char *bad_char(char *why, size_t size, char c, const char *where)
{
	unsigned char u = (unsigned char)c;

	if (u > 0x20 && u < 0x7f)
		snprintf(why, size, "bad character '%c' in %s", c, where);
	else
		snprintf(why, size, "bad character 0x%02x in %s", u, where);
	return why;
}

/* Symbol characters, plus the glob characters * ? and [...] (optionally negated by ! or ^,
 * holding symbol characters and '-' ranges). Sets e->glob. NULL when fine, else the reason. */
static const char *check_name(struct entry *e, char *why, size_t size)
{
	const char *s = e->name.s;
	size_t n = e->name.len, i, j, first;

	for (i = 0; i < n; i++) {
		if (s[i] == '*' || s[i] == '?') {
			e->glob = true;
		} else if (s[i] == '[') {
			e->glob = true;
			j = i + 1;
			if (j < n && (s[j] == '!' || s[j] == '^'))
				j++;
			for (first = j; j < n && s[j] != ']'; j++)
				if (!is_symchar(s[j]) && s[j] != '-')
					return bad_char(why, size, s[j], "name");
			if (j == n)
				return "unclosed [ in name";
			if (j == first)
				return "empty [] in name";
			i = j;
		} else if (!is_symchar(s[i])) {
			return bad_char(why, size, s[i], "name");
		}
	}
	return NULL;
}

/* The ':' that ends an object in s[0..len): the first one that is not half of "::", before
 * any '(' '<' '[' of a C++ name; NULL when none. */
static const char *object_colon(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && !strchr("(<[", s[i]); i++) {
		if (s[i] != ':')
			continue;
		if (i + 1 < len && s[i + 1] == ':') {
			i++;
			continue;
		}
		return s + i;
	}
	return NULL;
}

/* True when s[0..i) ends with the keyword operator: the space at s[i] is part of an
 * operator's name ("operator new", "operator delete[]", "operator bool"). */
static bool after_operator(const char *s, size_t i)
{
	return i >= 8 && memcmp(s + i - 8, "operator", 8) == 0 && (i == 8 || !is_symchar(s[i - 9]));
}

/* "::" or '(' or the keyword operator: a C++ name. */
static bool is_cxx(struct span name)
{
	size_t i;

	if (name.len > 8 && memcmp(name.s, "operator", 8) == 0 && !is_symchar(name.s[8]))
		return true;
	for (i = 0; i < name.len; i++)
		if (name.s[i] == '(' ||
		    (name.s[i] == ':' && i + 1 < name.len && name.s[i + 1] == ':'))
			return true;
	return false;
}

/* A C++ name: printable ASCII, () balanced. Sets e->cxx, and e->glob when it has * or ? and
 * no parameter list. NULL when fine, else the reason. */
static const char *check_cxx_name(struct entry *e, char *why, size_t size)
{
	const char *s = e->name.s;
	size_t n = e->name.len, i;
	bool params = false, wild = false;
	int depth = 0;

	e->cxx = true;
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return bad_char(why, size, s[i], "name");
		if (s[i] == '(' && n - i >= 21 && memcmp(s + i, "(anonymous namespace)", 21) == 0)
			i += 20;
		else if (s[i] == '(' && ++depth)
			params = true;
		else if (s[i] == ')' && --depth < 0)
			return "unbalanced ) in name";
		else if (s[i] == '*' || s[i] == '?')
			wild = true;
	}
	if (depth)
		return "unclosed ( in name";
	e->glob = wild && !params;
	return NULL;
}

/* Cut s[0..len) into [object:]name[@version]; the object is what precedes the first ':' that
 * is not half of "::", unless an '@' comes first. NULL when well formed, else the reason. */
static const char *split_entry(const char *s, size_t len, struct entry *e, char *why, size_t size)
{
	const char *end = s + len, *colon = object_colon(s, len), *at = memchr(s, '@', len), *bad;
	size_t i;

	memset(e, 0, sizeof(*e));
	if (colon && (!at || colon < at)) { /* in "f@V:x" the ':' belongs to the version */
		if (colon == s)
			return "empty object";
		e->object = (struct span){ s, (size_t)(colon - s) };
		s = colon + 1;
	}
	at = memchr(s, '@', (size_t)(end - s));
	e->name = (struct span){ s, (size_t)((at ? at : end) - s) };
	if (!e->name.len)
		return "empty name";
	if (at) {
		e->version = (struct span){ at + 1, (size_t)(end - at - 1) };
		if (!e->version.len)
			return "empty version";
	}
	bad = is_cxx(e->name) ? check_cxx_name(e, why, size) : check_name(e, why, size);
	if (bad)
		return bad;
	for (i = 0; i < e->version.len; i++)
		if (!is_symchar(e->version.s[i]) && e->version.s[i] != '-')
			return bad_char(why, size, e->version.s[i], "version");
	return NULL;
}

static char *span_dup(struct span sp)
{
	char *s = malloc(sp.len + 1);

	if (s) {
		memcpy(s, sp.s, sp.len);
		s[sp.len] = '\0';
	}
	return s;
}

static int append(struct funcs_parser *p, const struct entry *e)
{
	struct tt_config *cfg = p->cfg;
	struct tt_func_spec *f;

	if (cfg->nfuncs == p->funcs_cap) {
		size_t cap = p->funcs_cap ? p->funcs_cap * 2 : 16;

		f = realloc(cfg->funcs, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		cfg->funcs = f;
		p->funcs_cap = cap;
	}
	f = &cfg->funcs[cfg->nfuncs];
	f->name = span_dup(e->name);
	f->version = e->version.s ? span_dup(e->version) : NULL;
	f->object = e->object.s ? span_dup(e->object) : NULL;
	f->glob = e->glob;
	f->cxx = e->cxx;
	if (!f->name || (e->version.s && !f->version) || (e->object.s && !f->object))
		goto out_free;
	cfg->nfuncs++;
	return 0;

out_free:
	free(f->name);
	free(f->version);
	free(f->object);
	return -ENOMEM;
}

#define FREE_SLOT UINT32_MAX

/* FNV-1a over the parts of an entry, each followed by a byte no part holds. */
static uint64_t hash_part(uint64_t h, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return (h ^ 1) * 0x100000001b3ull;
}

static uint64_t hash_entry(const struct entry *e)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = hash_part(h, e->object.s, e->object.s ? e->object.len : 0);
	h = hash_part(h, e->name.s, e->name.len);
	return hash_part(h, e->version.s, e->version.s ? e->version.len : 0);
}

static uint64_t hash_spec(const struct tt_func_spec *f)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = hash_part(h, f->object, f->object ? strlen(f->object) : 0);
	h = hash_part(h, f->name, strlen(f->name));
	return hash_part(h, f->version, f->version ? strlen(f->version) : 0);
}

static bool part_is(const char *str, struct span sp)
{
	if (!str || !sp.s)
		return !str && !sp.s;
	return strlen(str) == sp.len && !memcmp(str, sp.s, sp.len);
}

static bool same(const struct tt_func_spec *f, const struct entry *e)
{
	return part_is(f->name, e->name) && part_is(f->version, e->version) &&
	       part_is(f->object, e->object);
}

/* The set's slot for e: the one holding its duplicate, or the free one it would take. */
static uint32_t *slot_of(const struct funcs_parser *p, const struct entry *e)
{
	size_t mask = p->set_size - 1, i = (size_t)hash_entry(e) & mask;

	while (p->set[i] != FREE_SLOT && !same(&p->cfg->funcs[p->set[i]], e))
		i = (i + 1) & mask;
	return &p->set[i];
}

/* Room in the set for one more entry: doubled (and refilled) at half full. 0 or -ENOMEM. */
static int set_room(struct funcs_parser *p)
{
	size_t size = p->set_size ? p->set_size * 2 : 64, i, j;
	uint32_t *set;

	if (p->set_size && (p->cfg->nfuncs + 1) * 2 <= p->set_size)
		return 0;
	set = malloc(size * sizeof(*set));
	if (!set)
		return -ENOMEM;
	memset(set, 0xff, size * sizeof(*set)); /* FREE_SLOT everywhere */
	for (i = 0; i < p->cfg->nfuncs; i++) {
		for (j = (size_t)hash_spec(&p->cfg->funcs[i]) & (size - 1); set[j] != FREE_SLOT;)
			j = (j + 1) & (size - 1);
		set[j] = (uint32_t)i;
	}
	free(p->set);
	p->set = set;
	p->set_size = size;
	return 0;
}

/* One TSC_FUNCS entry s[0..len): 0 when kept, merged or reported, 1 when the cap ends the list,
 * or -ENOMEM. */
static int add_entry(struct funcs_parser *p, const char *s, size_t len)
{
	const struct tt_config *cfg = p->cfg;
	const struct tt_config_diag *d = p->diag;
	char why[48] = "", sv[TT_SHOW_SIZE];
	const char *bad;
	struct entry e;
	uint32_t *slot;
	int err;

	bad = split_entry(s, len, &e, why, sizeof(why));
	if (bad) {
		tt_config_diag_say(d, "TSC_FUNCS entry \"%s\" malformed (%s), skipped",
				   tt_config_diag_show(sv, s, len), bad);
		return 0;
	}
	err = set_room(p);
	if (err)
		return err;
	slot = slot_of(p, &e);
	if (*slot != FREE_SLOT)
		return 0; /* a duplicate */
	if (cfg->nfuncs == MAX_FUNCS) {
		tt_config_diag_say(d, "TSC_FUNCS has more than %u entries, the rest are skipped",
				   MAX_FUNCS);
		return 1;
	}
	err = append(p, &e);
	if (err)
		return err;
	*slot = (uint32_t)(cfg->nfuncs - 1);
	return 0;
}

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || (c >= '\t' && c <= '\r'); /* \t \n \v \f \r */
}

/* The end of the entry at s: the first separator outside () and <> (a C++ name's parameter
 * or template argument list may hold ", "; the '<' of operator<< nests nothing), and not the
 * space after the keyword operator ("operator new(unsigned long)"). */
static const char *entry_end(const char *s)
{
	const char *e;
	int paren = 0, angle = 0;

	for (e = s; *e && (paren > 0 || angle > 0 || !is_sep(*e) ||
			   (*e == ' ' && after_operator(s, (size_t)(e - s))));
	     e++) {
		if (*e == '(')
			paren++;
		else if (*e == ')' && paren > 0)
			paren--;
		else if ((*e == '<' || *e == '>') && tt_cxx_in_operator(s, (size_t)(e - s)))
			continue;
		else if (*e == '<')
			angle++;
		else if (*e == '>' && angle > 0)
			angle--;
	}
	return e;
}

int tt_config_funcs_parse(const char *val, struct tt_config *cfg, const struct tt_config_diag *d)
{
	struct funcs_parser p = { .cfg = cfg, .diag = d };
	const char *s = val, *e;
	int err = 0;

	for (;;) {
		while (is_sep(*s))
			s++;
		if (!*s)
			break;
		e = entry_end(s);
		err = add_entry(&p, s, (size_t)(e - s));
		if (err)
			break;
		s = e;
	}
	free(p.set);
	return err < 0 ? err : 0;
}
