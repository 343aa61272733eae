/*
 * exec_target.h - whether an exec is certain to fail for want of its file, so that no report
 * is written before it (exec_target.c).
 */
#ifndef TT_EXEC_TARGET_H
#define TT_EXEC_TARGET_H

#include <stdbool.h>

/*
 * True when the exec of `file` must fail with ENOENT or ENOTDIR: no file at that path, or, with
 * search (execvp's family) and no '/' in file, at none of $PATH's entries (glibc's
 * "/bin:/usr/bin" when PATH is unset). A shell looking for a command tries every entry of
 * PATH in turn: those attempts end no process image. False whenever the exec may succeed
 * (a file is there, whatever its permissions or format): then the report is written.
 * Raw system calls and the stack only: an exec may run in a vfork child.
 */
bool tt_exec_target_missing(const char *file, bool search);

#endif /* TT_EXEC_TARGET_H */
