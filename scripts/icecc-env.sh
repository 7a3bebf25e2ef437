#!/bin/sh
# scripts/icecc-env.sh [-o DIR] [--clang CLANG] PLUGIN [IGNORELIST...]
#
# Build an icecream compiler environment for builds with the wrap-idiom
# plugin: icecc-create-env --clang CLANG (default /usr/bin/clang-22) with
# --addfile for the plugin and every ignorelist, at the absolute paths the
# compile command names (-fpass-plugin=PLUGIN, -mllvm
# -wrap-idiom-ignorelist=LIST). icecc-create-env strips executables it adds,
# the plugin included; the plugin is put back unstripped, so that the
# environment holds byte-identical copies (scripts/dist-check.sh compares
# them by sha1).
#
# The tarball is DIR/wrap-idiom-<md5>.tar.gz (default DIR: build/icecc), its
# name from its content: a changed plugin or list gives a new name, and
# iceccd, which caches environments by name, can never compile with an old
# copy. DIR/icecc-version holds the path for ICECC_VERSION.
set -eu

out=
clang=/usr/bin/clang-22
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	--clang) clang=$2; shift 2 ;;
	-h|--help) sed -n '2,17p' "$0"; exit 0 ;;
	-*) echo "icecc-env: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-o DIR] [--clang CLANG] PLUGIN [IGNORELIST...]" >&2; exit 2; }
command -v icecc-create-env >/dev/null || {
	echo "icecc-env: icecc-create-env not found (apt-get install icecc; scripts/deps.sh dist)" >&2; exit 2; }
[ -x "$clang" ] || { echo "icecc-env: $clang: no such compiler" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
out=${out:-$root/build/icecc}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The paths as the compile command names them: absolute, not resolved.
files=
for f in "$@"; do
	case $f in /*) ;; *) f=$(pwd)/$f ;; esac
	[ -f "$f" ] && [ -r "$f" ] || { echo "icecc-env: $f: not a readable file" >&2; exit 2; }
	case $f in *' '*) echo "icecc-env: $f: a path with a space cannot go into the environment" >&2; exit 2 ;; esac
	files="$files $f"
done

tmp=$(mktemp -d "$out/.env.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
addfiles=
for f in $files; do addfiles="$addfiles --addfile $f"; done
# shellcheck disable=SC2086
(cd "$tmp" && icecc-create-env --clang "$clang" $addfiles) > "$tmp/create-env.log" 2>&1 || {
	cat "$tmp/create-env.log" >&2; echo "icecc-env: icecc-create-env failed" >&2; exit 1; }
made=$(sed -n 's/^creating \(.*\.tar\.gz\)$/\1/p' "$tmp/create-env.log")
[ -n "$made" ] && [ -f "$tmp/$made" ] || {
	cat "$tmp/create-env.log" >&2; echo "icecc-env: no tarball from icecc-create-env" >&2; exit 1; }

# Unpack, put the unstripped copies back, repack with fixed owners, order
# and times, so the same inputs give the same tarball and the same name.
mkdir "$tmp/root"
tar -xzf "$tmp/$made" -C "$tmp/root"
for f in $files; do
	[ -f "$tmp/root$f" ] || { echo "icecc-env: $f is not in the environment" >&2; exit 1; }
	cp "$f" "$tmp/root$f"
done
(cd "$tmp/root" && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - .) |
	gzip -n > "$tmp/env.tar.gz"
sum=$(md5sum < "$tmp/env.tar.gz" | cut -d' ' -f1)
env=$out/wrap-idiom-$sum.tar.gz
mv "$tmp/env.tar.gz" "$env"
echo "$env" > "$out/icecc-version"
echo "icecc-env: $env ($(echo $files | wc -w) file(s) added)"
echo "ICECC_VERSION=$env"
