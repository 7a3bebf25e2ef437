// -fsave-optimization-record: one remark per check under the pass name
// wrap-idiom, Passed/CheckRemoved when removed, Missed/CheckKept when kept,
// with the idiom, the sanitizer, the operation and the source location as
// arguments. The file is read back with LLVM's own remark parser
// (llvm-remarkutil), as the triage tool does.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsave-optimization-record \
// RUN:   -foptimization-record-file=%t/r.opt.yaml -c %s -o %t/r.o
// RUN: FileCheck %s < %t/r.opt.yaml
// RUN: llvm-remarkutil count --parser=yaml --group-by=function --pass-name=wrap-idiom \
// RUN:   --remark-name=CheckRemoved %t/r.opt.yaml | FileCheck --check-prefix=COUNT-REMOVED %s
// RUN: llvm-remarkutil count --parser=yaml --group-by=function --pass-name=wrap-idiom \
// RUN:   --remark-name=CheckKept %t/r.opt.yaml | FileCheck --check-prefix=COUNT-KEPT %s

typedef unsigned long size_t;

// CHECK-LABEL: --- !Passed
// CHECK-NEXT: Pass: wrap-idiom
// CHECK-NEXT: Name: CheckRemoved
// CHECK-NEXT: DebugLoc: { File: '{{.*}}record.c', Line: [[@LINE+8]],
// CHECK: Function: tested
// CHECK-NEXT: Args:
// CHECK:      - Sanitizer: unsigned-integer-overflow
// CHECK:      - Op: add
// CHECK:      - Idiom: add-compare
// CHECK:      - Proof: the sum is only compared with an addend
// CHECK: ...
int tested(size_t a, size_t b) { return a + b < a; }

// CHECK-LABEL: --- !Missed
// CHECK-NEXT: Pass: wrap-idiom
// CHECK-NEXT: Name: CheckKept
// CHECK-NEXT: DebugLoc: { File: '{{.*}}record.c', Line: [[@LINE+6]],
// CHECK: Function: untested
// CHECK-NEXT: Args:
// CHECK:      - Sanitizer: unsigned-integer-overflow
// CHECK:      - Op: add
// CHECK:      - Reason: 'the sum is used by ''ret'' before any wrap test'
size_t untested(size_t a, size_t b) { return a + b; }

// COUNT-REMOVED: Function,Count
// COUNT-REMOVED-NEXT: tested,1
// COUNT-REMOVED-NOT: untested
// COUNT-KEPT: Function,Count
// COUNT-KEPT-NEXT: untested,1
