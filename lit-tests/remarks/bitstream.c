// The same remarks in the bitstream format. clang 19 itself crashes writing
// bitstream remarks for ELF (MCELFStreamer::changeSection), with or without
// the plugin; clang 22 writes them.
// UNSUPPORTED: llvm19
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fsave-optimization-record=bitstream \
// RUN:   -foptimization-record-file=%t/r.opt.bitstream -c %s -o %t/r.o
// RUN: llvm-remarkutil bitstream2yaml %t/r.opt.bitstream -o - | FileCheck %s

typedef unsigned long size_t;

// CHECK-LABEL: --- !Passed
// CHECK-NEXT: Pass: wrap-idiom
// CHECK-NEXT: Name: CheckRemoved
// CHECK-NEXT: DebugLoc: { File: '{{.*}}bitstream.c', Line: {{[0-9]+}},
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
// CHECK-NEXT: DebugLoc: { File: '{{.*}}bitstream.c', Line: {{[0-9]+}},
// CHECK: Function: untested
// CHECK-NEXT: Args:
// CHECK:      - Sanitizer: unsigned-integer-overflow
// CHECK:      - Op: add
// CHECK:      - Reason: 'the sum is used by ''ret'' before any wrap test'
size_t untested(size_t a, size_t b) { return a + b; }
