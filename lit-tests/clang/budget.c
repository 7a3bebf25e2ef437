// -wrap-idiom-budget=N (hidden, default 4096) bounds the work of one
// check: the instructions followed on the wrapped value's paths, and the
// other computations of the value compared with it. A check over budget
// is kept, with a remark saying why; the budget never removes one.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=DEFAULT --implicit-check-not=remark: %s
// RUN: %clang_plugin -O0 -mllvm -wrap-idiom-budget=1 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=ONE --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-budget=1 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=ONE --implicit-check-not=remark: %s
// Over budget the handler call stays (-O2 merges the two equal checks):
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-budget=1 -fsanitize=unsigned-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefix=IR-DEFAULT %s

// `off + n` is computed three times: each computation is compared with
// the two others, which a budget of one does not allow.
int fill(char *buf, unsigned long off, unsigned long n, unsigned long lim) {
  if (off + n > lim || off + n < n)
    return -1;
  buf[off + n - 1] = 0;
  return 0;
}
// DEFAULT: budget.c:[[#@LINE-5]]:11: remark: removed unsigned-integer-overflow check on add: bounds-and-wrap
// DEFAULT: budget.c:[[#@LINE-6]]:28: remark: removed unsigned-integer-overflow check on add: add-compare
// DEFAULT: budget.c:[[#@LINE-5]]:11: remark: removed unsigned-integer-overflow check on add: guarded-use
// DEFAULT: budget.c:[[#@LINE-6]]:15: remark: kept unsigned-integer-overflow check on sub: the difference is used by 'getelementptr' before any wrap test
// ONE: budget.c:[[#@LINE-9]]:11: remark: kept unsigned-integer-overflow check on add: the sum is computed in too many other places to compare them all with it (-wrap-idiom-budget)
// The only use of this one is its wrap test: no paths to follow.
// ONE: budget.c:[[#@LINE-11]]:28: remark: removed unsigned-integer-overflow check on add: add-compare
// The third sum and its - 1 are one expression, which takes no path walk
// (final-result: a bounded tree of steps, whatever the budget):
// ONE: budget.c:[[#@LINE-12]]:11: remark: removed unsigned-integer-overflow check on add: final-result
// ONE: budget.c:[[#@LINE-13]]:15: remark: re-checked unsigned-integer-overflow check on sub: final-result

// IR-LABEL: define {{.*}}@fill(
// IR: call void @__ubsan_handle_add_overflow
// IR: call void @__ubsan_handle_sub_overflow
// IR-DEFAULT-LABEL: define {{.*}}@fill(
// IR-DEFAULT-NOT: call void @__ubsan_handle_add_overflow
// IR-DEFAULT: call void @__ubsan_handle_sub_overflow
// IR-DEFAULT-NOT: call void @__ubsan_handle_add_overflow
