// The plugin reads which check an llvm.ubsantrap belongs to from its kind
// operand, clang's SanitizerHandler number. Pin the numbers the plugin
// knows (OverflowCheck.cpp: add 0, mul 12, negate 13, pointer 19, sub 21),
// so a clang that renumbers them fails here instead of silently.
//
// RUN: %clang -O0 -fsanitize=signed-integer-overflow,pointer-overflow -fsanitize-trap=all \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}} @add(
// CHECK: call void @llvm.ubsantrap(i8 0)
int add(int a, int b) { return a + b; }
// CHECK-LABEL: define {{.*}} @mul(
// CHECK: call void @llvm.ubsantrap(i8 12)
int mul(int a, int b) { return a * b; }
// CHECK-LABEL: define {{.*}} @neg(
// CHECK: call void @llvm.ubsantrap(i8 13)
int neg(int a) { return -a; }
// CHECK-LABEL: define {{.*}} @ptr(
// CHECK: call void @llvm.ubsantrap(i8 19)
char *ptr(char *p, long n) { return p + n; }
// CHECK-LABEL: define {{.*}} @sub(
// CHECK: call void @llvm.ubsantrap(i8 21)
int sub(int a, int b) { return a - b; }
