#!/bin/sh
# Stage Debian's dynamically linked programs for a qemu-run guest: the
# program, the shared libraries it needs (by its ELF NEEDED entries,
# recursively) and the dynamic loader, in a directory tree that qemu-run
# copies into the initramfs (profile line `guest-tools`).
#
# Usage: scripts/guest-tools.sh ARCH DEST TOOL...
#   ARCH   x86_64 or arm64 (Debian's amd64 and arm64)
#   DEST   the staging directory, replaced as a whole only once complete
#   TOOL   a Debian package that installs /usr/bin/TOOL (stress-ng, trinity)
#
# The packages come from Debian's archive with apt-get download (the
# package and the closure of its Depends, for ARCH; arm64 must be known to
# dpkg: scripts/deps.sh arm64), never from the host's installed files, so
# both architectures are staged the same way. Only what the programs load
# is kept. Idempotent: DEST/.guest-tools records the package versions; a
# second run with the same candidates downloads nothing. A library that no
# package of the closure provides is an error naming the program and the
# soname.
set -eu

[ $# -ge 3 ] || { echo "usage: $0 x86_64|arm64 DEST TOOL..." >&2; exit 2; }
arch=$1 dest=$2
shift 2
case $arch in
x86_64) deb=amd64 triplet=x86_64-linux-gnu loader=lib64/ld-linux-x86-64.so.2 ;;
arm64) deb=arm64 triplet=aarch64-linux-gnu loader=lib/ld-linux-aarch64.so.1 ;;
*) echo "guest-tools.sh: unknown architecture '$arch' (x86_64, arm64)" >&2; exit 2 ;;
esac
if ! dpkg --print-architecture | grep -qx "$deb" &&
   ! dpkg --print-foreign-architectures | grep -qx "$deb"; then
	echo "guest-tools.sh: dpkg does not know the architecture $deb (scripts/deps.sh arm64 adds it)" >&2
	exit 1
fi
command -v readelf >/dev/null || { echo "guest-tools.sh: readelf (binutils) is missing" >&2; exit 1; }

# The closure of the tools' Depends, as name:arch (architecture-independent
# packages, which apt lists without one, as they are).
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances $(for t in "$@"; do echo "$t:$deb"; done) 2>/dev/null |
	grep -v '^ ' | grep -v '^<' | sort -u)
[ -n "$closure" ] || { echo "guest-tools.sh: apt knows none of: $* for $deb (apt-get update?)" >&2; exit 1; }
versions=$(for p in $closure; do
	v=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
	[ -n "$v" ] && [ "$v" != "(none)" ] || { echo "guest-tools.sh: apt has no candidate for $p" >&2; exit 1; }
	echo "$p=$v"
done)
stamp=$(printf '%s\n' "tools: $*" $versions)
if [ -f "$dest/.guest-tools" ] && [ "$(cat "$dest/.guest-tools")" = "$stamp" ]; then
	echo "guest-tools: $* ($arch) already staged in $dest"
	exit 0
fi

parent=$(dirname "$dest")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.guest-tools.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/debs" "$tmp/all" "$tmp/root"
# apt-get download writes into the current directory; as root, apt's
# sandbox user cannot write there, which is only a warning.
# shellcheck disable=SC2086
(cd "$tmp/debs" && apt-get download -q $versions 2>&1 | grep -v 'unsandboxed' >&2 || true)
for p in $closure; do
	f=$(ls "$tmp/debs/${p%%:*}_"*.deb 2>/dev/null | head -n 1)
	[ -n "$f" ] || { echo "guest-tools.sh: apt-get download $p produced no .deb" >&2; exit 1; }
	dpkg-deb -x "$f" "$tmp/all"
done

# Copies a file of the unpacked packages (a path relative to $tmp/all) into
# the root. Symlinks are followed inside the packages, never into the host:
# an absolute target (lib64/ld-linux-x86-64.so.2 -> /lib/...) is taken
# relative to the unpacked tree.
stage() {
	rel=$1 cur=$1 n=0
	while [ -L "$tmp/all/$cur" ]; do
		n=$((n + 1))
		[ $n -le 16 ] || return 1
		t=$(readlink "$tmp/all/$cur")
		case $t in
		/*) cur=${t#/} ;;
		*) cur=$(dirname "$cur")/$t ;;
		esac
	done
	[ -f "$tmp/all/$cur" ] || return 1
	mkdir -p "$tmp/root/$(dirname "$rel")"
	cp "$tmp/all/$cur" "$tmp/root/$rel"
}

# The directories the loader searches on Debian (multiarch first).
libdirs="lib/$triplet usr/lib/$triplet lib usr/lib"
find_lib() {
	for d in $libdirs; do
		if [ -e "$tmp/all/$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}

: > "$tmp/queue"
for t in "$@"; do
	stage "usr/bin/$t" || { echo "guest-tools.sh: package $t has no usr/bin/$t" >&2; exit 1; }
	echo "usr/bin/$t $t" >> "$tmp/queue"
done
stage "$loader" || { echo "guest-tools.sh: no dynamic loader $loader in libc6:$deb" >&2; exit 1; }
: > "$tmp/done"
while [ -s "$tmp/queue" ]; do
	read -r obj who < "$tmp/queue"
	sed -i 1d "$tmp/queue"
	grep -qx "$obj" "$tmp/done" && continue
	echo "$obj" >> "$tmp/done"
	for so in $(readelf -d "$tmp/root/$obj" 2>/dev/null |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		lib=$(find_lib "$so") || {
			echo "guest-tools.sh: $who needs $so, which no package of its Depends closure ($arch) provides" >&2
			exit 1
		}
		if [ ! -e "$tmp/root/$lib" ]; then
			stage "$lib" || { echo "guest-tools.sh: cannot copy $lib" >&2; exit 1; }
		fi
		echo "$lib $who" >> "$tmp/queue"
	done
done

echo "$stamp" > "$tmp/root/.guest-tools"
rm -rf "$dest"
mv "$tmp/root" "$dest"
echo "guest-tools: staged $* ($arch) in $dest: $(find "$dest" -type f ! -name .guest-tools | wc -l) files, $(du -sk "$dest" | cut -f1) KiB"
