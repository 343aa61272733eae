/*
 * test_attach_why.c - `tsctrace attach`'s pure part (src/cli/attach_why.c): /proc/PID/status
 * and maps read, and the refusal chosen for each case that can be told before ptrace is
 * tried: Yama's scope 1, 2 and 3 (3 cannot be staged on a test machine: it lasts until
 * reboot), another tracer, another user, seccomp, a zombie, ourselves.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli/attach_why.h"

static const char status_text[] = "Name:\tt_attach\n"
				  "State:\tS (sleeping)\n"
				  "Tgid:\t4242\n"
				  "PPid:\t100\n"
				  "TracerPid:\t0\n"
				  "Uid:\t1000\t1000\t1000\t1000\n"
				  "Gid:\t1000\t1000\t1000\t1000\n"
				  "Seccomp:\t0\n"
				  "Seccomp_filters:\t0\n";

static struct tt_attacher me(long scope)
{
	struct tt_attacher a = { .uid = 1000,
				 .cap_ptrace = false,
				 .is_ancestor = false,
				 .scope = scope,
				 .seccomp_ok = false,
				 .self_pid = 7 };
	return a;
}

static struct tt_proc_status plain(void)
{
	struct tt_proc_status st;

	tt_attach_parse_status(status_text, &st);
	return st;
}

static void test_status_parsed(void **state)
{
	struct tt_proc_status st = plain();

	(void)state;
	assert_int_equal(st.tracer_pid, 0);
	assert_int_equal(st.ruid, 1000);
	assert_int_equal(st.euid, 1000);
	assert_int_equal(st.seccomp, 0);
	assert_int_equal(st.state, 'S');
	/* Seccomp_filters must not be read as Seccomp, nor a field missing as 0. */
	tt_attach_parse_status("Seccomp_filters:\t3\n", &st);
	assert_int_equal(st.seccomp, -1);
	assert_int_equal(st.tracer_pid, -1);
}

static void test_nothing_in_the_way(void **state)
{
	struct tt_proc_status st = plain();
	struct tt_attacher a = me(0);
	char why[512] = "";

	(void)state;
	assert_false(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	a.scope = -1; /* no Yama at all */
	assert_false(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	a.scope = 1; /* restricted: an ancestor may */
	a.is_ancestor = true;
	assert_false(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	a.scope = 2; /* admin-only: root may */
	a.cap_ptrace = true;
	assert_false(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
}

static void test_yama(void **state)
{
	struct tt_proc_status st = plain();
	struct tt_attacher a = me(3);
	char why[512];

	(void)state;
	a.cap_ptrace = true; /* 3 forbids even root */
	assert_true(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "ptrace_scope is 3"));
	assert_non_null(strstr(why, "until the machine reboots"));
	a = me(2);
	assert_true(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "ptrace_scope is 2 (admin-only)"));
	assert_non_null(strstr(why, "sudo sysctl kernel.yama.ptrace_scope=1"));
	a = me(1);
	assert_true(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "ptrace_scope is 1 (restricted)"));
	assert_non_null(strstr(why, "sudo sysctl kernel.yama.ptrace_scope=0"));
}

static void test_tracer_user_seccomp(void **state)
{
	struct tt_proc_status st = plain();
	struct tt_attacher a = me(0);
	char why[512];

	(void)state;
	st.tracer_pid = 99;
	assert_true(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "already traced by process 99"));
	st = plain();
	st.euid = st.ruid = 0;
	assert_true(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	assert_string_equal(why, "process 4242 belongs to user 0, tsctrace runs as user 1000: "
				 "attach as that user, or as root (CAP_SYS_PTRACE)");
	a.cap_ptrace = true; /* root attaches to anyone's */
	assert_false(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	st = plain();
	a = me(0);
	st.seccomp = 1;
	assert_true(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "strict seccomp"));
	st.seccomp = 2;
	assert_true(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "--allow-seccomp"));
	a.seccomp_ok = true;
	assert_false(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	st = plain();
	st.state = 'Z';
	assert_true(tt_attach_refusal(4242, &st, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "zombie"));
	st = plain();
	assert_true(tt_attach_refusal(7, &st, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "tsctrace itself"));
}

static const char maps_text[] =
	"55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 123 /usr/bin/t attach\n"
	"7f0000000000-7f0000001000 rw-p 00000000 00:00 0 \n"
	"7f1000000000-7f1000026000 r--p 00000000 08:01 456 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"7f1000026000-7f100017b000 r-xp 00026000 08:01 456 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"7f2000000000-7f2000010000 r--p 00000000 08:01 789 /opt/x/libcrypt.so.1\n"
	"7f3000000000-7f3000010000 r--p 00000000 08:01 790 /work/build/libtsctrace.so\n"
	"7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]";

static void test_maps(void **state)
{
	char path[256];
	uintptr_t start = 0;
	struct tt_map m;

	(void)state;
	assert_true(tt_attach_parse_map_line(maps_text, &m));
	assert_int_equal(m.start, 0x55d0c0a00000);
	assert_int_equal(m.path_len, strlen("/usr/bin/t attach")); /* a space in the name */
	assert_true(tt_attach_find_object(maps_text, "libc.so", true, &start, path, sizeof(path)));
	assert_int_equal(start, 0x7f1000000000);
	assert_string_equal(path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	/* libcrypt is not libc; nor is an exact name a prefix match without the flag. */
	assert_false(
		tt_attach_find_object(maps_text, "libcrypt", false, &start, path, sizeof(path)));
	assert_true(tt_attach_find_object(maps_text, "libcrypt.so.1", false, &start, path,
					  sizeof(path)));
	assert_false(tt_attach_find_object("7f0-7f1 r--p 00000000 08:01 1 /lib/libc-musl.so\n",
					   "libc", false, &start, path, sizeof(path)));
	assert_true(tt_attach_find_path(maps_text, "/work/build/libtsctrace.so", &start));
	assert_int_equal(start, 0x7f3000000000);
	assert_false(tt_attach_find_path(maps_text, "/work/build/libtsctrace", &start));
	assert_false(tt_attach_find_object("", "libc.so", true, &start, path, sizeof(path)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_parsed), cmocka_unit_test(test_nothing_in_the_way),
		cmocka_unit_test(test_yama),	      cmocka_unit_test(test_tracer_user_seccomp),
		cmocka_unit_test(test_maps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
