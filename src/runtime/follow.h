/*
 * follow.h - TSC_FOLLOW=0: the traced process is traced, the processes it starts are not.
 */
#ifndef TT_FOLLOW_H
#define TT_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>

/* At start-up, with TSC_FOLLOW: remember this process as the traced one and which file the
 * shim was loaded from. */
void tt_follow_start(bool follow);

/* Whether this process writes a report: always with TSC_FOLLOW=1; with 0, not in a fork
 * child (a child, untraced as far as the user can see). */
bool tt_follow_reports_here(void);

/* Whether an exec now starts a child's image (a fork or vfork child's), not a new image of
 * the traced process itself. */
bool tt_follow_in_child(void);

/*
 * The bytes tt_follow_env needs to give a child envp without the shim in LD_PRELOAD, or 0
 * when envp can be passed as it is (TSC_FOLLOW=1, not a child, or the shim not listed).
 */
size_t tt_follow_env_size(char *const envp[], bool child);

/* envp without the shim: a copy in mem (tt_follow_env_size bytes), with each LD_PRELOAD
 * cut of our library and dropped when nothing else is left. envp itself if mem is NULL. */
char **tt_follow_env(char *const envp[], void *mem);

/* Memory for a large environment, where the stack would not do: mapped (never malloc: exec
 * may be called in a vfork child). NULL on failure. */
void *tt_follow_env_map(size_t bytes);

/* Give back what tt_follow_env_map gave, once the environment is no longer needed. Raw
 * system call: errno as the caller's call left it. */
void tt_follow_env_unmap(void *mem, size_t bytes);

#endif /* TT_FOLLOW_H */
