# shell_loop.sh - sourced by startup.sh and loop_ab.sh: the shell loop both time, one
# definition so that a paired figure of loop_ab.sh is of the bench's own loop. `sh -c "$LOOP"`
# runs 50 x { /bin/true; printf x | cat; }: 100 programs exec'd, and the shell's forks.
# shellcheck shell=sh disable=SC2034,SC2016
LOOP='i=0; while [ $i -lt 50 ]; do /bin/true; printf x | cat >/dev/null; i=$((i + 1)); done'
