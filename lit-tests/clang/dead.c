// dead-value (llvm-pass/IDIOMS.md): a wrapped value that nothing reads,
// unused or stored and overwritten before any read (a counter reset right
// after), next to the counterexamples that must keep their checks. Same
// decisions at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -mllvm -wrap-idiom-disable=dead-value \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=DISABLED %s

typedef unsigned long u64;
u64 counter;
struct obj { u64 refs, gen; };
void use(u64);

void unused(u64 a, u64 b)
{
	u64 x = a + b; // REMARK: dead.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	(void)x;
}
// DISABLED: kept unsigned-integer-overflow check on add: idiom dead-value is disabled by -wrap-idiom-disable

void reset(u64 n)
{
	counter += n; // REMARK: dead.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	counter = 0;
}

void reset_field(struct obj *o)
{
	o->gen++; // REMARK: dead.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	o->refs = 1;
	o->gen = 0;
}

// Must keep: read before the reset.
void read_between(u64 n)
{
	counter += n; // REMARK: dead.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	use(counter);
	counter = 0;
}

// Must keep: another field is reset.
void other_field(struct obj *o)
{
	o->gen++; // REMARK: dead.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	o->refs = 0;
}

// Must keep: a call that may read the counter comes first.
void call_between(u64 n)
{
	counter += n; // REMARK: dead.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	use(1);
	counter = 0;
}

// Must keep: only part of it is overwritten.
void partial(u64 n)
{
	counter += n; // REMARK: dead.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	*(unsigned *)&counter = 0;
}
