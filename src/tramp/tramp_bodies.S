/*
 * tramp_bodies.S - the bodies the shim runs, laid out: tramp_body.S's macros, as defined
 * there. The bench's ladder lays out the same macros with parts taken out in a file of its
 * own (bench/ladder/tramp_ladder.S); nothing of that is here.
 */
#include "tramp/tramp_body.S"

	.text
	BODIES
	UNTIMED_RETURN

	.section .note.GNU-stack, "", @progbits
