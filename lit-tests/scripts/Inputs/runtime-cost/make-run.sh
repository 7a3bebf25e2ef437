#!/bin/sh
# runtime-cost.test: make-run.sh T KERNEL TREE VMLINUX GET-INSTRUCTIONS -
# a built tree (its vmlinux and prepare stamp) under T/b and the log of one
# bench round of it under T/work/logs/KERNEL/r1: nop twice (1000 kernel
# instructions each), then get: 100 bogo ops in GET-INSTRUCTIONS.
set -eu
t=$1 k=$2 tree=$t/b/$3 vmlinux=$4 get=$5
mkdir -p "$tree" "$t/work/logs/$k/r1"
cp "$vmlinux" "$tree/vmlinux"
echo "stamp 0123456789abcdef" > "$tree/.qemu-run-prepared"
log=$t/work/logs/$k/r1/20261207-000000-bench-plugin.log
cat > "$log" <<EOL
[   17.5] KTAP version 1
[   17.5]     # bench_ops: bench: interval 1 nop ops 1
[   17.5]     # bench_ops: bench: interval 2 nop ops 1
[   17.5]     # bench_ops: bench: interval 3 get ops 100
[   17.5]     # bench_ops: stress-ng: metrc: [114] get                 100      0.23      0.02      0.21      8612.89        8789.47
EOL
printf 'kinsn: interval 1 kernel 1200 user 5\nkinsn: interval 2 kernel 1000 user 5\nkinsn: interval 3 kernel %s user 5\n' "$get" > "$log.insns"
echo "boot_seconds=1.0" > "$log.meta"
ln -s "$(basename "$log")" "$t/work/logs/$k/r1/latest-bench-plugin.log"
