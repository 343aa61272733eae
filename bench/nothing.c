/*
 * nothing.c - libnothing.so, a preloaded library whose constructor does nothing: what loading
 * any LD_PRELOAD tool costs a process (the loader maps and relocates it), the floor under the
 * shim's start-up rows (startup.sh).
 */
__attribute__((constructor)) static void nothing(void)
{
}
