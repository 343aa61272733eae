/*
 * tsc_step.h - the TSC's step (its granularity) from differences between consecutive
 * serialized reads (pure: unit-tested with the differences each CPU family gives, tests/unit).
 *
 * The step is not always whole: on AMD EPYC VMs the TSC is updated at 100 MHz by (TSC rate /
 * 100 MHz) ticks, 21 on one host and 24.5 (24 and 25 in turn) on another. The gcd of the
 * differences finds a whole step (21, Intel's 2, TSC_CPU's emulated one) but gives 1 for
 * 24.5: the differences there are 49, 73 or 74, 98, 122 or 123 ... So when the gcd is 1 the
 * differences are grouped in runs of adjacent values, and the step is the spacing of the runs'
 * centres. A TSC that really ticks by 1 gives runs of three or more adjacent values: step 1.
 */
#ifndef TT_TSC_STEP_H
#define TT_TSC_STEP_H

#include <stddef.h>
#include <stdint.h>

/* Differences from this up count in the gcd only (interrupts; no step is that coarse). */
#define TT_TSC_STEP_LIMIT 2048

/*
 * The step, in whole ticks (a fractional one rounded up: every reading is within it of the
 * time it stands for), from n differences d (zeros ignored). `seen` is a gcd of differences
 * observed elsewhere, or 0. A difference seen only once (an interrupt, an odd outlier) does
 * not make a run. 1 when the differences do not show a coarser step. Uses 4 KiB of stack.
 */
uint64_t tt_tsc_step(const uint64_t *d, size_t n, uint64_t seen);

#endif /* TT_TSC_STEP_H */
