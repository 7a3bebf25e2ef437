// [pointer-overflow] entries, also on checks whose base is a constant (a
// global, null): clang's ptrtoint of such a base is a constant expression,
// so the pass finds no GEP for the check, and an ignorelist entry must
// still turn it off (it crashed the pass before: kernel's vsnprintf()).
// Functions not listed keep their checks.
//
// At -O0 the dead handler blocks stay (nothing deletes them): the remarks.
// RUN: %clang_plugin -O0 -fsanitize=pointer-overflow -mllvm -wrap-idiom-ignorelist=%S/Inputs/pointer.scl \
// RUN:   -Rpass=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -mllvm -wrap-idiom-ignorelist=%S/Inputs/pointer.scl \
// RUN:   -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -mllvm -wrap-idiom-wrapv-pointer \
// RUN:   -mllvm -wrap-idiom-ignorelist=%S/Inputs/pointer.scl -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=pointer-overflow -mllvm -wrap-idiom-ignorelist=%S/Inputs/pointer.scl \
// RUN:   -Rpass=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// REMARK-DAG: remark: removed pointer-overflow check on pointer: ignorelist (`fun:global_base`
// REMARK-DAG: remark: removed pointer-overflow check on pointer: ignorelist (`fun:param_base`
// clang 19 emits no check for (char *)0 + n (GNU null arithmetic); 22 does:
// RUN: %if llvm22 %{ %clang_plugin -O2 -fsanitize=pointer-overflow -mllvm -wrap-idiom-ignorelist=%S/Inputs/pointer.scl \
// RUN:   -Rpass=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK22 %s %}
// REMARK22: remark: removed pointer-overflow check on pointer: ignorelist (`fun:null_base`

static char sbuf[16];

// CHECK-LABEL: define {{.*}} @global_base(
// CHECK-NOT: call void @__ubsan_handle_pointer_overflow
// CHECK: ret
char *global_base(long i)
{
	return sbuf + i;
}

// CHECK-LABEL: define {{.*}} @null_base(
// CHECK-NOT: call void @__ubsan_handle_pointer_overflow
// CHECK: ret
char *null_base(long n)
{
	return (char *)0 + n;
}

// With a GEP to attribute, an entry takes the address part only; the
// null-pointer part stays (as for idioms):
// CHECK-LABEL: define {{.*}} @param_base(
// CHECK: call void @__ubsan_handle_pointer_overflow
// CHECK-NOT: icmp uge
// CHECK: ret
char *param_base(char *p, long n)
{
	return p + n;
}

// CHECK-LABEL: define {{.*}} @kept_global(
// CHECK: call void @__ubsan_handle_pointer_overflow
char *kept_global(long i)
{
	return sbuf + i;
}
