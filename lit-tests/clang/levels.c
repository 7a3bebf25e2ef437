// The plugin runs at pipeline start, at every optimisation level, from
// clang's -fpass-plugin and from opt's default pipelines; its decisions are
// the same everywhere because it sees clang's IR before any rewriting.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O1 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O3 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -Os -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -Oz -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -flto=thin -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// opt: the plugin joins opt's default pipelines at the same extension point.
// RUN: %clang -O2 -Xclang -disable-llvm-passes -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='default<O2>' -pass-remarks=wrap-idiom -pass-remarks-missed=wrap-idiom -disable-output %t.ll 2>&1 | FileCheck --check-prefix=OPT %s
// RUN: %opt -passes='default<O0>' -pass-remarks=wrap-idiom -pass-remarks-missed=wrap-idiom -disable-output %t.ll 2>&1 | FileCheck --check-prefix=OPT %s
// RUN: %opt -passes=wrap-idiom -pass-remarks=wrap-idiom -pass-remarks-missed=wrap-idiom -disable-output %t.ll 2>&1 | FileCheck --check-prefix=OPT %s

typedef unsigned long size_t;

// CHECK: levels.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: add-compare
// OPT: remark: {{.*}}removed unsigned-integer-overflow check on add: add-compare
int wraps(size_t a, size_t b) { return a + b < a; }

// CHECK: levels.c:[[@LINE+2]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
// OPT: remark: {{.*}}kept unsigned-integer-overflow check on add
size_t sum(size_t a, size_t b) { return a + b; }
