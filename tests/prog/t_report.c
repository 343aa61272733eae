/*
 * t_report.c SIDE-FILE - calls of very different cost, for the report invariants: work_spin
 * (slow), work_add and work_empty (fast), work_never (traced, never called). Writes its pid to
 * SIDE-FILE; stdout is deterministic.
 */
#include "tp.h"

#include <unistd.h>

uint64_t work_spin(unsigned n);
long work_add(long a, long b);
void work_empty(void);
int work_never(int x);

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	uint64_t h = TP_FNV_INIT;
	long sum = 0;
	int i;

	fprintf(side, "pid %ld\n", (long)getpid());
	fclose(side);
	for (i = 0; i < 2000; i++) {
		uint64_t r = work_spin(200 + i % 50);

		tp_fold(&h, &r, sizeof(r));
	}
	for (i = 0; i < 5000; i++)
		sum += work_add(i, i);
	for (i = 0; i < 3000; i++)
		work_empty();
	printf("spin %016" PRIx64 " add %ld\n", h, sum);
	tp_expect(stdout, "work_spin", 2000);
	tp_expect(stdout, "work_add", 5000);
	tp_expect(stdout, "work_empty", 3000);
	tp_expect(stdout, "work_never", 0);
	return 0;
}
