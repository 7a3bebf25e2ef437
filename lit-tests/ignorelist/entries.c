// -wrap-idiom-ignorelist=FILE: entries turn off checks no idiom can decide,
// `=sanitize` keeps checks, and the last matching entry wins.
//
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,signed-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-ignorelist=%S/Inputs/hash.scl \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=HASH %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,signed-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-ignorelist=%S/Inputs/hash.scl -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// Precedence: type:* ignores, the later type:size_t=sanitize keeps size_t;
// =sanitize beats an idiom:
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow,signed-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-ignorelist=%S/Inputs/sanitize.scl \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=SAN %s
// Across files, the later file wins:
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-ignorelist=%S/Inputs/hash.scl -mllvm -wrap-idiom-ignorelist=%S/Inputs/later.scl \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=LATER %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-ignorelist=%S/Inputs/later.scl -mllvm -wrap-idiom-ignorelist=%S/Inputs/hash.scl \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=EARLIER %s
// The same files work unchanged as clang's own ignorelists:
// RUN: %clang -O2 -fsanitize=unsigned-integer-overflow -fsanitize-ignorelist=%S/Inputs/hash.scl \
// RUN:   -fsanitize-ignorelist=%S/Inputs/sanitize.scl -fsanitize-ignorelist=%S/Inputs/later.scl -c %s -o /dev/null

typedef unsigned long size_t;
typedef unsigned int u32;

// HASH: entries.c:[[@LINE+6]]:{{.*}} remark: removed unsigned-integer-overflow check on mul: ignorelist (`fun:mix_hash` ({{.*}}hash.scl:6))
// IR-LABEL: define {{.*}} @mix_hash(
// IR-NOT: __ubsan_handle
// IR: ret
// LATER: entries.c:[[@LINE+2]]:{{.*}} remark: kept unsigned-integer-overflow check on mul: kept by `fun:mix_hash=sanitize` ({{.*}}later.scl:3)
// EARLIER: entries.c:[[@LINE+1]]:{{.*}} remark: removed unsigned-integer-overflow check on mul: ignorelist (`fun:mix_hash` ({{.*}}hash.scl:6))
u32 mix_hash(u32 h, u32 k) { return h * 0x9e3779b1u + k; }
// (the add in mix_hash is matched by the same entry)
// HASH: entries.c:[[@LINE-2]]:{{.*}} remark: removed unsigned-integer-overflow check on add: ignorelist

// Not named by any entry: kept.
// HASH: entries.c:[[@LINE+2]]:{{.*}} remark: kept unsigned-integer-overflow check on add: the sum is used by 'ret' before any wrap test
// SAN: entries.c:[[@LINE+1]]:{{.*}} remark: removed unsigned-integer-overflow check on add: ignorelist (`type:*` ({{.*}}sanitize.scl:6))
u32 other(u32 a, u32 b) { return a + b; }

// size_t: type:* matches, but the later type:size_t=sanitize wins. The type
// name comes from the check's UBSan type descriptor ('size_t' (aka 'unsigned long')).
// SAN: entries.c:[[@LINE+1]]:{{.*}} remark: kept unsigned-integer-overflow check on add: kept by `type:size_t=sanitize` ({{.*}}sanitize.scl:8)
size_t sizes(size_t a, size_t b) { return a + b; }

// Signed: the group section [{unsigned-integer-overflow,signed-integer-overflow}] applies.
// SAN: entries.c:[[@LINE+1]]:{{.*}} remark: removed signed-integer-overflow check on add: ignorelist (`type:*`
int signed_sum(int a, int b) { return a + b; }

// An idiom the owner wants checked anyway.
// HASH: entries.c:[[@LINE+2]]:{{.*}} remark: removed unsigned-integer-overflow check on add: add-compare
// SAN: entries.c:[[@LINE+1]]:{{.*}} remark: kept unsigned-integer-overflow check on add: kept by `fun:audited_wrap_test=sanitize` ({{.*}}sanitize.scl:10) over the add-compare idiom
int audited_wrap_test(size_t a, size_t b) { return a + b < a; }

// An idiom and an entry: the idiom is the proof the remark names.
// SAN: entries.c:[[@LINE+1]]:{{.*}} remark: removed unsigned-integer-overflow check on add: add-compare
int idiom_and_entry(u32 a, u32 b) { return a + b < a; }
