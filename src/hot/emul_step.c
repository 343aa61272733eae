/*
 * emul_step.c - TSC_CPU step=N on the traced path: every call's two TSC readings rounded down
 * to a multiple of N, as a CPU whose TSC advances in steps of N ticks would have given them
 * (21 on AMD EPYC VMs, 2 on the Intel ones). Exact, not an approximation of the delta: the
 * frame keeps the entry reading, and the exit reading is entry + raw.
 *
 * Hot path (built like traced_call.c: general registers only, no libc), but never in a real
 * measurement: tt_exit_fn points here only when TSC_CPU asks, so the normal path pays nothing.
 */
#include "config/cpu_persona.h"
#include "hot/emul_step.h"
#include "hot/thread.h"
#include "hot/traced_call.h"

static uint32_t step;
static void (*inner)(struct tt_frame *f, uint64_t raw, uint32_t aux);

static void coarse_exit(struct tt_frame *f, uint64_t raw, uint32_t aux)
{
	uint64_t start = f->start_ticks;

	inner(f, tt_cpu_persona_quantize(start + raw, step) - tt_cpu_persona_quantize(start, step),
	      aux);
}

void tt_emul_step_install(uint32_t n)
{
	if (n < 2 || inner)
		return;
	step = n;
	inner = tt_exit_fn;
	tt_exit_fn = coarse_exit;
	tt_exit_path_update();
}
