// The -wrap-idiom-* options, given with -mllvm. clang 22 parses -mllvm
// options of a -fpass-plugin; clang < 22 also needs -fplugin= (the lit
// configuration adds it there, see README.md).
//
// -wrap-idiom-mode=report recognises and tags but keeps every check:
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-mode=report -fsanitize=unsigned-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefix=REPORT-IR %s
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-mode=report -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-analysis=wrap-idiom -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=REPORT --implicit-check-not="remark: removed" %s
// -wrap-idiom-disable=LIST turns idioms off one by one:
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-disable=sub-compare -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=DISABLE %s
// RUN: %clang_plugin -O2 -mllvm -wrap-idiom-disable=sub-compare,add-compare -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck --check-prefix=DISABLE-ALL --implicit-check-not="remark: removed" %s
// A bad value: one clear error from the option parser, exit status 1.
// RUN: not %clang_plugin -O2 -mllvm -wrap-idiom-mode=bogus -fsanitize=unsigned-integer-overflow \
// RUN:   -c %s -o /dev/null 2>%t.err
// RUN: FileCheck --check-prefix=BAD-MODE %s < %t.err
// RUN: count 1 < %t.err
// RUN: not %clang_plugin -O2 -mllvm -wrap-idiom-disable=no-such-idiom -fsanitize=unsigned-integer-overflow \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=BAD-IDIOM %s
// RUN: not %opt -passes=wrap-idiom -wrap-idiom-mode=bogus -disable-output %s 2>&1 | FileCheck --check-prefix=BAD-MODE %s
//
// BAD-MODE: for the --wrap-idiom-mode option: Cannot find option named 'bogus'!
// BAD-IDIOM: for the --wrap-idiom-disable option: Cannot find option named 'no-such-idiom'!

typedef unsigned long size_t;

// REPORT-IR-LABEL: define {{.*}} @wraps(
// REPORT-IR: @llvm.uadd.with.overflow.i64({{.*}}), !nosanitize !{{[0-9]+}}, !wrap.idiom ![[IDIOM:[0-9]+]]
// REPORT-IR: call void @__ubsan_handle_add_overflow
// REPORT-IR: ![[IDIOM]] = !{!"add-compare"}
// REPORT: options.c:[[@LINE+3]]:{{.*}} remark: recognised unsigned-integer-overflow check on add: add-compare (the sum is only compared with an addend); kept by -wrap-idiom-mode=report
// DISABLE: options.c:[[@LINE+2]]:{{.*}} remark: removed {{.*}} add-compare
// DISABLE-ALL: options.c:[[@LINE+1]]:{{.*}} remark: kept {{.*}} idiom add-compare is disabled by -wrap-idiom-disable
int wraps(size_t a, size_t b) { return a + b < a; }

// DISABLE: options.c:[[@LINE+2]]:{{.*}} remark: kept {{.*}} on sub: idiom sub-compare is disabled by -wrap-idiom-disable
// DISABLE-ALL: options.c:[[@LINE+1]]:{{.*}} remark: kept {{.*}} idiom sub-compare is disabled by -wrap-idiom-disable
int underflows(size_t a, size_t b) { return a - b > a; }

// A disabled row decides nothing, and a later row still may: add-compare
// proves this first; with add-compare disabled, the data-flow row goes on
// to prove guarded-use (before issue 38, the disabled row's proof kept the
// check, "idiom add-compare is disabled").
// DISABLE: options.c:[[@LINE+3]]:{{.*}} remark: removed {{.*}}: add-compare
// DISABLE-ALL: options.c:[[@LINE+2]]:{{.*}} remark: removed {{.*}}: guarded-use
int guarded(size_t a, size_t b) {
  if (a + b < a)
    return -1;
  return 0;
}
