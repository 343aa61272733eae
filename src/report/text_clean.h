/*
 * text_clean.h - printing a program's strings in the text report (text_clean.c).
 */
#ifndef TT_TEXT_CLEAN_H
#define TT_TEXT_CLEAN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

/* Print s for a terminal and return the columns it takes; with out NULL only measure. With
 * quote, a ' is written as '\'' (inside a shell-quoted argument). */
size_t tt_text_put_clean(struct tt_buf *out, const char *s, bool quote);

#endif /* TT_TEXT_CLEAN_H */
