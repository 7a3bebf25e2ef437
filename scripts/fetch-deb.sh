#!/bin/sh
# Unpack a Debian package of another architecture under a directory of the
# build, where installing it would replace the host's own package: Debian's
# busybox-static:arm64 for the arm64 guest (it has no Multi-Arch field, so it
# cannot be installed beside busybox-static:amd64).
#
# Usage: scripts/fetch-deb.sh PACKAGE:ARCH DESTDIR [FILE]
#   Downloads PACKAGE:ARCH with apt-get download (the architecture must be
#   known to dpkg: scripts/deps.sh arm64 adds arm64), checks it with dpkg-deb,
#   and unpacks it into DESTDIR, replaced as a whole only once complete.
#   FILE (a path inside the package) must be there afterwards.
#   Idempotent: DESTDIR/.deb-version records what is unpacked; a second run
#   with the same candidate version downloads nothing.
set -eu

[ $# -ge 2 ] || { echo "usage: $0 PACKAGE:ARCH DESTDIR [FILE]" >&2; exit 2; }
pkg=$1 dest=$2 want=${3:-}
case $pkg in
*:*) ;;
*) echo "fetch-deb.sh: '$pkg' names no architecture (PACKAGE:ARCH)" >&2; exit 2 ;;
esac
arch=${pkg#*:}
if ! dpkg --print-architecture | grep -qx "$arch" &&
   ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
	echo "fetch-deb.sh: dpkg does not know the architecture $arch (scripts/deps.sh $arch adds it)" >&2
	exit 1
fi
ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
	echo "fetch-deb.sh: apt knows no $pkg (apt-get update after scripts/deps.sh $arch?)" >&2
	exit 1
fi
if [ -f "$dest/.deb-version" ] && [ "$(cat "$dest/.deb-version")" = "$pkg $ver" ] &&
   { [ -z "$want" ] || [ -e "$dest/$want" ]; }; then
	echo "fetch-deb: $pkg $ver already in $dest"
	exit 0
fi

parent=$(dirname "$dest")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.fetch-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt-get download writes into the current directory; as root, apt's
# sandbox user cannot write there, which is only a warning.
(cd "$tmp" && apt-get download -q "$pkg=$ver" 2>&1 | grep -v 'unsandboxed' >&2 || true)
deb=$(ls "$tmp"/*.deb 2>/dev/null | head -n 1)
if [ -z "$deb" ]; then
	echo "fetch-deb.sh: apt-get download $pkg=$ver produced no .deb" >&2
	exit 1
fi
dpkg-deb --info "$deb" >/dev/null
mkdir "$tmp/root"
dpkg-deb -x "$deb" "$tmp/root"
if [ -n "$want" ] && [ ! -e "$tmp/root/$want" ]; then
	echo "fetch-deb.sh: $deb has no $want" >&2
	exit 1
fi
echo "$pkg $ver" > "$tmp/root/.deb-version"
rm -rf "$dest"
mv "$tmp/root" "$dest"
echo "fetch-deb: $pkg $ver unpacked in $dest"
