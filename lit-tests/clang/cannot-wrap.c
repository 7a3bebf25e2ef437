// cannot-wrap (llvm-pass/idioms/CannotWrap.cpp), no idiom: what is known
// of the operands where the operation runs (known bits and ranges, the
// comparisons that dominate it, an induction variable's trip count)
// leaves no values for which it wraps, so its check can never fire and
// goes, also where the wrap is undefined (no -fwrapv). Beside each, the
// counterexamples that must keep it. Same decisions at -O0 and -O2; in
// the trap form no trip count (ScalarEvolution would read the traps
// themselves as "no wrap").
//
// RUN: %clang_plugin -O0 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-signed-wrap -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefixes=REMARK,LOOP --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-signed-wrap -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefixes=REMARK,LOOP --implicit-check-not=remark: %s
// Signed overflow undefined: a check that cannot fire goes all the same.
// RUN: %clang_plugin -O2 -fsanitize=signed-integer-overflow,unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefixes=REMARK,LOOP --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -fwrapv \
// RUN:   -fsanitize-trap=signed-integer-overflow,unsigned-integer-overflow -mllvm -wrap-idiom-signed-wrap \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefixes=REMARK,TRAP --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-signed-wrap -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -mllvm -wrap-idiom-disable=cannot-wrap \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=DISABLED %s
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang_plugin -O2 -fsanitize=signed-integer-overflow,unsigned-integer-overflow -fwrapv \
// RUN:   -mllvm -wrap-idiom-signed-wrap -save-stats=obj -c %s -o %t/cw.o
// RUN: FileCheck --check-prefix=STATS %s < %t/cannot-wrap.stats

typedef unsigned int u32;
typedef unsigned long u64;
void sink(u64);
struct counter { u32 v; };
void touch(struct counter *);

// A dominating comparison with a value of unknown range: i < n, so
// i <= UINT_MAX - 1.
// IR-LABEL: define {{.*}} @below(
// IR-NOT: __ubsan_handle_add_overflow
// IR: ret
u32 below(u32 i, u32 n)
{
	if (i < n)
		// DISABLED: cannot-wrap.c:[[@LINE+1]]:{{.*}} kept unsigned-integer-overflow check on add: {{.*}}; cannot-wrap is disabled by -wrap-idiom-disable
		return i + 1; // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: cannot-wrap
	return 0;
}

// The operand's own bits: (x & 255) + 1.
u32 masked(u32 x)
{
	return (x & 255) + 1; // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: cannot-wrap
}

// A signed product bounded on both sides.
int scaled(int a)
{
	if (a > 0 && a < 1000)
		return a * 1000; // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} removed signed-integer-overflow check on mul: cannot-wrap
	return 0;
}

// A loop counter below its bound.
void each(u32 n)
{
	for (u32 i = 0; i < n; i++) // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: cannot-wrap
		sink(i);
}

// A trip count: i != 10 from 0 by 1 keeps i in [0, 9] (ScalarEvolution),
// only where the checks report and go on.
void ten(void)
{
	for (u32 i = 0; i != 10; i++) // LOOP: cannot-wrap.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: cannot-wrap
		sink(i);                // TRAP: cannot-wrap.c:[[@LINE-1]]:{{.*}} kept unsigned-integer-overflow check on add:
}

// Must keep: the bound does not dominate the sum.
// IR-LABEL: define {{.*}} @keep_elsewhere(
// IR: __ubsan_handle_add_overflow
u32 keep_elsewhere(u32 i, u32 n)
{
	if (i < n)
		sink(i);
	return i + 1; // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
}

// Must keep: a trip count that lets the counter reach UINT_MAX.
void keep_le(u32 n)
{
	for (u32 i = 0; i <= n; i++) // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
		sink(i);
}

// Must keep: a range through memory that may change (a call between the
// test and the read).
u32 keep_reread(struct counter *c)
{
	if (c->v < 10) {
		touch(c);
		return c->v + 1; // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	}
	return 0;
}

// Must keep: the bound is too high for the addend.
u32 keep_high(u32 i)
{
	if (i < 0xfffffff0u)
		return i + 32; // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return 0;
}

// Must keep: a product whose factors are bounded but not enough.
u64 keep_product(u64 x)
{
	if (x < 100)
		return x * 0x1000000000000000UL; // REMARK: cannot-wrap.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on mul:
	return 0;
}

// STATS: "wrap-idiom.NumIdiomCannotWrap": 5
