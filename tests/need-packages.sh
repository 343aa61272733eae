#!/bin/sh
# need-packages.sh PKG... - make sure the Debian packages a make target needs are installed.
# As root: installs the missing ones with apt-get. Otherwise: prints the exact apt-get line
# and fails, so `make` stops before a confusing compiler error.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "tsctrace: installing missing Debian packages:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get install -y -q --no-install-recommends $missing ||
	  { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; }; } >&2 &&
		exit 0
	echo "tsctrace: apt-get could not install:$missing" >&2
	exit 1
fi
echo "tsctrace: missing Debian packages; run:" >&2
echo "    sudo apt-get install$missing" >&2
exit 1
