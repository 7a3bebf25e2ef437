// STATISTICs: checks seen and removed, per operation and per idiom. Debian's
// LLVM is built without assertions, where `opt -stats` prints nothing, so
// the plugin's statistics are always enabled and clang's -save-stats shows
// them.
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,pointer-overflow -mllvm -wrap-idiom-pointer-wrap \
// RUN:   -save-stats=obj -c %s -o %t/stats.o
// RUN: FileCheck %s < %t/stats.stats

typedef unsigned long size_t;

int add1(size_t a, size_t b) { return a + b < a; }
int add2(size_t a, size_t b) { return a > a + b; }
size_t add3(size_t a, size_t b) { return a + b; }
int sub1(size_t a, size_t b) { return a - b > a; }
size_t mul1(size_t a, size_t b) { return a * b; }
size_t neg1(size_t a) { return -a; }
int ptr1(char *p, size_t n) { return p + n < p; }

// CHECK-DAG: "wrap-idiom.NumAddRemoved": 2,
// CHECK-DAG: "wrap-idiom.NumAddSeen": 3,
// CHECK-DAG: "wrap-idiom.NumChecksRemoved": 4,
// CHECK-DAG: "wrap-idiom.NumChecksSeen": 7,
// CHECK-DAG: "wrap-idiom.NumIdiomAddCompare": 2,
// CHECK-DAG: "wrap-idiom.NumIdiomPtrCompare": 1,
// CHECK-DAG: "wrap-idiom.NumIdiomSubCompare": 1,
// CHECK-DAG: "wrap-idiom.NumMulSeen": 1,
// CHECK-DAG: "wrap-idiom.NumNegSeen": 1,
// CHECK-DAG: "wrap-idiom.NumPtrRemoved": 1,
// CHECK-DAG: "wrap-idiom.NumPtrSeen": 1,
// CHECK-DAG: "wrap-idiom.NumSubRemoved": 1,
// CHECK-DAG: "wrap-idiom.NumSubSeen": 1
