#!/bin/sh
# scripts/distcc-install.sh PREFIX PLUGIN [IGNORELIST...]
#
# Install the wrap-idiom plugin and its ignorelists for a distcc server:
# copy each file to PREFIX/<its absolute path>, so that the server finds it
# at the path the compile command names (-fpass-plugin=PLUGIN, -mllvm
# -wrap-idiom-ignorelist=LIST; distcc sends the command line as it is).
# PREFIX is / on the server itself (run it there), or the root of a copy
# that is synced to it. Files are written to a temporary name and renamed,
# so a compile on the server never sees half a plugin. Afterwards
# PREFIX/<dir of PLUGIN>/wrap-idiom.sha1 lists the sha1 of every file
# installed (for people; scripts/dist-check.sh distcc checks the copies the
# server really uses, by compiling a probe there).
set -eu

[ $# -ge 2 ] || { echo "usage: $0 PREFIX PLUGIN [IGNORELIST...]" >&2; exit 2; }
prefix=$1
shift
[ -d "$prefix" ] || { echo "distcc-install: $prefix: no such directory" >&2; exit 2; }
prefix=$(cd "$prefix" && pwd)
[ "$prefix" = / ] && prefix=

sums=
for f in "$@"; do
	case $f in /*) ;; *) f=$(pwd)/$f ;; esac
	[ -f "$f" ] && [ -r "$f" ] || { echo "distcc-install: $f: not a readable file" >&2; exit 2; }
	dst=$prefix$f
	if [ "$dst" = "$f" ]; then
		echo "distcc-install: $f: already at its path"
	else
		mkdir -p "$(dirname "$dst")"
		cp "$f" "$dst.tmp.$$"
		chmod a+r "$dst.tmp.$$"
		mv -f "$dst.tmp.$$" "$dst"
		echo "distcc-install: $f -> $dst"
	fi
	sums="$sums$(sha1sum < "$dst" | cut -d' ' -f1)  $f
"
done
plugin=$1
case $plugin in /*) ;; *) plugin=$(pwd)/$plugin ;; esac
printf '%s' "$sums" > "$prefix$(dirname "$plugin")/wrap-idiom.sha1"
