/*
 * func_table.c - the per-function words the hot path reads (func_table.h). Data only: the
 * function table (hook/funcs.c) reserves the chunks.
 */
#include "hot/func_table.h"

struct tt_chunked tt_func_words_table;
uint32_t tt_func_words_used;

_Static_assert(sizeof(struct tt_func_words) == 1u << TT_WORDS_SHIFT, "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_words, target) == TT_WORDS_TARGET,
	       "tramp_layout.h");
_Static_assert(__builtin_offsetof(struct tt_func_words, handler_calls) == TT_WORDS_HANDLER,
	       "tramp_layout.h");
_Static_assert(TT_CHUNK_BITS == TT_WORDS_CHUNK_BITS, "tramp_layout.h");
