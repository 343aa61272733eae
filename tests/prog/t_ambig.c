/*
 * t_ambig.c - three functions named step, all static: one in ambig_a.c (300 calls), one in
 * ambig_b.c (700 calls), both linked into this program, and one in libdirect.so (111 calls).
 * Prints one line per function, `step <object> <offset> <calls>` (offset: its address minus
 * the object's load base), which run.sh compares with the report's entries.
 */
#include "tp.h"

unsigned ambig_a(unsigned n, unsigned long *offset);
unsigned ambig_b(unsigned n, unsigned long *offset);
unsigned direct_steps(unsigned n, unsigned long *offset);

int main(void)
{
	unsigned long oa, ob, ol;
	unsigned sa, sb, sl;

	sa = ambig_a(300, &oa);
	sb = ambig_b(700, &ob);
	sl = direct_steps(111, &ol);
	printf("step t_ambig 0x%lx 300\n", oa);
	printf("step t_ambig 0x%lx 700\n", ob);
	printf("step libdirect.so 0x%lx 111\n", ol);
	printf("sums %u %u %u\n", sa, sb, sl);
	return 0;
}
