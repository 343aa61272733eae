/*
 * callers_merge.h - TSC_CALLERS sites of exited threads, and forgetting sites after fork.
 */
#ifndef TT_CALLERS_MERGE_H
#define TT_CALLERS_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "hot/callers.h"

/* A site of exited threads: site.stat holds the merged counters. */
struct tt_merged_site {
	struct tt_site site;
	struct tt_merged_site *next;
};

/* An exiting thread (under tt_thread_lock): merge its sites into the totals, free them. */
void tt_callers_merge_thread(struct tt_thread *t);

/* In a fork child: forget every site, including the forking thread's. */
void tt_callers_after_fork_child(struct tt_thread *self);

/* The merged sites of function func (under tt_thread_lock). */
const struct tt_merged_site *tt_callers_merged(uint32_t func);

/* Same key and same path. */
bool tt_callers_same_site(const struct tt_site *a, const struct tt_site *b);

/* fn(site, ctx) for every site in use in a thread's table of one function. */
void tt_callers_each_site(struct tt_site_table *tab, void (*fn)(const struct tt_site *s, void *ctx),
			  void *ctx);

#endif /* TT_CALLERS_MERGE_H */
