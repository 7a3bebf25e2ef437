#!/bin/sh
# Build the runtime cases with a given compiler command line, run them and
# print the tabulated verdict (tabulate.sh) on stdout: one line for each
# case of cases.h, in its order.
#
#   run-cases.sh OUTDIR CC [FLAGS...]
#
# CC FLAGS must include the -fsanitize= flags (and the plugin, if any); they
# are used for compiling and linking. int.c is built with -fwrapv so that
# signed wrap is defined (mem.c, families.c, peer.c, recheck.c and bounds.c likewise), ptr.c without it so that clang emits pointer
# checks at all.
set -eu
out=$1
shift
here=$(dirname "$0")
mkdir -p "$out"
"$@" -Wno-unused-command-line-argument -fwrapv -c "$here/int.c" -o "$out/int.o"
"$@" -Wno-unused-command-line-argument -fwrapv -c "$here/mem.c" -o "$out/mem.o"
"$@" -Wno-unused-command-line-argument -fwrapv -c "$here/families.c" -o "$out/families.o"
"$@" -Wno-unused-command-line-argument -fwrapv -Wno-tautological-compare -c "$here/peer.c" -o "$out/peer.o"
"$@" -Wno-unused-command-line-argument -fwrapv -c "$here/recheck.c" -o "$out/recheck.o"
"$@" -Wno-unused-command-line-argument -fwrapv -c "$here/bounds.c" -o "$out/bounds.o"
"$@" -Wno-unused-command-line-argument -Wno-tautological-compare -c "$here/ptr.c" -o "$out/ptr.o"
"$@" -Wno-unused-command-line-argument -c "$here/main.c" -o "$out/main.o"
"$@" -Wno-unused-command-line-argument "$out/int.o" "$out/mem.o" "$out/families.o" "$out/peer.o" "$out/recheck.o" "$out/bounds.o" "$out/ptr.o" "$out/main.o" -o "$out/cases"
"$out/cases" --list >"$out/cases.txt"
"$out/cases" 2>"$out/stderr.txt" >/dev/null || true
"$here/tabulate.sh" "$out/cases.txt" "$out/stderr.txt"
