#!/bin/sh
# tabulate.sh CASES STDERR: one line per case of CASES (the "<name> <kind>"
# lines of `cases --list`), in its order, from the cases' stderr:
#   <name> <IDIOM|KEEP|RECHECK|OUT> <reported|silent>
# A case is "reported" when at least one UBSan "runtime error:" line sits
# between its CASE and END markers. A case whose END is missing (the program
# died) is printed as "crashed", one that never started as "missing": the
# tests need no count of the cases, every case has its line.
awk '
FNR == NR { order[++n] = $1; kind[$1] = $2; next }
/^CASE / { name = $2; reports = 0; open = 1; started[name] = 1; next }
# Full runtime: "file:line:col: runtime error: ..."; minimal runtime:
# "ubsan: add-overflow by 0x...".
/runtime error:|^ubsan: / { if (open) reports++; next }
/^END / {
	if (open && $2 == name)
		verdict[name] = reports ? "reported" : "silent"
	open = 0; next
}
END {
	for (i = 1; i <= n; i++) {
		c = order[i]
		if (c in verdict)
			v = verdict[c]
		else if (c in started)
			v = "crashed"
		else
			v = "missing"
		printf "%s %s %s\n", c, kind[c], v
	}
}
' "$@"
