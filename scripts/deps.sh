#!/bin/sh
# Install the Debian 12 packages wrapidiom needs, only those that are missing.
# Idempotent: a second run installs nothing and prints nothing but the summary.
#
# Usage: scripts/deps.sh [group...]   groups: plugin llvm19 kernel arm64 fuzz bench dist (default: all)
set -eu

pkgs_plugin="cmake make g++ python3 clang-22 llvm-22-dev llvm-22-tools lld-22 libclang-rt-22-dev"
pkgs_llvm19="clang-19 llvm-19-dev llvm-19-tools lld-19 libclang-rt-19-dev"
pkgs_kernel="linux-source-6.12 qemu-system-x86 bc bison flex libelf-dev libssl-dev cpio xz-utils \
kmod coccinelle patch quilt perl libc6-dev busybox-static e2fsprogs"
# arm64 guests: QEMU's aarch64 system emulator and Debian's cross compiler and
# libc for the static /init. The kernel itself needs no cross binutils
# (make ARCH=arm64 LLVM=-22). busybox-static:arm64 cannot be installed beside
# the amd64 one: `make busybox-arm64` unpacks it under the build directory
# (scripts/fetch-deb.sh), for which dpkg must know the arm64 architecture.
pkgs_arm64="qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
pkgs_fuzz="csmith libcsmith-dev"
pkgs_bench="valgrind tcl"
# ccache, icecream, distcc (scripts/check-distributed.sh, which starts its own
# daemons, on loopback only).
pkgs_dist="ccache icecc distcc distcc-pump binutils iproute2 util-linux"

groups=${*:-"plugin llvm19 kernel arm64 fuzz bench dist"}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
index_updated=""
want=""
for g in $groups; do
	case $g in
	plugin) want="$want $pkgs_plugin" ;;
	llvm19) want="$want $pkgs_llvm19" ;;
	kernel) want="$want $pkgs_kernel" ;;
	arm64)
		want="$want $pkgs_arm64"
		if ! dpkg --print-foreign-architectures | grep -qx arm64; then
			echo "deps: adding the arm64 architecture to dpkg (for busybox-static:arm64)"
			$SUDO dpkg --add-architecture arm64
			$SUDO apt-get update -q
			index_updated=1
		fi ;;
	fuzz) want="$want $pkgs_fuzz" ;;
	bench) want="$want $pkgs_bench" ;;
	dist) want="$want $pkgs_dist" ;;
	*) echo "deps.sh: unknown group '$g' (plugin llvm19 kernel arm64 fuzz bench dist)" >&2; exit 2 ;;
	esac
done

missing=""
for p in $want; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done

if [ -z "$missing" ]; then
	echo "deps: all packages present ($groups)"
	exit 0
fi

echo "deps: installing:$missing"
# Update the index only when a package is not known yet (fresh machine).
if [ -z "$index_updated" ] && ! apt-cache show $missing >/dev/null 2>&1; then
	$SUDO apt-get update -q
fi
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
# icecc's package starts iceccd on every interface where services may start
# (distcc's does not): stop it, the project runs its own on loopback only.
case " $missing " in
*" icecc "*)
	if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet iceccd 2>/dev/null; then
		echo "deps: stopping and disabling the iceccd service the icecc package started"
		$SUDO systemctl disable --now iceccd
	fi ;;
esac
