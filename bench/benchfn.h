/*
 * benchfn.h - the tiny functions the benchmarks call, exported from libbenchfn.so so that
 * every call goes through the caller's PLT, as a call into any library does.
 */
#ifndef BENCHFN_H
#define BENCHFN_H

/* Returns x + 1: about one cycle of work, so a per-call cost is almost all call and timing. */
int bench_fn(int x);

/* Never called by any benchmark: bench/untraced names it in TSC_FUNCS. */
int bench_never_called(int x);

#endif /* BENCHFN_H */
