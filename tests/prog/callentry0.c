/*
 * callentry0.c - t_callentry's functions built at -O0 -fno-plt: each is `push %rbp;
 * mov %rsp,%rbp; call ...`, a call at +4 that the inline patch displaces.
 *   ce0_leaf   calls libceprobe.so's ce_probe through its GOT slot (call *[rip+disp32])
 *   ce0_outer  calls ce0_leaf (call rel32)
 */
void ce_probe(void);

unsigned long ce0_total;

void ce0_leaf(void)
{
	ce_probe();
	ce0_total += 3;
}

void ce0_outer(void)
{
	ce0_leaf();
	ce0_total += 1;
}
