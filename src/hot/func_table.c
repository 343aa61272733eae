/*
 * func_table.c - the per-function words the hot path reads (func_table.h). Data only.
 */
#include "hot/func_table.h"

void *tt_func_target[TT_MAX_FUNCS];
uint64_t tt_func_first[TT_MAX_FUNCS];
uint64_t tt_func_handler_calls[TT_MAX_FUNCS];
