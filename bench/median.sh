# median.sh - sourced by the bench scripts: one meaning of "median" for every figure.
# median FILE: the middle of FILE's numbers, one per line (the lower of the two middle ones
# for an even count: a value that was measured, never an average of two).
median() {
	sort -g "$1" | sed -n "$((($(wc -l <"$1") + 1) / 2))p"
}
