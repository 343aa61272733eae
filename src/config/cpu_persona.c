/*
 * cpu_persona.c - see cpu_persona.h. The presets hold what was measured on this project's
 * machines (docs/clock.md); the hypervisor bit is set in both since both are VMs.
 */
#include <string.h>

#include "config/config_value.h"
#include "config/cpu_persona.h"

struct preset {
	const char *name;
	int8_t rdtscp, invariant, hypervisor;
	uint32_t step;
};

static const struct preset presets[] = {
	{ "host", TT_PERSONA_KEEP, TT_PERSONA_KEEP, TT_PERSONA_KEEP, 0 },
	{ "intel-vm", 1, 1, 1, 0 },
	{ "amd-vm", 0, 1, 1, 21 },
};

static int set_flag(const char *v, size_t len, int8_t *out)
{
	if (len != 1 || (v[0] != '0' && v[0] != '1'))
		return -1;
	*out = (int8_t)(v[0] - '0');
	return 0;
}

static int set_step(const char *v, size_t len, uint32_t *out)
{
	char num[16];
	uint64_t n;

	if (len == 0 || len >= sizeof(num))
		return -1;
	memcpy(num, v, len);
	num[len] = 0;
	if (tt_config_value_u64(num, &n) || n < 1 || n > TT_PERSONA_MAX_STEP)
		return -1;
	*out = n == 1 ? 0 : (uint32_t)n;
	return 0;
}

/* One item, item[0..len): a preset or key=value. */
static int item(struct tt_cpu_persona *p, const char *s, size_t len, const char **why)
{
	const char *eq = memchr(s, '=', len);
	size_t i, klen;

	if (!eq) {
		for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
			if (strlen(presets[i].name) == len && !memcmp(presets[i].name, s, len)) {
				p->rdtscp = presets[i].rdtscp;
				p->invariant = presets[i].invariant;
				p->hypervisor = presets[i].hypervisor;
				p->step = presets[i].step;
				return 0;
			}
		}
		*why = "not a preset: host, intel-vm, amd-vm";
		return -1;
	}
	klen = (size_t)(eq - s);
	eq++;
	len -= klen + 1;
	*why = "flags take 0 or 1";
	if (klen == 6 && !memcmp(s, "rdtscp", 6))
		return set_flag(eq, len, &p->rdtscp);
	if (klen == 9 && !memcmp(s, "invariant", 9))
		return set_flag(eq, len, &p->invariant);
	if (klen == 10 && !memcmp(s, "hypervisor", 10))
		return set_flag(eq, len, &p->hypervisor);
	*why = "step takes 1-4096";
	if (klen == 4 && !memcmp(s, "step", 4))
		return set_step(eq, len, &p->step);
	*why = "keys: rdtscp, invariant, hypervisor, step";
	return -1;
}

int tt_cpu_persona_parse(const char *val, struct tt_cpu_persona *out, const char **why)
{
	struct tt_cpu_persona p = {
		.set = true,
		.rdtscp = TT_PERSONA_KEEP,
		.invariant = TT_PERSONA_KEEP,
		.hypervisor = TT_PERSONA_KEEP,
	};
	const char *s = val;

	*why = NULL;
	if (!*val)
		return -1;
	if (strlen(val) >= sizeof(p.text)) {
		*why = "too long";
		return -1;
	}
	for (;;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);

		if (item(&p, s, len, why) < 0)
			return -1;
		if (!end)
			break;
		s = end + 1;
	}
	memcpy(p.text, val, strlen(val) + 1);
	*out = p;
	return 0;
}

bool tt_cpu_persona_apply(const struct tt_cpu_persona *p, struct tt_cpu_facts *f)
{
	if (!p->set)
		return true;
	if (p->invariant != TT_PERSONA_KEEP)
		f->invariant = p->invariant;
	if (p->hypervisor != TT_PERSONA_KEEP)
		f->hypervisor = p->hypervisor;
	if (p->rdtscp == 0)
		f->rdtscp = false;
	else if (p->rdtscp == 1 && !f->rdtscp)
		return false; /* never announced where CPUID hides it */
	return true;
}
