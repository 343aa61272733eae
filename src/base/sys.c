/*
 * sys.c - see sys.h: the one address ThreadSanitizer builds order raw mappings by.
 */
#include "base/sys.h"

char tt_sys_tsan_maps;
