/*
 * unbracketable.h - functions no trampoline can time (pure).
 */
#ifndef TT_UNBRACKETABLE_H
#define TT_UNBRACKETABLE_H

/*
 * Why a function of this name cannot be bracketed, or NULL when it can. A bracket needs a
 * call that returns once, to the address it was called from, on the stack it was called
 * with: setjmp and its kin return twice (the second time into a trampoline frame long gone),
 * the context switchers return on another stack, clone returns in a child that shares the
 * memory, and entry points such as _start have no return address at all. Functions that never
 * return (exit, longjmp) are fine: their calls are counted as unwound.
 */
const char *tt_unbracketable_why(const char *name);

/*
 * Why a function of this name is counted only (every call counted, none timed: the
 * trampoline passes each one over without a frame, hot/thread.h TT_COUNT_ONLY_SKIP), or NULL.
 * Those that return twice or on another stack: a call passed over leaves their stack and
 * return address as the caller made them. Entry points are not among them: no call reaches
 * them through a trampoline.
 */
const char *tt_count_only_why(const char *name);

/* Not traced at all: unbracketable and not counted only (the entry points). */
static inline int tt_untraceable(const char *name)
{
	return tt_unbracketable_why(name) && !tt_count_only_why(name);
}

#endif /* TT_UNBRACKETABLE_H */
