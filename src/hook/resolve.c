/*
 * resolve.c - TSC_FUNCS entries to addresses.
 *
 * A plain name resolves as the dynamic linker's global lookup would: the first loaded object
 * (in load order: program, preloads, libraries) that exports it, with its default version.
 * `name@VER` asks for that version, `object:name` for that object only, a glob for every
 * exported function that matches. A C++ name ("ns::foo", "ns::foo(int)") is first turned into
 * the mangled symbols it names, by demangling the "_Z" symbols of the loaded objects (dynamic
 * and .symtab) and comparing (base/cxx_match.h): only entries written that way pay for it.
 * Each symbol found is then resolved as if named alone, so overloads are each their own entry. Lookups read the objects' dynamic symbol tables directly
 * (elfdyn.c) rather than calling dlsym: dlsym would leave its error string for the program's
 * next dlerror() to find. An IFUNC is resolved by calling its resolver, as the loader does,
 * so the implementation chosen for this CPU is what gets traced.
 *
 * Runs under the loader lock (dllock.h), which also guards `state`. An object's memory (its
 * symbols, strings, version tables, IFUNC resolver, even its file name) is read only inside
 * the dl_iterate_phdr callback that shows it, where the loader keeps it mapped; what is
 * needed afterwards is copied there (struct found).
 */
#include <dlfcn.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/altstack.h"
#include "base/basename.h"
#include "base/cxx_match.h"
#include "base/demangle.h"
#include "base/edit_distance.h"
#include "elf/elfdyn.h"
#include "elf/goprog.h"
#include "elf/symtab.h"
#include "hook/funcs.h"
#include "hook/go_runtime.h"
#include "hook/inline.h"
#include "hook/resolve.h"
#include "hook/unbracketable.h"
#include "log/log.h"

#define GLOB_CAP (UINT32_MAX - 1u) /* a glob is bounded by the 32-bit function index alone */

enum { PENDING, DONE, REFUSED };

static const struct tt_config *config;
static unsigned char *state; /* per cfg->funcs entry */

/* A function definition, as add_found needs it, copied inside the callback (see the top). */
struct found {
	void *addr;	    /* for an IFUNC, its resolver's choice */
	uintptr_t base;	    /* the object's load bias */
	unsigned int ns;    /* and its link-map namespace */
	unsigned char type; /* STT_FUNC or STT_GNU_IFUNC */
	uint64_t size;	    /* st_size */
	bool in_shim;	    /* defined by the shim itself (a wrapper) */
	bool has_version;
	char version[256];     /* of the definition */
	char impl[256];	       /* an IFUNC's choice, when it is exported itself: its name */
	char object[PATH_MAX]; /* the object's file, TT_ELF_PROGRAM for the program */
};

struct find {
	const struct tt_func_spec *spec;
	const char *name; /* for globs: one matching symbol at a time */
	bool found;	  /* a definition (of any kind) exists */
	bool in_loader;
	bool not_function;
	bool have_def; /* def holds the function found */
	struct found def;
	unsigned int glob_added;
	bool glob_capped;
	char glob_first[160]; /* the first few names a glob added, ", "-separated */
};

#define GLOB_NAMES_SHOWN 4 /* names on a glob's summary line */

/* Keep name among the first few a glob added, for its one summary line. */
static void glob_note(char *list, size_t size, unsigned int added, const char *name)
{
	size_t len = strlen(list);

	if (added < GLOB_NAMES_SHOWN)
		snprintf(list + len, size - len, "%s%s", len ? ", " : "", name);
}

static int find_shim_cb(struct tt_elf *o, void *arg)
{
	if (!tt_elf_is_shim(o))
		return 0;
	*(struct tt_elf *)arg = *o;
	return 1;
}

/*
 * Names the shim itself exports: its wrappers (dlopen, exec*, pthread_create, sigaction...),
 * which the program's calls reach before libc's, and its own API (tsctrace_*). Tracing
 * libc's copy of a wrapped function would route calls around the wrapper.
 */
static bool shim_exports(const char *name)
{
	static struct tt_elf shim;
	static bool found;

	if (!found)
		found = tt_elf_foreach(find_shim_cb, &shim) != 0;
	return found && tt_elf_lookup(&shim, name, NULL);
}

static const char *program_path(void)
{
	static char exe[4096];

	if (!exe[0] && readlink("/proc/self/exe", exe, sizeof(exe) - 1) <= 0)
		snprintf(exe, sizeof(exe), TT_ELF_PROGRAM);
	return exe;
}

static bool object_matches(const char *path, const char *want)
{
	size_t n = strlen(path), w = strlen(want);

	if (w > n || strcmp(path + n - w, want) != 0)
		return false;
	return n == w || path[n - w - 1] == '/';
}

static bool is_function(const ElfW(Sym) *s)
{
	unsigned char t = ELF64_ST_TYPE(s->st_info);

	return t == STT_FUNC || t == STT_GNU_IFUNC;
}

/* Copy what add_found needs of symbol s (index i) of o; inside a dl_iterate_phdr callback. */
static void take(struct find *f, const struct tt_elf *o, const ElfW(Sym) *s, size_t i)
{
	const char *v = tt_elf_def_version(o, i);
	struct found *d = &f->def;

	d->addr = tt_elf_sym_addr(o, s);
	d->base = o->base;
	d->ns = o->ns;
	d->type = ELF64_ST_TYPE(s->st_info);
	d->size = s->st_size;
	d->in_shim = tt_elf_is_shim(o);
	d->has_version = v != NULL;
	snprintf(d->version, sizeof(d->version), "%s", v ? v : "");
	snprintf(d->object, sizeof(d->object), "%s", tt_elf_name(o));
	d->impl[0] = 0;
	f->have_def = true;
}

/* The exported function of o defined at addr, as dladdr would name it, into out (or ""):
 * one pass over o's symbols, where dladdr would walk every object's. */
static void exported_at(const struct tt_elf *o, uintptr_t addr, char *out, size_t size)
{
	ElfW(Addr) value = addr - o->base;
	size_t i;

	out[0] = 0;
	/* The value first: one compare that almost never holds, for thousands of symbols. */
	for (i = 1; i < o->nsyms; i++) {
		const ElfW(Sym) *s = &o->symtab[i];

		if (__builtin_expect(s->st_value != value, 1))
			continue;
		if (s->st_shndx != SHN_UNDEF && ELF64_ST_TYPE(s->st_info) == STT_FUNC &&
		    ELF64_ST_BIND(s->st_info) != STB_LOCAL) {
			snprintf(out, size, "%s", tt_elf_sym_name(o, i));
			return;
		}
	}
}

static int find_cb(struct tt_elf *o, void *arg)
{
	struct find *f = arg;
	const ElfW(Sym) *s;

	/* The shim's own definitions count only for its wrappers, found first as the program
	 * finds them: then the wrapper is what gets timed. */
	if ((tt_elf_is_shim(o) && (f->spec->object || strncmp(f->name, "tsctrace_", 9) == 0)) ||
	    tt_elf_is_vdso(o))
		return 0;
	if (f->spec->object && !object_matches(o->name, f->spec->object))
		return 0;
	s = tt_elf_lookup(o, f->name, f->spec->version);
	if (!s)
		return 0;
	f->found = true;
	if (tt_elf_is_loader(o->name)) {
		f->in_loader = true;
		return 1;
	}
	if (!is_function(s)) {
		f->not_function = true;
		return 1;
	}
	take(f, o, s, (size_t)(s - o->symtab));
	if (f->def.type == STT_GNU_IFUNC)
		exported_at(o, (uintptr_t)f->def.addr, f->def.impl, sizeof(f->def.impl));
	return 1;
}

/*
 * Add the function found in f (f->def); returns 0, or -1 after a line saying why not.
 * from_glob: a glob's IFUNC choices are named by address. Otherwise the object may be gone by
 * now: only the copy in f->def is read.
 */
static int add_found(struct find *f, bool from_glob)
{
	const struct found *d = &f->def;
	void *addr = d->addr;
	char symbol[512];
	bool alias;
	struct tt_func *fn;

	/* The symbol at the address: the IFUNC implementation's own name when it is exported
	 * (found by find_cb, not dladdr: that walks every symbol of every object). */
	snprintf(symbol, sizeof(symbol), "%s", f->name);
	if (!from_glob && d->impl[0])
		snprintf(symbol, sizeof(symbol), "%s", d->impl);
	else if (d->type == STT_GNU_IFUNC) /* a file name is at most 255 bytes */
		snprintf(symbol, sizeof(symbol), "%s (ifunc choice at %.255s+0x%zx)", f->name,
			 tt_base_name(d->object), (size_t)((uintptr_t)addr - d->base));
	fn = tt_funcs_add(f->name, NULL, addr, symbol, d->object, d->base,
			  d->has_version ? d->version : NULL, &alias);
	if (!fn) {
		tt_warn("%s: no memory for another traced function, not traced", f->name);
		return -1;
	}
	if (!alias && fn->addr == addr)
		fn->ns = d->ns;
	/* An IFUNC symbol's size is its resolver's: the implementation's length is unknown. */
	if (!fn->size && d->type == STT_FUNC)
		fn->size = d->size;
	if (alias && !from_glob && strcmp(fn->name, f->name) != 0)
		tt_info("%s is the same function as another traced name: reported as %s", f->name,
			fn->name);
	return 0;
}

static int glob_cb(struct tt_elf *o, void *arg)
{
	struct find *f = arg;
	size_t i;

	if (tt_elf_is_shim(o) || tt_elf_is_loader(o->name) || tt_elf_is_vdso(o))
		return 0;
	if (f->spec->object && !object_matches(o->name, f->spec->object))
		return 0;
	for (i = 1; i < o->nsyms; i++) {
		const ElfW(Sym) *s = &o->symtab[i];
		const char *name = tt_elf_sym_name(o, i);

		if (s->st_shndx == SHN_UNDEF || !is_function(s) || !name[0] ||
		    (o->versym && (o->versym[i] & 0x8000)) || shim_exports(name) ||
		    tt_untraceable(name) || fnmatch(f->spec->name, name, 0) != 0 ||
		    tt_funcs_by_name(name, NULL))
			continue;
		if (f->glob_added >= GLOB_CAP) {
			f->glob_capped = true;
			return 1;
		}
		f->found = true;
		f->name = name;
		take(f, o, s, i);
		if (add_found(f, true) == 0)
			glob_note(f->glob_first, sizeof(f->glob_first), f->glob_added++, name);
	}
	return 0;
}

/* Functions not exported: the .symtab of each loaded object's file (resolve statics). */
struct statics {
	const struct tt_func_spec *spec;
	struct tt_elf obj;
	bool count_only; /* TSC_HOOK=got (or no decoder): only say they exist */
	unsigned int added;
	unsigned int failed;
	unsigned int cap; /* globs: at most this many added */
	bool capped;
	char *glob_first; /* globs: struct find's list of names, continued */
	size_t glob_first_size;
	unsigned int glob_before; /* names the glob added before the statics */
	unsigned int go;	  /* Go functions passed over (go_runtime.h) */
};

static int add_static(const char *name, uint64_t value, uint64_t size, void *arg)
{
	struct statics *st = arg;
	void *addr = (void *)(st->obj.base + value);
	const char *object = tt_elf_name(&st->obj);
	char key[512];
	struct tt_func *fn;
	bool alias;

	if (!tt_elf_in_exec(&st->obj, (uintptr_t)addr))
		return 0;
	if (tt_go_refuses(name, (uintptr_t)addr)) {
		st->go++;
		return 0;
	}
	if (st->count_only) {
		st->added++;
		return 0;
	}
	if (st->spec->glob) { /* exported names were matched already; shim exports never */
		if (tt_funcs_by_name(name, NULL) || shim_exports(name) || tt_untraceable(name))
			return 0;
		if (st->added >= st->cap) {
			st->capped = true;
			return 1;
		}
	}
	/* The first keeps the plain name as its key; more statics of that name get their own
	 * (the report names each with its object and offset). */
	if (st->added == 0 && !tt_funcs_by_name(name, NULL))
		snprintf(key, sizeof(key), "%s", name);
	else
		snprintf(key, sizeof(key), "%s\x01%s+%llx", name, object,
			 (unsigned long long)value);
	fn = tt_funcs_add(key, name, addr, name, object, st->obj.base, NULL, &alias);
	if (!fn) {
		st->failed++;
		return 1;
	}
	if (!alias) {
		if (fn->addr == addr)
			fn->ns = st->obj.ns;
		fn->local = true;
		fn->size = size;
	}
	if (st->glob_first)
		glob_note(st->glob_first, st->glob_first_size, st->glob_before + st->added, name);
	st->added++;
	return 0;
}

static int statics_cb(struct tt_elf *o, void *arg)
{
	struct statics *st = arg;

	if (tt_elf_is_shim(o) || tt_elf_is_loader(o->name) || tt_elf_is_vdso(o))
		return 0;
	if (st->spec->object && !object_matches(tt_elf_name(o), st->spec->object) &&
	    !(o->name[0] == 0 && object_matches(program_path(), st->spec->object)))
		return 0;
	st->obj = *o;
	tt_symtab_find(o->name[0] ? o->name : "/proc/self/exe", st->spec->name, st->spec->glob,
		       add_static, st);
	return st->failed || st->capped ? 1 : 0;
}

static void describe(const struct tt_func_spec *sp, char *out, size_t n)
{
	snprintf(out, n, "%s%s%s%s%s", sp->object ? sp->object : "", sp->object ? ":" : "",
		 sp->name, sp->version ? "@" : "", sp->version ? sp->version : "");
}

/* Not exported anywhere: static or hidden functions of that name, every one of them. *go
 * counts the Go functions of that name passed over. */
static bool find_statics(const struct tt_func_spec *sp, const char *what, unsigned int *go)
{
	struct statics st = { .spec = sp, .count_only = !tt_inline_enabled() };

	tt_elf_foreach(statics_cb, &st);
	*go = st.go;
	if (st.count_only && st.added) { /* no GOT slot can reach them */
		tt_warn("%s is not exported (%u static or hidden function%s of that name): only "
			"inline hooks can trace it, %s",
			what, st.added, st.added > 1 ? "s" : "",
			tt_inline_got_only() ? "TSC_HOOK=got: not traced"
					     : "unavailable here: not traced");
		return true;
	}
	if (st.failed)
		tt_warn("%s: no memory for another traced function: not all traced", what);
	if (st.added > 1)
		tt_info("%s: %u functions of that name that are not exported, each traced and "
			"reported with its object and offset",
			what, st.added);
	return st.added > 0;
}

struct closest {
	const char *name;
	size_t len, best_d;
	char best[128];
};

static int closest_cb(struct tt_elf *o, void *arg)
{
	struct closest *c = arg;
	size_t i, d;

	if (tt_elf_is_shim(o) || tt_elf_is_loader(o->name) || tt_elf_is_vdso(o))
		return 0;
	for (i = 1; i < o->nsyms; i++) {
		const ElfW(Sym) *s = &o->symtab[i];
		const char *name = tt_elf_sym_name(o, i);

		if (s->st_shndx == SHN_UNDEF || !is_function(s) || !name[0])
			continue;
		d = tt_edit_distance(c->name, c->len, name, strlen(name), c->best_d - 1, false);
		if (d < c->best_d) {
			c->best_d = d;
			snprintf(c->best, sizeof(c->best), "%s", name);
		}
	}
	return 0;
}

/* " (did you mean strlen?)" for strlne: the exported function of the loaded objects within
 * one edit of a short name, two of a longer one; "" when none is. Only when a name is missing. */
static void closest_function(const char *name, char *out, size_t size)
{
	struct closest c = { name, strlen(name), 0, "" };

	c.best_d = (c.len <= 4 ? 1 : 2) + 1;
	tt_elf_foreach(closest_cb, &c);
	if (c.best[0])
		snprintf(out, size, " (did you mean %s?)", c.best);
}

/* Why a plain name is in no loaded object, from the files that would hold it: the named
 * object's, else the program's (a static function of a library is rarely what is meant). */
struct absent {
	const struct tt_func_spec *spec;
	enum tt_symtab_absence why;
	char clone[128];
	char object[128];
};

static int absent_cb(struct tt_elf *o, void *arg)
{
	struct absent *a = arg;
	const char *path = o->name[0] ? o->name : program_path();
	enum tt_symtab_absence why;
	char clone[128] = "";

	if (tt_elf_is_shim(o) || tt_elf_is_loader(o->name) || tt_elf_is_vdso(o))
		return 0;
	if (a->spec->object ? !object_matches(path, a->spec->object) : o->name[0] != 0)
		return 0;
	why = tt_symtab_absence(o->name[0] ? o->name : "/proc/self/exe", a->spec->name, clone,
				sizeof(clone));
	if (why > a->why) {
		a->why = why;
		snprintf(a->clone, sizeof(a->clone), "%s", clone);
		snprintf(a->object, sizeof(a->object), "%.127s", tt_base_name(path));
	}
	return a->why == TT_ABSENT_CLONES;
}

/* The line for a name found nowhere: the likeliest reason first, a later dlopen last. A C++
 * name is not looked for as a symbol (clones, debug names): only a stripped file is said. */
static void say_absent(const struct tt_func_spec *sp, const char *what)
{
	struct absent a = { .spec = sp };
	char hint[160] = "";
	const char *kind = sp->cxx ? "C++ function" : "function";
	/* Under tsctrace run (TSC_RUN_DIR) a wrapper's processes lack the program's functions as
	 * a rule: informational there, and the run's answer names what no process called. */
	void (*say)(const char *, ...) = config && config->run_dir ? tt_info : tt_warn;

	if (!sp->cxx)
		closest_function(sp->name, hint, sizeof(hint));
	if (!sp->version)
		tt_elf_foreach(absent_cb, &a);
	if (sp->cxx && a.why != TT_ABSENT_STRIPPED)
		a.why = TT_ABSENT_UNKNOWN;
	switch (a.why) {
	case TT_ABSENT_CLONES:
		say("no %s %s in the loaded objects%s, only the compiler's copy %s in %s (a "
		    "part or a specialization of it): name that to trace it",
		    kind, what, hint, a.clone, a.object);
		break;
	case TT_ABSENT_INLINED:
		say("no %s %s in the loaded objects%s: %s's debug information names it, but "
		    "no code of that name exists: the compiler inlined it into its callers (a "
		    "static function?); trace a caller, or mark it __attribute__((noinline))",
		    kind, what, hint, a.object);
		break;
	case TT_ABSENT_STRIPPED:
		say("no %s %s in the loaded objects%s: %s is stripped (no .symtab), so only "
		    "its exported functions have names; or a later dlopen brings it",
		    kind, what, hint, a.object);
		break;
	default:
		say("no %s %s in the loaded objects%s: it will be traced if a later dlopen "
		    "brings it",
		    kind, what, hint);
	}
}

static int try_plain(const struct tt_func_spec *sp, const char *what, bool first);

/* ---- C++ names ------------------------------------------------------------------------- */

#define CXX_SHOWN 4 /* overloads named in the line that says what an entry matched */

/* The mangled symbols a C++ name matches, each once, in the order first seen; each string
 * is followed by its demangled form ("_ZN2ns3fooEi\0ns::foo(int)"). */
struct cxx_find {
	const struct tt_func_spec *spec;
	char needle[128]; /* a piece every match holds (tt_cxx_needle), "" when none */
	char **syms;
	size_t n, cap;
	bool capped;
};

/* sym joins c->syms when it demangles to a name c->spec names. */
static void cxx_consider(struct cxx_find *c, const char *sym)
{
	char d[4096];
	size_t len = strlen(sym), full, i;
	char **bigger;

	if (!tt_is_mangled(sym, len) || c->capped || (c->needle[0] && !strstr(sym, c->needle)))
		return;
	full = tt_demangle(sym, len, d, sizeof(d));
	if (!full || full >= sizeof(d) || !tt_cxx_match(c->spec->name, d, c->spec->glob))
		return;
	for (i = 0; i < c->n; i++)
		if (strcmp(c->syms[i], sym) == 0)
			return;
	if (c->n >= GLOB_CAP) {
		c->capped = true;
		return;
	}
	if (c->n == c->cap) {
		bigger = realloc(c->syms, (c->cap ? c->cap * 2 : 8) * sizeof(*bigger));
		if (!bigger)
			return;
		c->syms = bigger;
		c->cap = c->cap ? c->cap * 2 : 8;
	}
	c->syms[c->n] = malloc(len + 1 + full + 1);
	if (!c->syms[c->n])
		return;
	memcpy(c->syms[c->n], sym, len + 1);
	memcpy(c->syms[c->n] + len + 1, d, full + 1);
	c->n++;
}

static bool cxx_object_wanted(const struct cxx_find *c, const struct tt_elf *o)
{
	if (tt_elf_is_shim(o) || tt_elf_is_loader(o->name) || tt_elf_is_vdso(o))
		return false;
	return !c->spec->object || object_matches(tt_elf_name(o), c->spec->object) ||
	       (o->name[0] == 0 && object_matches(program_path(), c->spec->object));
}

/* Exported functions; inside dl_iterate_phdr (demangling is pure: no lock, no dl* call). */
static int cxx_dynsym_cb(struct tt_elf *o, void *arg)
{
	struct cxx_find *c = arg;
	size_t i;

	if (!cxx_object_wanted(c, o))
		return 0;
	for (i = 1; i < o->nsyms; i++) {
		const ElfW(Sym) *s = &o->symtab[i];

		if (s->st_shndx != SHN_UNDEF && is_function(s) &&
		    !(o->versym && (o->versym[i] & 0x8000)))
			cxx_consider(c, tt_elf_sym_name(o, i));
	}
	return 0;
}

static int cxx_symtab_sym(const char *name, uint64_t value, uint64_t size, void *arg)
{
	(void)value;
	(void)size;
	cxx_consider(arg, name);
	return 0;
}

/* Functions not exported (a program's own, not linked with -rdynamic): the files' .symtab. */
static int cxx_symtab_cb(struct tt_elf *o, void *arg)
{
	if (cxx_object_wanted(arg, o))
		tt_symtab_find(o->name[0] ? o->name : "/proc/self/exe", NULL, false, cxx_symtab_sym,
			       arg);
	return 0;
}

/* The symbols c->spec names, on a stack of their own (demangling, base/altstack.h). */
static void cxx_collect(void *arg)
{
	struct cxx_find *c = arg;

	tt_cxx_needle(c->spec->name, c->needle, sizeof(c->needle));
	tt_elf_foreach(cxx_dynsym_cb, c);
	tt_elf_foreach(cxx_symtab_cb, c);
}

/* Entry sp is a C++ name: trace every function it names, each as if named by its symbol.
 * Returns the entry's state: DONE once something matched (overloads a later dlopen brings
 * are not looked for then), PENDING while nothing has. */
static int try_cxx(const struct tt_func_spec *sp, const char *what, bool first)
{
	struct cxx_find c = { .spec = sp };
	char shown[512] = "", one_what[512];
	size_t i, len = 0, traced = 0;

	tt_altstack_run(cxx_collect, &c);
	for (i = 0; i < c.n; i++) {
		struct tt_func_spec one = *sp;
		const char *d = c.syms[i] + strlen(c.syms[i]) + 1;

		one.name = c.syms[i];
		one.glob = one.cxx = false;
		snprintf(one_what, sizeof(one_what), "%s (%s)", d, c.syms[i]);
		if (!tt_funcs_by_name(c.syms[i], NULL) && try_plain(&one, one_what, first) == DONE)
			traced++;
		if (i < CXX_SHOWN && len < sizeof(shown))
			len += (size_t)snprintf(shown + len, sizeof(shown) - len, "%s%s",
						i ? "; " : "", d);
		free(c.syms[i]);
	}
	free(c.syms);
	if (c.capped)
		tt_warn("%s matches more than %u functions: only the first %u are traced", what,
			GLOB_CAP, GLOB_CAP);
	if (c.n > 1 || (c.n && sp->glob))
		tt_info("%s: %zu functions, %zu traced (%s%s)", what, c.n, traced, shown,
			c.n > CXX_SHOWN ? "; ..." : "");
	if (!c.n && first)
		say_absent(sp, what);
	return c.n ? DONE : PENDING;
}

/* Try entry i; `first` says whether this is the start-up pass (which prints more). */
static void try_entry(size_t i, bool first)
{
	const struct tt_func_spec *sp = &config->funcs[i];
	struct find f;
	char what[512];

	memset(&f, 0, sizeof(f));
	f.spec = sp;
	f.name = sp->name;
	describe(sp, what, sizeof(what));
	if (sp->cxx) {
		state[i] = (unsigned char)try_cxx(sp, what, first);
		return;
	}
	if (sp->glob) {
		bool go = false;

		tt_elf_foreach(glob_cb, &f);
		if (!f.glob_capped && tt_inline_enabled()) { /* static functions too */
			struct statics st = { .spec = sp,
					      .cap = GLOB_CAP - f.glob_added,
					      .glob_first = f.glob_first,
					      .glob_first_size = sizeof(f.glob_first),
					      .glob_before = f.glob_added };

			tt_elf_foreach(statics_cb, &st);
			go = st.go > 0;
			if (go)
				tt_go_refused(what);
			f.glob_added += st.added;
			f.glob_capped = st.capped;
		}
		if (f.glob_capped)
			tt_warn("%s matches more than %u functions: only the first %u are traced",
				what, GLOB_CAP, GLOB_CAP);
		/* One line however many matched: names are in the report. */
		if (f.glob_added > GLOB_NAMES_SHOWN)
			tt_info("%s: %u functions (%s and %u more)", what, f.glob_added,
				f.glob_first, f.glob_added - GLOB_NAMES_SHOWN);
		else if (f.glob_added)
			tt_info("%s: %u function%s (%s)", what, f.glob_added,
				f.glob_added > 1 ? "s" : "", f.glob_first);
		/* A glob stays pending: later dlopens may bring more matches. */
		if (first && !f.glob_added && !go)
			tt_warn("%s matches no function in the loaded objects yet", what);
		return;
	}
	state[i] = (unsigned char)try_plain(sp, what, first);
}

/* One function name (not a glob): its new state. */
static int try_plain(const struct tt_func_spec *sp, const char *what, bool first)
{
	struct find f;
	unsigned int go = 0;

	memset(&f, 0, sizeof(f));
	f.spec = sp;
	f.name = sp->name;
	if (tt_untraceable(sp->name)) {
		tt_warn("%s cannot be timed: it %s; not traced", what,
			tt_unbracketable_why(sp->name));
		return REFUSED;
	}
	if (tt_count_only_why(sp->name))
		tt_info("%s cannot be timed: it %s; counted only", what,
			tt_count_only_why(sp->name));
	if (strncmp(sp->name, "tsctrace_", 9) == 0 && shim_exports(sp->name)) {
		tt_warn("%s is part of tsctrace itself: not traced", what);
		return REFUSED;
	}
	if (sp->object && shim_exports(sp->name)) {
		tt_warn("%s: tsctrace wraps %s, name it without an object to trace it", what,
			sp->name);
		return REFUSED;
	}
	tt_elf_foreach(find_cb, &f);
	if (f.have_def && tt_go_refuses(sp->name, (uintptr_t)f.def.addr)) {
		tt_go_refused(what);
		return REFUSED;
	}
	if (f.have_def && f.def.in_shim)
		tt_info("%s is wrapped by tsctrace: its times include the wrapper's own work",
			what);
	if (f.in_loader) {
		tt_warn("%s is inside the dynamic loader: not traced", what);
		return REFUSED;
	} else if (f.not_function) {
		tt_warn("%s is not a function (a variable?): not traced", what);
		return REFUSED;
	} else if (f.have_def) {
		return add_found(&f, false) == 0 ? DONE : REFUSED;
	} else if (!sp->version && find_statics(sp, what, &go)) {
		return tt_inline_enabled() ? DONE : REFUSED;
	} else if (go || tt_go_refuses(sp->name, 0)) {
		tt_go_refused(what); /* a Go name found nowhere too: no dlopen brings Go code */
		return REFUSED;
	} else if (first) {
		say_absent(sp, what);
	}
	return PENDING;
}

void tt_resolve_all(const struct tt_config *cfg)
{
	size_t i;

	config = cfg;
	tt_go_prog(); /* probed here, not inside the dl_iterate_phdr callbacks that ask */
	state = calloc(cfg->nfuncs ? cfg->nfuncs : 1, 1);
	if (!state)
		return;
	for (i = 0; i < cfg->nfuncs; i++)
		try_entry(i, true);
	tt_go_say();
}

unsigned int tt_resolve_pending(void)
{
	uint32_t before = tt_funcs_count();
	size_t i;

	if (!config || !state)
		return 0;
	for (i = 0; i < config->nfuncs; i++) {
		const struct tt_func_spec *sp = &config->funcs[i];

		/* Its function was unloaded (dlclose): look for it again. */
		if (state[i] == DONE && !sp->glob && !sp->cxx && !tt_funcs_by_name(sp->name, NULL))
			state[i] = PENDING;
		if (state[i] == PENDING)
			try_entry(i, false);
	}
	return tt_funcs_count() - before;
}
