#!/bin/sh
# Reads the runtime cases' stderr and prints one line per case:
#   <name> <IDIOM|KEEP> <reported|silent>
# A case is "reported" when at least one UBSan "runtime error:" line sits
# between its CASE and END markers. A case whose END is missing (the program
# died) is printed as "crashed".
awk '
/^CASE / {
	if (open)
		printf "%s %s crashed\n", name, kind
	name = $2; kind = $3; n = 0; open = 1; next
}
# Full runtime: "file:line:col: runtime error: ..."; minimal runtime:
# "ubsan: add-overflow by 0x...".
/runtime error:|^ubsan: / { if (open) n++; next }
/^END / {
	if (open && $2 == name)
		printf "%s %s %s\n", name, kind, (n ? "reported" : "silent")
	open = 0; next
}
END { if (open) printf "%s %s crashed\n", name, kind }
' "$@"
