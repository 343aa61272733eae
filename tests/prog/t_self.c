/*
 * t_self.c - self time (libnest.so): nest_parent (20,000 ticks of its own, then nest_child,
 * 10,000) called 300 times; nest_rec(3) 100 times (four nested calls of 2,000 ticks each);
 * nest_ljparent 40 times, whose call of nest_jumper is left by longjmp. stdout: the expected
 * counts. The thread pins itself to the CPU it starts on, as the shim does.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <sched.h>

void nest_child(void);
void nest_parent(void);
void nest_rec(int n);
void nest_ljparent(void);

int main(void)
{
	cpu_set_t one;
	int i;

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);
	for (i = 0; i < 300; i++)
		nest_parent();
	for (i = 0; i < 100; i++)
		nest_rec(3);
	for (i = 0; i < 40; i++)
		nest_ljparent();
	tp_expect(stdout, "nest_parent", 300);
	tp_expect(stdout, "nest_child", 300 + 40);
	tp_expect(stdout, "nest_rec", 400);
	tp_expect(stdout, "nest_ljparent", 40);
	tp_expect(stdout, "nest_jumper", 40);
	tp_expect_unwound(stdout, "nest_jumper", 40);
	return 0;
}
