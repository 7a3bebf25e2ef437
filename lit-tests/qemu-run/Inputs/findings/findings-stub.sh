#!/bin/sh
# A stand-in for `/init findings`: the KTAP suite findings with two cases,
# the second failing when FINDINGS_STUB_FAIL is set (then exit 1, as the
# program exits with the number of failed cases).
echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: findings"
echo "    1..2"
echo "    # shmem_punch_hole: pages refaulted: 0"
echo "    ok 1 shmem_punch_hole"
if [ -n "$FINDINGS_STUB_FAIL" ]; then
	echo "    # mlock_len_wrap: mlock(p, SIZE_MAX) = 0"
	echo "    not ok 2 mlock_len_wrap"
	echo "not ok 1 findings"
	exit 1
fi
echo "    ok 2 mlock_len_wrap"
echo "ok 1 findings"
