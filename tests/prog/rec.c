/*
 * rec.c - librec.so: functions that recurse through their own exported, interposable names.
 * Built -fPIC with default semantic interposition; noipa stops GCC 12 from inlining the
 * recursion into itself and calling a local alias, so each self call goes through the PLT
 * (run.sh checks the disassembly); -fno-optimize-sibling-calls keeps the calls real calls.
 * Every invocation bumps a counter the program reports.
 */
unsigned long rec_fib_count, rec_depth_count;

int rec_fib(int n);
long rec_depth(long n);

__attribute__((noipa)) int rec_fib(int n)
{
	rec_fib_count++;
	if (n < 2)
		return n;
	return rec_fib(n - 1) + rec_fib(n - 2);
}

__attribute__((noipa)) long rec_depth(long n)
{
	rec_depth_count++;
	if (n <= 0)
		return 0;
	return rec_depth(n - 1) + (n & 7);
}
