// -wrap-idiom-wrapv-pointer through clang: built with pointer overflow
// undefined (the C default, or -fno-strict-overflow -fno-wrapv-pointer),
// clang emits the pointer-overflow checks; the mode then drops every GEP's
// inbounds/nuw at pipeline start, at -O0 and -O2, so the checks stay but
// nothing folds on inbounds. ptr-compare removes the check of `p + n < p`
// (the mode implies -wrap-idiom-pointer-wrap); `p[n]` keeps its check.
//
// RUN: %clang_plugin -O0 -fsanitize=pointer-overflow -mllvm -wrap-idiom-wrapv-pointer \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,NOFLAGS %s
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -mllvm -wrap-idiom-wrapv-pointer \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O2 %s
// Without the mode, O2 folds the program's own tests on inbounds:
// RUN: %clang_plugin -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=FOLD %s
// RUN: %if llvm22 %{ %clang_plugin -O2 -S -emit-llvm %s -o - | FileCheck --check-prefix=FOLD22 %s %}
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-wrapv-pointer -S -emit-llvm %s -o - \
// RUN:   | FileCheck --check-prefix=KEEP %s
// With clang's flags (clang >= 21; clang 19 has no -fno-wrapv-pointer):
// RUN: %if wrapv-pointer-flag %{ %clang_plugin -O2 -fno-strict-overflow -fno-wrapv-pointer -fsanitize=pointer-overflow \
// RUN:   -mllvm -wrap-idiom-wrapv-pointer -S -emit-llvm %s -o - | FileCheck --check-prefixes=CHECK,O2 %s %}
// RUN: %if wrapv-pointer-flag %{ %clang_plugin -O2 -fno-strict-overflow -fno-wrapv-pointer \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefixes=FOLD,FOLD22 %s %}
// The identity at the extension point: without sanitizers, clang's IR under
// -fno-strict-overflow and under -fno-strict-overflow -fno-wrapv-pointer plus
// the mode are the same.
// RUN: %if wrapv-pointer-flag %{ %clang_plugin -O0 -Xclang -disable-O0-optnone -fno-strict-overflow \
// RUN:   -S -emit-llvm %s -o %t.a.ll %}
// RUN: %if wrapv-pointer-flag %{ %clang_plugin -O0 -Xclang -disable-O0-optnone -fno-strict-overflow -fno-wrapv-pointer \
// RUN:   -mllvm -wrap-idiom-wrapv-pointer -S -emit-llvm %s -o %t.b.ll %}
// (modulo the flags of all-zero-index GEPs, which mean nothing and which
// clang sets either way: `p[i].a` is field 0)
// RUN: %if wrapv-pointer-flag %{ sed -E -f %srcroot/kernel/scripts/zero-gep-flags.sed %t.a.ll > %t.a.cmp %}
// RUN: %if wrapv-pointer-flag %{ sed -E -f %srcroot/kernel/scripts/zero-gep-flags.sed %t.b.ll > %t.b.cmp %}
// RUN: %if wrapv-pointer-flag %{ diff %t.a.cmp %t.b.cmp %}
// ...and without the mode they are not:
// RUN: %if wrapv-pointer-flag %{ %clang_plugin -O0 -Xclang -disable-O0-optnone -fno-strict-overflow -fno-wrapv-pointer \
// RUN:   -S -emit-llvm %s -o %t.c.ll %}
// RUN: %if wrapv-pointer-flag %{ sed -E -f %srcroot/kernel/scripts/zero-gep-flags.sed %t.c.ll > %t.c.cmp %}
// RUN: %if wrapv-pointer-flag %{ not diff %t.a.cmp %t.c.cmp %}
//
// NOFLAGS-NOT: getelementptr inbounds {{.*}}, i{{32|64}} {{[^0]}}
// NOFLAGS-NOT: getelementptr nuw
// NOFLAGS-NOT: getelementptr nusw

typedef unsigned long size_t;

struct s { int a; int b[4]; struct s *next; };
int arr[10];
int *gp = &arr[3];

// CHECK-LABEL: define {{.*}} @wraps(
// The check's null-pointer part stays; its address comparison folds:
// O2: call void @__ubsan_handle_pointer_overflow
// O2: [[Q:%.*]] = getelementptr i8, ptr %0, i64 %1, !wrap.idiom
// O2: icmp ult ptr [[Q]], %0
// CHECK: ret
// FOLD-LABEL: define {{.*}} @wraps(
// FOLD-NOT: getelementptr
// FOLD: ret i32
// KEEP-LABEL: define {{.*}} @wraps(
// KEEP: icmp ult ptr
int wraps(char *p, size_t n)
{
	return p + n < p;
}

// The sum is used: its check stays.
// CHECK-LABEL: define {{.*}} @used(
// CHECK: call void @__ubsan_handle_pointer_overflow
char used(char *p, size_t n)
{
	return p[n];
}

// Runs until q wraps past the top of the address space.
// FOLD22-LABEL: define {{.*}} @to_top(
// FOLD22-NOT: ret
// FOLD22: }
// KEEP-LABEL: define {{.*}} @to_top(
// KEEP: ret i64
// KEEP: icmp ult ptr
size_t to_top(char *p)
{
	size_t k = 0;

	for (char *q = p; q >= p; q++)
		k++;
	return k;
}

// Member access, array subscripts, ++, constants: no flag left (-O0).
// CHECK-LABEL: define {{.*}} @members(
int members(struct s *p, int i, char *c, size_t n)
{
	int *q = &p->b[i];

	p->next++;
	c += n;
	--c;
	return *q + p[i].a + arr[i] + arr[3] + c[1] + *gp;
}
