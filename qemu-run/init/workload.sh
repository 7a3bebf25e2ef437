# The qemu-run guest workload (profile `workload`): BusyBox userspace on the
# kernel's ext4, tmpfs, block, loopback network, process and proc/sys code.
# /init runs it with `/bin/busybox sh /workload.sh` after the built-in KUnit
# suites. It prints one KTAP suite `workload` on /dev/kmsg, a case per step;
# qemu-run's KTAP reader judges it like a KUnit suite: a failing step fails
# the boot, a step that never reports (hang, killed by the per-step timeout,
# or the whole script killed by /init's timeout) leaves the plan short and
# counts as a crash. The disk (/dev/vda) is made by qemu-run with mke2fs -d;
# its seed.txt holds the numbers 1..20000, one a line.

#
# For its own test (lit-tests/qemu-run/workload-ktap.test) the environment
# may give WORKLOAD_STEPS (e.g. the selftest_* steps), WORKLOAD_KTAP (a file
# instead of /dev/kmsg), WORKLOAD_NO_INSTALL=1 and STEP_TIMEOUT; the trinity
# step's test (lit-tests/qemu-run/workload-trinity.test) also WORKLOAD_SCRATCH
# (instead of /scratch), TRINITY (the program) and TRINITY_RUN_AS (its
# prefix, "/init run-as 65534 65534" in the guest); the findings step's
# (lit-tests/qemu-run/workload-findings.test) FINDINGS (the program, "/init
# findings" in the guest) and TMPDIR; the bench_ops step's
# (lit-tests/qemu-run/workload-bench.test) BENCH_RUNS, BENCH_DIR (instead of
# bench/ on the ext4 disk), STRESS_NG (the program) and MEASURE ("/init measure").

STEP_TIMEOUT=${STEP_TIMEOUT:-120}
SEED_LINES=20000
# cmdline_value NAME: the value of qemu_run.NAME=VALUE on the kernel
# command line (qemu-run --append), or nothing.
cmdline_value() {
	[ -r /proc/cmdline ] || return 0
	for w in $(cat /proc/cmdline); do
		case $w in
		qemu_run.$1=*) echo "${w#qemu_run.$1=}" ;;
		esac
	done
}
# The steps: WORKLOAD_STEPS, else the profile's qemu_run.steps=a,b,c on the
# kernel command line (profile stress), else the workload profile's.
STEPS=${WORKLOAD_STEPS:-$(cmdline_value steps | tr , ' ')}
STEPS=${STEPS:-"mount_ext4 mount_tmpfs file_io tar_gzip loopback_up httpd_wget \
nc_stream tcp_seq_wrap ping fork_exec_pipe proc_sys umount"}
D=/disk
T=${WORKLOAD_SCRATCH:-/scratch}

die() {
	echo "$*" >&2
	exit 1
}

# "a == b" for two checksums, else the step fails naming what differs
same_sum() {
	[ "$1" = "$2" ] || die "checksum of $3: got $1, want $2"
}

sum_of() {
	sha256sum "$1" | cut -d' ' -f1
}

step_mount_ext4() {
	mkdir -p $D || die "mkdir $D"
	mount -t ext4 /dev/vda $D || die "mount -t ext4 /dev/vda $D failed"
	grep -q " $D ext4 " /proc/mounts || die "$D is not an ext4 mount in /proc/mounts"
	same_sum "$(sum_of $D/seed.txt)" "$(seq 1 $SEED_LINES | sha256sum | cut -d' ' -f1)" seed.txt
}

step_mount_tmpfs() {
	mkdir -p $T || die "mkdir $T"
	mount -t tmpfs -o size=48m tmpfs $T || die "mount -t tmpfs failed"
	echo hello > $T/hello && [ "$(cat $T/hello)" = hello ] || die "tmpfs write/read"
}

step_file_io() {
	dd if=/dev/urandom of=$T/data bs=64k count=32 2>/dev/null || die "dd of 2 MiB"
	want=$(sum_of $T/data)
	cp $T/data $D/data || die "cp to ext4"
	cp $D/data $D/data.copy || die "cp within ext4"
	mkdir -p $D/dir && mv $D/data.copy $D/dir/moved || die "mkdir/mv on ext4"
	sync || die sync
	# read back from the disk, not from the page cache: remount
	umount $D || die "umount $D"
	mount -t ext4 /dev/vda $D || die "remount $D"
	same_sum "$(sum_of $D/data)" "$want" "$D/data after remount"
	same_sum "$(sum_of $D/dir/moved)" "$want" "$D/dir/moved after remount"
	rm $D/dir/moved && rmdir $D/dir || die "rm/rmdir on ext4"
}

step_tar_gzip() {
	mkdir -p $D/tree/sub || die mkdir
	i=0
	while [ $i -lt 60 ]; do
		seq $i $((i * 37 + 100)) > $D/tree/f$i || die "write f$i"
		[ $((i % 5)) -eq 0 ] && cp $D/tree/f$i $D/tree/sub/g$i
		i=$((i + 1))
	done
	tar -C $D -czf $T/tree.tgz tree || die "tar -czf"
	gzip -t $T/tree.tgz || die "gzip -t"
	mkdir -p $T/unpack && tar -C $T/unpack -xzf $T/tree.tgz || die "tar -xzf"
	a=$(cd $D/tree && find . -type f | sort | xargs sha256sum | sha256sum)
	b=$(cd $T/unpack/tree && find . -type f | sort | xargs sha256sum | sha256sum)
	same_sum "$b" "$a" "the unpacked tree"
	[ "$(find $T/unpack/tree -type f | wc -l)" -eq 72 ] || die "unpacked file count"
}

step_loopback_up() {
	ip link set lo up || die "ip link set lo up"
	ip addr show dev lo | grep -q "inet 127.0.0.1/8" || ip addr add 127.0.0.1/8 dev lo ||
		die "no 127.0.0.1 on lo"
	ip addr show dev lo | grep -q "inet 127.0.0.1/8" || die "lo has no 127.0.0.1/8"
	grep -q "^lo:" /proc/net/dev 2>/dev/null || grep -q "lo:" /proc/net/dev ||
		die "lo missing from /proc/net/dev"
}

# retry: a server started in the background may not listen yet
retry() {
	n=0
	until "$@"; do
		n=$((n + 1))
		[ $n -ge 20 ] && return 1
		sleep 0.2
	done
}

step_httpd_wget() {
	mkdir -p $T/www && cp $T/data $T/www/data || die "www"
	echo '<html>wrapidiom</html>' > $T/www/index.html
	httpd -f -p 127.0.0.1:8080 -h $T/www &
	pid=$!
	retry wget -q -O $T/got http://127.0.0.1:8080/data || { kill $pid; die "wget failed"; }
	page=$(wget -q -O - http://127.0.0.1:8080/)
	kill $pid
	same_sum "$(sum_of $T/got)" "$(sum_of $T/data)" "the fetched file"
	[ "$page" = '<html>wrapidiom</html>' ] || die "index.html: got '$page'"
}

step_nc_stream() {
	# The server's stdin is a FIFO that stays open and empty: at stdin EOF
	# BusyBox nc shuts its sending side, and the client, seeing EOF from the
	# socket, would exit before it has sent everything.
	mkfifo $T/nc.hold || die mkfifo
	nc -l -p 9000 < $T/nc.hold > $T/nc.out &
	pid=$!
	exec 4> $T/nc.hold
	retry nc 127.0.0.1 9000 < $T/data || { kill $pid; die "nc client failed"; }
	wait $pid || die "nc server exit $?"
	exec 4>&-
	same_sum "$(sum_of $T/nc.out)" "$(sum_of $T/data)" "the nc stream"
}

# TCP's sequence numbers are modular and start at random: without this step
# a boot meets their wrap at 2^32 only when a stream happens to start near it
# (about one boot in twenty). /init's tcp-seq-wrap tool (tcp_seq_wrap.c)
# makes every boot cross it, in a handshake and in a restored connection
# (TCP_REPAIR), both directions, checking every byte.
step_tcp_seq_wrap() {
	/init tcp-seq-wrap || die "tcp-seq-wrap failed"
}

# ---- profile findings: the reproducers of the fixes sub-series ----
# `/init findings` (kernel/tests/findings: one case per bug of the fixes
# sub-series, each failing without its fix) prints its own KTAP suite
# "findings". A step's KTAP cannot go to the console while the workload
# suite's block is open, so steps leave theirs in $EXTRA_KTAP.NAME and the
# suite prints them as blocks of their own after its own (the harness
# judges each case; run --expect-fail-without-fixes requires each to fail
# on the kernel without the fixes). The step fails when a case fails.
EXTRA_KTAP=${TMPDIR:-/tmp}/workload-extra.ktap
FINDINGS=${FINDINGS:-/init findings}
step_findings() {
	# shellcheck disable=SC2086
	$FINDINGS > "$EXTRA_KTAP.findings" || die "$? of the findings reproducers failed"
}

# ---- profile stress: Debian's stress-ng and trinity (guest-tools) ----
# Not io-uring: on this kernel its IORING_OP_STATX completions fail with
# ENOENT, which fails stress-ng (kernel/RESULTS.md: to look into).
# A fixed stressor list with a given seed for a fixed time, all at once on
# the guest's CPUs, on the ext4 disk; --metrics-brief prints the bogo-op
# rates (bench/: the runtime cost of the checks). Exit 0 or the step fails.
STRESS_NG_SECONDS=${STRESS_NG_SECONDS:-60}
# The seed of both tools: qemu_run.seed=N (qemu-run --append), default 1.
SEED=$(cmdline_value seed)
SEED=${SEED:-1}
case $SEED in *[!0-9]* | '') echo "workload: qemu_run.seed=$SEED is not a number" >&2; exit 1 ;; esac
STRESSORS="cpu fork pipe vm mmap brk malloc memfd shm sem-sysv msg mq futex epoll \
eventfd signal sigfd timer timerfd hrtimers clock poll sock udp sockpair hdd dentry \
dir link rename open fallocate flock lockf fcntl seek sendfile splice tee vm-splice \
aio inotify getrandom kcmp prctl mlock madvise mincore mremap msync zombie \
affinity"
step_stress_ng() {
	mkdir -p $D/stress || die "mkdir $D/stress"
	# POSIX shared memory (the shm stressor) lives on a tmpfs at /dev/shm
	mkdir -p /dev/shm && { grep -q " /dev/shm " /proc/mounts ||
		mount -t tmpfs -o size=16m tmpfs /dev/shm; } || die "mount /dev/shm"
	args=""
	for s in $STRESSORS; do
		args="$args --$s 1"
	done
	# shellcheck disable=SC2086
	/usr/bin/stress-ng $args --vm-bytes 32M --hdd-bytes 4M --fallocate-bytes 4M --seek-size 1M --seed "$SEED" --timeout "${STRESS_NG_SECONDS}s" \
		--temp-path $D/stress --metrics-brief --oomable ||
		die "stress-ng exit $?"
	rm -rf $D/stress
}

# ---- profile bench: each stressor alone, fixed work (bench/runtime-cost.sh) ----
# STRESSOR:OPS[:OPTION...] (options with = for spaces): stress-ng runs one
# instance of STRESSOR for OPS bogo operations, between the marks of
# `/init measure` (the kinsn TCG plugin counts the kernel-mode instructions
# in between, -icount makes the timer interrupts come per instruction).
# `nop:1` first: stress-ng's own start and exit, the same for every run;
# twice, as the first run after the boot costs more (bench/ takes the last).
# The set is kernel-heavy: system calls, pipes, fork, exec, mmap and page
# faults, files on ext4, futex, signals, timers, TCP and UDP on loopback,
# getrandom (the kernel's ChaCha20 and BLAKE2s, whose additions wrap).
BENCH_RUNS=${BENCH_RUNS:-"nop:1 nop:1 get:2000 pipe:20000 fork:400 fork-exec:50 mmap:30:--mmap-bytes=1M \
fault:4000 open:10000 dentry:5000:--dentries=256 futex:20000 signal:20000 \
timer:5000:--timer-freq=2000 sock:100 udp:10000 getrandom:2000"}
STRESS_NG=${STRESS_NG:-/usr/bin/stress-ng}
MEASURE=${MEASURE-/init measure}
BENCH_DIR=${BENCH_DIR:-$D/bench}
# fork-exec:N is no stress-ng stressor: the shell forks and execs
# `stress-ng --version` N times (a dynamic program: exec, ld.so's mmaps and
# page faults); its ops are N. stress-ng's exec stressor refuses root, and
# as nobody it had not finished 30 operations after 15 minutes under TCG.
step_bench_ops() {
	mkdir -p "$BENCH_DIR" || die "mkdir $BENCH_DIR"
	k=0
	for r in $BENCH_RUNS; do
		s=${r%%:*} rest=${r#*:}
		n=${rest%%:*} opts=
		[ "$rest" != "$n" ] && opts=$(echo "${rest#*:}" | tr ':=' '  ')
		k=$((k + 1))
		echo "bench: interval $k $s ops $n"
		if [ "$s" = fork-exec ]; then
			# shellcheck disable=SC2086
			$MEASURE /bin/sh -c 'i=0; while [ $i -lt "$1" ]; do "$2" --version > /dev/null || exit 1; i=$((i + 1)); done' \
				fork-exec "$n" "$STRESS_NG" || die "fork-exec exit $?"
			continue
		fi
		# shellcheck disable=SC2086
		$MEASURE "$STRESS_NG" --$s 1 --$s-ops "$n" $opts --seed "$SEED" \
			--temp-path "$BENCH_DIR" --metrics-brief > $T/bench.out 2>&1 ||
			{ rc=$?; cat $T/bench.out; die "stress-ng --$s exit $rc"; }
		grep "metrc:" $T/bench.out
	done
	rm -rf "$BENCH_DIR"
}

# trinity as an unprivileged user (it refuses root without --dangerous;
# /init run-as, as BusyBox's setpriv cannot change ids):
# TRINITY_SYSCALLS random system calls from TRINITY_SEED on 2 children, no
# log files; a fixed seed and count make the run reproducible.
TRINITY_SEED=${TRINITY_SEED:-$SEED}
TRINITY_SYSCALLS=${TRINITY_SYSCALLS:-20000}
TRINITY=${TRINITY:-/usr/bin/trinity}
TRINITY_RUN_AS=${TRINITY_RUN_AS-/init run-as 65534 65534}
# Debian's trinity 2023.01 itself now and then dies of SIGSEGV (exit 139)
# while it builds its socket cache ("Couldn't find socket cachefile.
# Regenerating."), before its first random call (x86_64 seed 1 of series
# 1-129, "trinity-main: segfault at 21"; arm64 seed 3 of series 1-150,
# twice in a row with the same seed): a crash of the tool, not a fault of
# the kernel, whose faults are the WARNING, BUG, Oops and UBSan lines the
# harness reads on their own. Such a crash runs trinity once more with the
# same seed and without socket file descriptors (--disable-fds=sockets:
# no cache to build; its random calls still include the socket system
# calls), and a "note:" line says so; a second crash, or any other
# failure, fails the step.
step_trinity() {
	mkdir -p $T/trinity && chmod 0777 $T/trinity || die "mkdir $T/trinity"
	cd $T/trinity || die "cd $T/trinity"
	fds=
	for try in 1 2; do
		rc=0
		# shellcheck disable=SC2086
		$TRINITY_RUN_AS \
			"$TRINITY" -q -l off -C 2 -s "$TRINITY_SEED" -N "$TRINITY_SYSCALLS" $fds ||
			rc=$?
		[ $rc -eq 0 ] && return 0
		[ $rc -eq 139 ] && [ $try -eq 1 ] || die "trinity exit $rc"
		echo "note: trinity crashed (SIGSEGV, exit 139), a bug of the tool: once more with seed $TRINITY_SEED, without socket fds"
		fds=--disable-fds=sockets
	done
}

step_ping() {
	out=$(ping -c 3 -W 5 127.0.0.1) || die "ping failed: $out"
	echo "$out" | grep -q "3 packets transmitted, 3 packets received" ||
		die "ping lost packets: $out"
}

step_fork_exec_pipe() {
	i=0
	while [ $i -lt 200 ]; do
		n=$(echo "x$i" | cat | tr x y | wc -c) || die "pipe $i"
		[ "$n" -eq $((${#i} + 2)) ] || die "pipe $i: wc -c said $n"
		i=$((i + 1))
	done
	[ "$(seq 1 5000 | sort -rn | head -n 1)" = 5000 ] || die "seq|sort|head"
	# 50 children at once, each exec'ing a program, all reaped
	i=0
	while [ $i -lt 50 ]; do
		sh -c "echo $i > $T/child.$i" &
		i=$((i + 1))
	done
	wait
	[ "$(cat $T/child.* | wc -l)" -eq 50 ] || die "50 children"
}

step_proc_sys() {
	for f in /proc/meminfo /proc/cpuinfo /proc/stat /proc/interrupts /proc/self/status \
		/proc/self/maps /proc/mounts /proc/uptime /proc/loadavg /proc/net/dev; do
		cat $f > /dev/null || die "cat $f"
	done
	for f in /proc/[0-9]*/stat /proc/[0-9]*/cmdline; do
		cat $f > /dev/null 2>&1
	done
	grep -q MemTotal /proc/meminfo || die "no MemTotal"
	n=$(find /sys -name uevent -type f | head -n 400 | xargs cat 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] || die "no uevent in /sys"
	[ "$(cat /sys/block/vda/size)" -eq 131072 ] || die "/sys/block/vda/size"
	[ "$(cat /sys/class/net/lo/operstate)" != down ] || die "lo operstate down"
}

step_umount() {
	sync
	umount $D || die "umount $D"
	umount $T || die "umount $T"
	grep -q " $D " /proc/mounts && die "$D still mounted"
	return 0
}

# the harness's own test: a passing, a failing and a hanging step
step_selftest_ok() {
	true
}

step_selftest_fail() {
	die "selftest: this step fails"
}

step_selftest_hang() {
	sleep 1000
}

# ---- one step, run as `sh workload.sh step NAME` under timeout ----
if [ "$1" = step ]; then
	set -u
	"step_$2"
	exit $?
fi

# ---- the suite ----
[ -n "${WORKLOAD_NO_INSTALL:-}" ] || /bin/busybox --install -s /bin || exit 1
exec 3> "${WORKLOAD_KTAP:-/dev/kmsg}" || exit 1
say() {
	echo "$*" >&3
}
n=0
for s in $STEPS; do n=$((n + 1)); done
say "KTAP version 1"
say "1..1"
say "    KTAP version 1"
say "    # Subtest: workload"
say "    1..$n"
i=0
failed=0
STEP_LOG=${TMPDIR:-/tmp}/workload-step.log
for s in $STEPS; do
	i=$((i + 1))
	t=$STEP_TIMEOUT
	case $s in
	stress_ng | trinity | bench_ops) t=$((STEP_TIMEOUT * 5)) ;;
	esac
	timeout -s KILL $t sh "$0" step $s > "$STEP_LOG" 2>&1
	rc=$?
	# stress-ng's --metrics-brief lines, bench_ops's "bench:" lines (bench/)
	# and a step's "note:" lines
	# go into the log either way
	grep -e "metrc:" -e "^note:" -e "^bench:" "$STEP_LOG" 2>/dev/null | while IFS= read -r l; do say "    # $s: $l"; done
	if [ $rc -eq 0 ]; then
		say "    ok $i $s"
	else
		failed=$((failed + 1))
		[ $rc -eq 137 ] && echo "killed after $t s (step timeout)" >> "$STEP_LOG"
		while IFS= read -r l; do say "    # $s: $l"; done < "$STEP_LOG"
		say "    # $s: exit $rc"
		say "    not ok $i $s"
	fi
done
if [ $failed -eq 0 ]; then
	say "ok 1 workload"
else
	say "# workload: $failed of $n steps failed"
	say "not ok 1 workload"
fi
# the KTAP blocks the steps left (step_findings), each a block of its own
for f in "$EXTRA_KTAP".*; do
	[ -f "$f" ] || continue
	while IFS= read -r l; do say "$l"; done < "$f"
	rm -f "$f"
done
exit $failed
