/*
 * config_value.c - decimal numbers, CPU lists and signal names in TSC_* values.
 *
 * Pure: reads only the strings it is given, says nothing itself; each function returns a
 * negative errno (and for signals a short reason) that config.c turns into one line. Strict on
 * purpose, like the rest of the parser: no sign, no blank, no hexadecimal.
 */
#include "config/config_value.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct signame {
	const char *name; /* without the SIG prefix */
	int num;
};

/* Names TSC_DUMP_SIGNAL understands; the fatal ones are known so that they can be refused. */
static const struct signame signames[] = {
	{ "USR1", SIGUSR1 },	 { "USR2", SIGUSR2 },	{ "HUP", SIGHUP },   { "TERM", SIGTERM },
	{ "INT", SIGINT },	 { "QUIT", SIGQUIT },	{ "ALRM", SIGALRM }, { "PROF", SIGPROF },
	{ "VTALRM", SIGVTALRM }, { "WINCH", SIGWINCH }, { "CHLD", SIGCHLD }, { "CONT", SIGCONT },
	{ "TSTP", SIGTSTP },	 { "TTIN", SIGTTIN },	{ "TTOU", SIGTTOU }, { "URG", SIGURG },
	{ "XCPU", SIGXCPU },	 { "XFSZ", SIGXFSZ },	{ "IO", SIGIO },     { "PWR", SIGPWR },
	{ "SYS", SIGSYS },	 { "PIPE", SIGPIPE },	{ "KILL", SIGKILL }, { "STOP", SIGSTOP },
	{ "SEGV", SIGSEGV },	 { "BUS", SIGBUS },	{ "ILL", SIGILL },   { "FPE", SIGFPE },
	{ "ABRT", SIGABRT },	 { "TRAP", SIGTRAP },
};

int tt_config_value_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	bool big = false;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			big = true;
		else
			v = v * 10 + d;
	}
	if (big)
		return -ERANGE;
	*out = v;
	return 0;
}

int tt_config_value_ms(const char *s, uint64_t *ms)
{
	size_t n = strlen(s), digits;
	uint64_t v, scale;
	char num[24];
	int err;

	if (n > 2 && !strcmp(s + n - 2, "ms")) {
		digits = n - 2;
		scale = 1;
	} else if (n > 1 && s[n - 1] == 's') {
		digits = n - 1;
		scale = 1000;
	} else {
		return -EINVAL;
	}
	if (digits >= sizeof(num))
		return -ERANGE;
	memcpy(num, s, digits);
	num[digits] = 0;
	err = tt_config_value_u64(num, &v);
	if (err)
		return err;
	if (v > UINT64_MAX / scale)
		return -ERANGE;
	*ms = v * scale;
	return 0;
}

/* One CPU number at *s, advancing *s; values above the limit are kept at the limit. */
static int read_cpu(const char **s, unsigned int *cpu)
{
	const char *c = *s;
	unsigned int v = 0;

	if (*c < '0' || *c > '9')
		return -EINVAL;
	for (; *c >= '0' && *c <= '9'; c++) {
		v = v * 10 + (unsigned int)(*c - '0');
		if (v > TT_CONFIG_MAX_CPUS)
			v = TT_CONFIG_MAX_CPUS;
	}
	*s = c;
	*cpu = v;
	return 0;
}

int tt_config_value_cpus(const char *s, uint64_t cpus[TT_CONFIG_MAX_CPUS / 64])
{
	unsigned int lo, hi, c;

	memset(cpus, 0, TT_CONFIG_MAX_CPUS / 8);
	for (;;) {
		if (read_cpu(&s, &lo))
			return -EINVAL;
		hi = lo;
		if (*s == '-') {
			s++;
			if (read_cpu(&s, &hi))
				return -EINVAL;
		}
		if (lo >= TT_CONFIG_MAX_CPUS || hi >= TT_CONFIG_MAX_CPUS)
			return -ERANGE;
		if (hi < lo)
			return -EDOM;
		for (c = lo; c <= hi; c++)
			cpus[c / 64] |= UINT64_C(1) << (c % 64);
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}

/* s follows "RTMIN" or "RTMAX": nothing, or sign and a count from base. */
static int rt_signal(const char *s, char sign, int base, int *sig, const char **why)
{
	uint64_t n = 0;
	int err;

	if (*s) {
		if (*s != sign)
			return -EINVAL;
		err = tt_config_value_u64(s + 1, &n);
		if (err == -EINVAL)
			return err;
		if (err || n > (uint64_t)(SIGRTMAX - SIGRTMIN)) {
			*why = "beyond the real-time signals";
			return -ERANGE;
		}
	}
	*sig = sign == '+' ? base + (int)n : base - (int)n;
	return 0;
}

int tt_config_value_signal(const char *val, int *sig, const char **why)
{
	const char *s = val;
	uint64_t n;
	size_t i;
	int err;

	*why = NULL;
	if (*s >= '0' && *s <= '9') {
		err = tt_config_value_u64(s, &n);
		if (err == -EINVAL)
			return err;
		if (err || n < 1 || n > 64) {
			*why = "out of range 1-64";
			return -ERANGE;
		}
		*sig = (int)n;
		return 0;
	}
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (i = 0; i < ARRAY_SIZE(signames); i++) {
		if (!strcmp(s, signames[i].name)) {
			*sig = signames[i].num;
			return 0;
		}
	}
	if (!strncmp(s, "RTMIN", 5))
		return rt_signal(s + 5, '+', SIGRTMIN, sig, why);
	if (!strncmp(s, "RTMAX", 5))
		return rt_signal(s + 5, '-', SIGRTMAX, sig, why);
	return -EINVAL;
}

const char *tt_config_value_refusal(int sig)
{
	switch (sig) {
	case SIGKILL:
	case SIGSTOP: return "cannot be caught";
	case SIGSEGV:
	case SIGBUS:
	case SIGILL:
	case SIGFPE:
	case SIGABRT:
	case SIGTRAP: return "reports a crash";
	}
	/* glibc keeps 32 .. SIGRTMIN - 1 for its threads; sigaction refuses them */
	if (sig > 31 && sig < SIGRTMIN)
		return "reserved by the C library";
	return NULL;
}
