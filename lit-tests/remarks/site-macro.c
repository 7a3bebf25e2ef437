// Inside a macro argument the runtime report and the debug location of a
// check differ: UBSan's handler data names the expansion (where `unlikely(`
// starts), the debug location the operator. The remark then also names the
// report's location as `Site`, and wrap-ignorelist triage matches remarks
// with boot-log reports by it. (clang 19 gives the check the expansion's
// debug location itself: no Site there, and the same answer from triage.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom \
// RUN:   -fsave-optimization-record -foptimization-record-file=%t/r.opt.yaml -c %s -o %t/o.o 2>&1 \
// RUN:   | FileCheck --check-prefix=REMARK %s
// RUN: %if llvm22 %{ FileCheck --check-prefix=YAML %s < %t/r.opt.yaml %}
// RUN: wrap-ignorelist triage --format=csv %t/r.opt.yaml 2>/dev/null | FileCheck --check-prefix=TRIAGE %s
#define unlikely(x) __builtin_expect(!!(x), 0)

int in_macro(unsigned long a, unsigned long b)
{
	if (unlikely(a + b < a))
		return 1;
	return 0;
}
// REMARK: site-macro.c:18:{{17|6}}: remark: removed unsigned-integer-overflow check on add: add-compare
// The YAML writer folds a long mapping: the column may be on the next line
// (a long checkout path).
// YAML: DebugLoc: { File: '{{.*}}site-macro.c', Line: 18,
// YAML: Column: 17 }
// YAML: Site: '{{.*}}site-macro.c:18:6'
// TRIAGE: removed,{{.*}}site-macro.c,18,6,unsigned-integer-overflow,

// Outside a macro they agree: no Site.
int plain(unsigned long a, unsigned long b)
{
	return a + b < a; // REMARK: site-macro.c:[[@LINE]]:11: remark: removed unsigned-integer-overflow check on add: add-compare (the sum is only compared with an addend) [-Rpass=wrap-idiom]
}
