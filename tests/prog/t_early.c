/*
 * t_early.c - calls early_fn (libearly.so) through pointers taken before the shim could
 * patch any GOT slot, and directly through the PLT:
 *   1000 calls through the pointer libearly.so's own constructor captured,
 *   2000 through the one a .preinit_array entry of this program captured (it runs before
 *        every constructor, the shim's included),
 *   3000 through the one this program's constructor captured,
 *    500 direct calls (early_fn@plt).
 * Prints whether all the captured pointers, dlsym(RTLD_DEFAULT, "early_fn") and &early_fn
 * are one address ("identity ok"): an inline hook changes no pointer.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <dlfcn.h>

int early_fn(int x);
int (*early_lib_captured(void))(int);

/* volatile: the compiler must call through what was captured, never &early_fn itself. */
static int (*volatile pre_ptr)(int);
static int (*volatile ctor_ptr)(int);

static void pre_capture(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	pre_ptr = &early_fn;
}

__attribute__((section(".preinit_array"), used)) static void (*pre)(int, char **,
								    char **) = pre_capture;

__attribute__((constructor)) static void ctor_capture(void)
{
	ctor_ptr = &early_fn;
}

static void fold_int(uint64_t *h, int v)
{
	tp_fold(h, &v, sizeof(v));
}

int main(void)
{
	int (*lib_ptr)(int) = early_lib_captured();
	int (*via_pre)(int) = pre_ptr, (*via_ctor)(int) = ctor_ptr, (*own)(int) = &early_fn;
	void *sym = dlsym(RTLD_DEFAULT, "early_fn");
	uint64_t h = TP_FNV_INIT;
	int i;

	if (!lib_ptr || !via_pre || !via_ctor) {
		printf("a pointer was not captured: library %p, preinit %p, constructor %p\n",
		       (void *)lib_ptr, (void *)via_pre, (void *)via_ctor);
		return 1;
	}
	for (i = 0; i < 1000; i++)
		fold_int(&h, lib_ptr(i));
	for (i = 0; i < 2000; i++)
		fold_int(&h, via_pre(i + 7));
	for (i = 0; i < 3000; i++)
		fold_int(&h, via_ctor(i * 3));
	for (i = 0; i < 500; i++)
		fold_int(&h, early_fn(-i));
	printf("checksum %016" PRIx64 "\n", h);
	printf("identity %s\n", (void *)lib_ptr == sym && (void *)via_pre == sym &&
						(void *)via_ctor == sym && (void *)own == sym
					? "ok"
					: "broken");
	tp_expect(stdout, "early_fn", 6500);
	return 0;
}
