/*
 * test_clock_choice.c - the clock and TSC-read choice (src/config/clock_choice.c) and TSC_CPU
 * personas (src/config/cpu_persona.c), with the CPUID facts of both CPU families this project runs on
 * (Intel Xeon VMs: rdtscp announced; AMD EPYC VMs: rdtscp hidden though it runs), whichever
 * machine runs the tests: never an instruction CPUID does not announce, even asked for.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "config/clock_choice.h"
#include "config/config.h"
#include "config/cpu_persona.h"
#include "hot/tramp_layout.h"

static const struct tt_clock_facts intel_vm = { true, { true, true, true } };
static const struct tt_clock_facts amd_vm = { true, { false, true, true } };

static int nlines, nwarn;
static char last[256];

static void say(void *ctx, bool warn, const char *line)
{
	(void)ctx;
	nlines++;
	nwarn += warn;
	snprintf(last, sizeof(last), "%s", line);
}

static int decide(const struct tt_clock_facts *f, enum tt_serialize ser, bool ser_set,
		  enum tt_clock_choice clk)
{
	struct tt_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.serialize = ser;
	cfg.serialize_set = ser_set;
	cfg.clock = clk;
	nlines = nwarn = 0;
	last[0] = 0;
	return tt_clock_decide(f, &cfg, say, NULL);
}

static void test_default_intel(void **state)
{
	(void)state;
	assert_int_equal(decide(&intel_vm, TT_SER_RDTSCP, false, TT_CLK_AUTO), TT_VAR_RDTSCP);
	assert_int_equal(nlines, 0);
}

static void test_default_amd(void **state)
{
	(void)state;
	assert_int_equal(decide(&amd_vm, TT_SER_RDTSCP, false, TT_CLK_AUTO), TT_VAR_LFENCE);
	assert_int_equal(nlines, 1);
	assert_int_equal(nwarn, 0);
	assert_non_null(strstr(last, "not announced"));
}

static void test_explicit_rdtscp_amd(void **state)
{
	(void)state;
	/* Asked for where CPUID hides it: lfence and a warning, never the instruction. */
	assert_int_equal(decide(&amd_vm, TT_SER_RDTSCP, true, TT_CLK_AUTO), TT_VAR_LFENCE);
	assert_int_equal(nwarn, 1);
	assert_non_null(strstr(last, "does not announce rdtscp"));
}

static void test_cpuid_modes(void **state)
{
	(void)state;
	assert_int_equal(decide(&intel_vm, TT_SER_CPUID, true, TT_CLK_AUTO), TT_VAR_CPUID);
	assert_int_equal(nwarn, 1); /* under a hypervisor */
	assert_non_null(strstr(last, "hypervisor"));
	assert_int_equal(decide(&amd_vm, TT_SER_CPUID, true, TT_CLK_AUTO), TT_VAR_CPUID_NORDTSCP);
}

static void test_other_modes(void **state)
{
	(void)state;
	assert_int_equal(decide(&amd_vm, TT_SER_LFENCE, true, TT_CLK_AUTO), TT_VAR_LFENCE);
	assert_int_equal(decide(&amd_vm, TT_SER_MFENCE, true, TT_CLK_AUTO), TT_VAR_MFENCE);
	assert_int_equal(decide(&intel_vm, TT_SER_NONE, true, TT_CLK_AUTO), TT_VAR_NONE);
	assert_int_equal(nlines, 0);
}

static void test_fallbacks(void **state)
{
	struct tt_clock_facts f = amd_vm;

	(void)state;
	f.readable = false;
	assert_int_equal(decide(&f, TT_SER_RDTSCP, false, TT_CLK_AUTO), TT_VAR_MONO);
	assert_int_equal(nwarn, 1);
	assert_int_equal(decide(&f, TT_SER_RDTSCP, false, TT_CLK_TSC), TT_VAR_MONO);
	assert_non_null(strstr(last, "TSC_CLOCK=tsc"));
	f = intel_vm;
	f.cpu.invariant = false;
	assert_int_equal(decide(&f, TT_SER_RDTSCP, false, TT_CLK_AUTO), TT_VAR_MONO);
	assert_non_null(strstr(last, "not invariant"));
	assert_int_equal(decide(&f, TT_SER_RDTSCP, false, TT_CLK_TSC), TT_VAR_RDTSCP);
	assert_int_equal(nwarn, 1);
	assert_int_equal(decide(&intel_vm, TT_SER_NONE, true, TT_CLK_MONOTONIC), TT_VAR_MONO);
}

static void test_persona_parse(void **state)
{
	struct tt_cpu_persona p;
	const char *why;

	(void)state;
	assert_int_equal(tt_cpu_persona_parse("amd-vm", &p, &why), 0);
	assert_true(p.set);
	assert_int_equal(p.rdtscp, 0);
	assert_int_equal(p.step, 21);
	assert_int_equal(p.hypervisor, 1);
	assert_string_equal(p.text, "amd-vm");
	assert_int_equal(tt_cpu_persona_parse("intel-vm", &p, &why), 0);
	assert_int_equal(p.rdtscp, 1);
	assert_int_equal(p.step, 0);
	assert_int_equal(tt_cpu_persona_parse("amd-vm,invariant=0,step=1", &p, &why), 0);
	assert_int_equal(p.invariant, 0);
	assert_int_equal(p.step, 0);
	assert_int_equal(p.rdtscp, 0);
	assert_int_equal(tt_cpu_persona_parse("host", &p, &why), 0);
	assert_int_equal(p.rdtscp, TT_PERSONA_KEEP);
	assert_int_equal(tt_cpu_persona_parse("step=38,hypervisor=0", &p, &why), 0);
	assert_int_equal(p.step, 38);
	assert_int_equal(p.hypervisor, 0);
}

static void test_persona_parse_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"zen",
		"amd-vm,",
		",amd-vm",
		"rdtscp=2",
		"rdtscp=",
		"step=0",
		"step=4097",
		"step=-3",
		"step=99999999999999999999",
		"invariant=yes",
		"speed=1",
		"amd-vm,amd-vm,amd-vm,amd-vm,amd-vm,amd-vm,amd-vm,amd-vm,amd-vm,amd-vm",
	};
	struct tt_cpu_persona p = { .step = 7 };
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(tt_cpu_persona_parse(bad[i], &p, &why), -1);
		assert_int_equal(p.step, 7); /* untouched */
		if (*bad[i])
			assert_non_null(why);
	}
}

static void test_persona_apply(void **state)
{
	struct tt_cpu_facts f = intel_vm.cpu;
	struct tt_cpu_persona p;
	const char *why;

	(void)state;
	assert_int_equal(tt_cpu_persona_parse("amd-vm,invariant=0", &p, &why), 0);
	assert_true(tt_cpu_persona_apply(&p, &f));
	assert_false(f.rdtscp);
	assert_false(f.invariant);
	/* Announcing what CPUID hides: never; the caller is told. */
	f = amd_vm.cpu;
	assert_int_equal(tt_cpu_persona_parse("intel-vm", &p, &why), 0);
	assert_false(tt_cpu_persona_apply(&p, &f));
	assert_false(f.rdtscp);
	assert_true(f.invariant);
	/* Unset: nothing changes. */
	memset(&p, 0, sizeof(p));
	f = amd_vm.cpu;
	assert_true(tt_cpu_persona_apply(&p, &f));
	assert_false(f.rdtscp);
}

static void test_quantize(void **state)
{
	(void)state;
	assert_int_equal(tt_cpu_persona_quantize(1000, 21), 987);
	assert_int_equal(tt_cpu_persona_quantize(1008, 21), 1008);
	assert_int_equal(tt_cpu_persona_quantize(1000, 0), 1000);
	/* A call's two rounded readings differ by a multiple of the step. */
	assert_int_equal((tt_cpu_persona_quantize(1040, 21) - tt_cpu_persona_quantize(1000, 21)) %
				 21,
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_intel),
		cmocka_unit_test(test_default_amd),
		cmocka_unit_test(test_explicit_rdtscp_amd),
		cmocka_unit_test(test_cpuid_modes),
		cmocka_unit_test(test_other_modes),
		cmocka_unit_test(test_fallbacks),
		cmocka_unit_test(test_persona_parse),
		cmocka_unit_test(test_persona_parse_bad),
		cmocka_unit_test(test_persona_apply),
		cmocka_unit_test(test_quantize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
