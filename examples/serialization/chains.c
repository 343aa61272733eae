/*
 * chains.c - libchains.so, the callees of the serialization example: functions whose work is
 * a chain of dependent multiplications (each imul waits for the previous one's result, about
 * 3 core cycles apiece on current x86 cores), and one that does nothing.
 *
 *	empty_fn	returns its argument
 *	chain_64	64 dependent imuls	chain_256	256	chain_1024	1024
 *
 * Each also exists as plain_<name>, the same code under another name, which the example never
 * traces: the program times those itself (many calls back to back, TSC read only around the
 * whole loop) for the true cost, in the same process and at the same moments as the traced
 * calls. Built with -fno-ipa-icf, so that GCC does not fold the twins into one function (one
 * address would make them one entry for the shim).
 *
 * The chain is written with the assembler's .rept so that the compiler cannot shorten it.
 * Exported and noinline: every call from the program goes through its PLT, the path the shim
 * hooks.
 */
#define EXPORT __attribute__((visibility("default"), noinline))
#define IMULS(x, n) __asm__ volatile(".rept " #n "\n\timulq %0, %0\n\t.endr" : "+r"(x))

/* Defines NAME and plain_NAME with the same body. */
#define TWINS(name, body)                 \
	EXPORT long name(long x);         \
	EXPORT long plain_##name(long x); \
	EXPORT long name(long x)          \
	{                                 \
		body;                     \
		return x;                 \
	}                                 \
	EXPORT long plain_##name(long x)  \
	{                                 \
		body;                     \
		return x;                 \
	}

TWINS(empty_fn, (void)0)
TWINS(chain_64, IMULS(x, 64))
TWINS(chain_256, IMULS(x, 256))
TWINS(chain_1024, IMULS(x, 1024))
