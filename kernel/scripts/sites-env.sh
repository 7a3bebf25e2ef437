# Sourced by the kernel/scripts/*-sites.sh and wrapv-pointer-identity.sh
# scripts: the environment every one of them takes, with its defaults from
# the checkout and the build directory (never a path of one machine):
# BUILD (build), PLUGIN ($BUILD/llvm-pass/WrapIdiom.so), KBUILD_LOCK
# ($BUILD/.kbuild.lock, as qemu-run's; users sharing a machine export one),
# LLVM (-22), JOBS ($SITES_JOBS, else nproc), and QR (the harness). Set
# SITES_NAME (for messages) before sourcing; die() then names the script.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$root/build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
PLUGIN=${PLUGIN:-$BUILD/llvm-pass/WrapIdiom.so}
KBUILD_LOCK=${KBUILD_LOCK:-$BUILD/.kbuild.lock}
LLVM=${LLVM:--22}
JOBS=${JOBS:-${SITES_JOBS:-$(nproc)}}
QR=$BUILD/qemu-run/qemu-run

die() { echo "$SITES_NAME: $*" >&2; exit 2; }
