/*
 * inline.h - TSC_HOOK=inline/auto: patch a traced function's entry with a jump to its stub,
 * so that every call is traced however it is made (direct, from its own library, through a
 * pointer taken before the shim started). The stub's target becomes a relocated copy of the
 * displaced entry instructions, which jumps back into the function.
 */
#ifndef TT_INLINE_H
#define TT_INLINE_H

#include <stdbool.h>

#include "config/config.h"

/* Choose the mode. The decoder is loaded later, when an inline hook is about to be made
 * (tt_inline_decoder): a process in which no asked-for function is found never loads it. */
void tt_inline_start(enum tt_hook_mode mode);

/* True when functions may be patched inline (auto or inline, and the decoder not refused). */
bool tt_inline_enabled(void);

/* True when a function waits for its inline hook (tt_inline_hook_new has work to do). */
bool tt_inline_pending(void);

/* Load the decoder if it is not yet (one line, and no more inline hooks, when it cannot
 * be). True when it is ready. */
bool tt_inline_decoder(void);

/* True when functions are never patched inline (TSC_HOOK=got). */
bool tt_inline_got_only(void);

/*
 * Decide for every function of the table not decided yet: patch it inline when the mode
 * allows and the patch is safe, else leave it to the GOT (one line saying why). Also gives
 * back the pool slots of functions whose object was unloaded. Callers serialise it with the
 * other changes of the table (the loader lock, dllock.h). Returns how many were patched.
 */
unsigned int tt_inline_hook_new(void);

/*
 * A code write (libc's _exit detour) to go with the next batch's entry jumps: after its stop
 * found the thread alone, it needs no membarrier of its own, and its slot shares the batch's
 * pool page and seal. The slot of `at` must be in the pool, not sealed yet. One at a time.
 */
void tt_inline_defer_write(uint8_t *at, const uint8_t bytes[5], int prot);

/* What became of the deferred write: true with *err (0 or -errno) when a batch wrote it;
 * false when none did (it is dropped: the caller writes it). */
bool tt_inline_deferred_result(int *err);

/* For calibrating the inline path: the pool slot to call (index 0) and the relocated copy
 * of tt_calib_inline it leads to; NULL when no function is hooked inline. */
void *tt_inline_calibration_entry(void);
void *tt_inline_calibration_target(void);

/* A detach (runtime/attach.c): every entry hooked inline or by a trap gets back the bytes its
 * hook replaced, with the other threads stopped; slots stay. Rehook writes the hooks again (a
 * second attach). How many entries were written, or -1 with why (nothing written). */
int tt_inline_unhook_all(char *why, size_t why_size);
int tt_inline_rehook_all(char *why, size_t why_size);

#endif /* TT_INLINE_H */
