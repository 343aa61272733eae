/*
 * tsc_step.c - see tsc_step.h.
 */
#include "config/tsc_step.h"

/* A run: adjacent difference values (each seen at least twice), their weighted centre. */
struct run {
	uint64_t first, last;
	double centre;
};

#define MAX_RUNS 64

/* Nearest whole number of a non-negative x (the shim links no libm). */
static double nearest(double x)
{
	return (double)(uint64_t)(x + 0.5);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The runs of values seen at least twice among counts[0..LIMIT); -1 when there are more
 * than max. */
static int find_runs(const uint16_t *counts, struct run *runs, int max)
{
	double sum = 0, weight = 0;
	int nruns = 0;
	uint64_t v;

	for (v = 1; v < TT_TSC_STEP_LIMIT; v++) {
		if (counts[v] < 2)
			continue;
		if (nruns && v == runs[nruns - 1].last + 1) {
			runs[nruns - 1].last = v;
		} else {
			if (nruns)
				runs[nruns - 1].centre = sum / weight;
			if (nruns == max)
				return -1;
			runs[nruns].first = runs[nruns].last = v;
			nruns++;
			sum = weight = 0;
		}
		sum += (double)v * counts[v];
		weight += counts[v];
	}
	if (nruns)
		runs[nruns - 1].centre = sum / weight;
	return nruns;
}

/* The spacing of the runs' centres, or 0 when they do not sit on an even grid. */
static double grid_spacing(const struct run *runs, int nruns)
{
	double span = runs[nruns - 1].centre - runs[0].centre, gap = span, step;
	int i;

	for (i = 1; i < nruns; i++)
		if (runs[i].centre - runs[i - 1].centre < gap)
			gap = runs[i].centre - runs[i - 1].centre;
	/* The smallest gap may be a step and a half-tick of rounding: the whole span, over the
	 * number of steps it holds, is the finer figure. */
	step = span / nearest(span / gap);
	/* A run centre is within half a tick of its multiple of the step (a fractional step's
	 * readings are rounded); allow a tick. */
	for (i = 1; i < nruns; i++) {
		double k = nearest((runs[i].centre - runs[0].centre) / step);
		double off = runs[i].centre - runs[0].centre - k * step;

		if (off > 1.0 || off < -1.0)
			return 0;
	}
	return step;
}

uint64_t tt_tsc_step(const uint64_t *d, size_t n, uint64_t seen)
{
	uint16_t counts[TT_TSC_STEP_LIMIT] = { 0 };
	struct run runs[MAX_RUNS];
	uint64_t g = seen;
	double step;
	int nruns, i;
	size_t k;

	for (k = 0; k < n; k++)
		g = gcd(g, d[k]);
	if (g != 1)
		return g ? g : 1;
	for (k = 0; k < n; k++)
		if (d[k] < TT_TSC_STEP_LIMIT && counts[d[k]] < UINT16_MAX)
			counts[d[k]]++;
	nruns = find_runs(counts, runs, MAX_RUNS);
	if (nruns < 2)
		return 1;
	/* Three adjacent values seen: the TSC moves by 1 (or by less than 2). */
	for (i = 0; i < nruns; i++)
		if (runs[i].last - runs[i].first >= 2)
			return 1;
	step = grid_spacing(runs, nruns);
	if (step < 2)
		return 1;
	/* Rounded up: 24.5 is 25; a whole step measured a hair over (21.03) stays 21. */
	return (uint64_t)(step - 0.1) + 1;
}
