# Part of scripts/check-distributed.sh (sourced there): icecream.
# shellcheck shell=bash
# wait_log FILE PATTERN: until PATTERN is in FILE (15 s at most)
wait_log() {
	local k
	for k in $(seq 1 30); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.5
	done
	return 1
}
if ! "$here/icecc-env.sh" -o "$work/icecc" "$plugin" "$work"/lists/*.scl > "$work/icecc-env.log" 2>&1; then
	bad "icecc-env.sh failed:"; cat "$work/icecc-env.log"
else
	envtar=$(cat "$work/icecc/icecc-version")
	ok "icecc-env.sh: $(basename "$envtar") ($(du -m "$envtar" | cut -f1) MB)"
	# logs to stderr: iceccd's -l file is flushed only now and then
	mkdir -p "$scratch/icecc" && chmod 0777 "$scratch/icecc"
	ICECC_TESTS=1 icecc-scheduler -p 18765 -n wrap-idiom-dist -vvv > "$scratch/logs/scheduler.log" 2>&1 &
	pids+=($!)
	ICECC_TEST_SOCKET=$scratch/icecc/local.sock ICECC_TESTS=1 \
		iceccd --no-remote -m 2 -s 127.0.0.1:18765 -n wrap-idiom-dist -N wi-local \
		-b "$scratch/icecc/envs-local" -vvv > "$scratch/logs/wi-local.log" 2>&1 &
	local_pid=$!
	pids+=($local_pid)
	# the node: the checkout hidden, then icecream's chroot into the
	# environment. The scheduler gives no job to a node whose CPUs are busy
	# (load from /proc/stat); on a shared machine other builds keep them busy
	# and the test would wait for minutes, so the node sees a frozen
	# /proc/stat, which reads as idle.
	cat /proc/stat > "$scratch/icecc/stat"
	unshare -m --propagation private bash -c \
		'mount --bind /run/icecc/stat /proc/stat || exit 1
		 for d; do mount -t tmpfs -o mode=0755 wrap-idiom-hide "$d" || exit 1; done
		 exec env ICECC_TESTS=1 ICECC_TEST_SOCKET=/run/icecc/node1.sock iceccd -p 10246 -m 2 \
			-s 127.0.0.1:18765 -n wrap-idiom-dist -N wi-node1 -b /run/icecc/envs-node1 \
			-vvv > /run/logs/wi-node1.log 2>&1' _ "${hide[@]}" &
	node_pid=$!
	pids+=($node_pid)
	if wait_log "$scratch/logs/wi-local.log" "Connected to scheduler" &&
		wait_log "$scratch/logs/wi-node1.log" "Connected to scheduler"; then
		ok "icecream: scheduler, wi-local (--no-remote) and wi-node1 (checkout hidden) on 127.0.0.1"
	else
		bad "icecream daemons did not connect to the scheduler (logs in $work/daemon-logs)"
	fi
	# ICECC_REMOTE_CPP=1: send the source with its includes rewritten
	# (clang -frewrite-includes) and expand macros on the node; from fully
	# preprocessed source, clang numbers the columns of checks inside macro
	# expansions differently, which changes UBSan's source locations
	export ICECC_TEST_SOCKET=$scratch/icecc/local.sock ICECC_TEST_REMOTEBUILD=1 \
		ICECC_PREFERRED_HOST=wi-node1 ICECC_VERSION=$envtar ICECC_DEBUG=debug ICECC_REMOTE_CPP=1
	remote=0
	for i in "${!names[@]}"; do
		ICECC_LOGFILE=$work/out/ice-${names[$i]}.log run icecc ice "$i"
		l=$work/out/ice-${names[$i]}.log
		grep -q "Have to use host 127.0.0.1:10246" "$l" && ! grep -q "<building_local>" "$l" && remote=$((remote + 1))
	done
	wait_log "$scratch/logs/wi-node1.log" "Remote compilation completed with exit code 0"
	done_node=$(grep -c "Remote compilation completed with exit code 0" "$scratch/logs/wi-node1.log")
	[ "$remote" = "${#names[@]}" ] && [ "$done_node" -ge "$remote" ] &&
		ok "icecc: ${#names[@]} unit(s) compiled on wi-node1 (client: no local build; node: $done_node completed)" ||
		bad "icecc: $remote of ${#names[@]} unit(s) compiled remotely, node log: $done_node completed"
	same ice && ok "icecc: objects and remarks identical to the local ones" || bad "icecc: objects or remarks differ"
	times+=("icecc (remote on wi-node1): $(mean_ms ice) ms")

	# the preflight check: accepts this environment, refuses stale or incomplete ones
	lists=("$work"/lists/*.scl)
	ICECC_LOGFILE=$work/out/dist-check-icecc.log "$here/dist-check.sh" icecc "$plugin" "${lists[@]}" > "$work/out/dc-ice.txt" 2>&1 &&
		ok "dist-check icecc: $(tail -1 "$work/out/dc-ice.txt")" || { bad "dist-check icecc refused the good environment:"; cat "$work/out/dc-ice.txt"; }
	change_list
	if "$here/dist-check.sh" icecc "$plugin" "${lists[@]}" > "$work/out/dc-ice-stale.txt" 2>&1; then
		bad "dist-check icecc accepted an environment made from the old list"
	else
		grep -q "differs from the local file" "$work/out/dc-ice-stale.txt" &&
			ok "dist-check icecc, list changed since the environment: $(grep -m1 differs "$work/out/dc-ice-stale.txt" | sed 's/ (made.*//')" ||
			{ bad "dist-check icecc refused for another reason:"; cat "$work/out/dc-ice-stale.txt"; }
	fi
	restore_list
	mkdir -p "$work/extra" && cp "$here/dist-inputs/wrap.scl" "$work/extra/not-in-env.scl"
	"$here/dist-check.sh" icecc "$plugin" "$work/extra/not-in-env.scl" > "$work/out/dc-ice-missing.txt" 2>&1
	grep -q "not-in-env.scl is not in it" "$work/out/dc-ice-missing.txt" &&
		ok "dist-check icecc, a list the environment lacks: $(head -1 "$work/out/dc-ice-missing.txt")" ||
		{ bad "dist-check icecc did not name the missing list:"; cat "$work/out/dc-ice-missing.txt"; }
	# without the check: the node cannot see the list and fails; icecc
	# passes its error on (it does not retry here)
	saved=${cmds[0]}
	cmds[0]="$saved -mllvm -wrap-idiom-ignorelist=$work/extra/not-in-env.scl"
	if ICECC_LOGFILE=$work/out/ice-missing.log run icecc ice-missing 0; then
		bad "icecc compiled with a list missing in the environment"
	else
		wait_log "$scratch/logs/wi-node1.log" "exited with exit code 1"
		e=$(grep -m1 "not-in-env.scl" "$work/out/ice-missing-${names[0]}.err")
		grep -q "Have to use host 127.0.0.1:10246" "$work/out/ice-missing.log" && [ -n "$e" ] &&
			ok "icecc, a list missing on the node: the compile fails there: $e" ||
			bad "icecc with a list missing on the node: no error from the node naming it"
	fi
	cmds[0]=$saved
	# no local daemon: icecc would compile here without a word
	kill "$local_pid"; wait "$local_pid" 2>/dev/null
	env -u ICECC_TEST_SOCKET "$here/dist-check.sh" icecc "$plugin" "${lists[@]}" > "$work/out/dc-ice-nodaemon.txt" 2>&1
	grep -q "compiled the probe here.*no local daemon" "$work/out/dc-ice-nodaemon.txt" &&
		ok "dist-check icecc, no local daemon: $(head -1 "$work/out/dc-ice-nodaemon.txt")" ||
		{ bad "dist-check icecc without a daemon:"; cat "$work/out/dc-ice-nodaemon.txt"; }
	unset ICECC_TEST_SOCKET ICECC_TEST_REMOTEBUILD ICECC_PREFERRED_HOST ICECC_VERSION ICECC_DEBUG ICECC_REMOTE_CPP
fi
