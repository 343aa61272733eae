/*
 * emul_step.h - TSC_CPU step=N on the traced path (see emul_step.c).
 */
#ifndef TT_EMUL_STEP_H
#define TT_EMUL_STEP_H

#include <stdint.h>

/* Round both readings of every traced call to multiples of n ticks from now on (n >= 2;
 * once, after the exit path is chosen: TSC_CALLERS sets it first). Start-up only. */
void tt_emul_step_install(uint32_t n);

#endif /* TT_EMUL_STEP_H */
