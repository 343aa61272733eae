#!/bin/sh
# peers.sh PKG... - install the Debian packages of the peer tools that bench/run.sh compares
# tsctrace with, when they are missing. As root: apt-get, one package at a time, so that one
# unavailable package does not stop the others. Otherwise: print the apt-get line to run.
# Never fails: run.sh says which peers it skipped and why.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "bench: peer tools missing, their rows will be skipped; to compare with them run:"
	echo "    sudo apt-get install$missing"
	exit 0
fi
echo "bench: installing the peer tools' Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
updated=0
for p in $missing; do
	apt-get install -y -q --no-install-recommends "$p" >/dev/null 2>&1 && continue
	if [ "$updated" = 0 ]; then
		apt-get update -q >/dev/null 2>&1
		updated=1
		apt-get install -y -q --no-install-recommends "$p" >/dev/null 2>&1 && continue
	fi
	echo "bench: apt-get could not install $p: its row will be skipped"
done
exit 0
