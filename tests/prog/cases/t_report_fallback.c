/*
 * t_report_fallback.c MODE - where a daemon's report goes.
 *   nobody  as root, become user and group `nobody` (as nginx's workers do), then make 100
 *           traced calls and exit: the report's directory is root's, so it cannot go there,
 *           and stderr is /dev/null (run.sh starts it so).
 *   umask   umask(0) (nginx sets it), 100 traced calls, exit: the report is created then.
 * Untraced it prints its counts and exits 0; 2 when it cannot become nobody.
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tp.h"

long work_add(long a, long b);

static int become_nobody(void)
{
	struct passwd *pw = getpwnam("nobody");

	if (!pw || setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	long i, sum = 0;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "nobody") && become_nobody() != 0) {
		perror("becoming nobody");
		return 2;
	}
	if (!strcmp(argv[1], "umask"))
		umask(0);
	for (i = 0; i < 100; i++)
		sum = work_add(sum, i);
	printf("sum %ld\n", sum);
	tp_expect(stdout, "work_add", 100);
	return 0;
}
