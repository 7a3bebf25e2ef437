// Memory between a sum and its test (llvm-pass/IDIOMS.md, MemoryFacts.h):
// two loads of one field are one value when nothing can write it in
// between, which LLVM's alias analysis (BasicAA) decides for stores and
// calls; a store that may write the field keeps the check. Same decisions
// at -O0 (the pass promotes a private clone) and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s

typedef unsigned long size_t;
struct range { size_t start, len, flags; };
void ext(void);
void ext_ptr(struct range *);

// A store to another field of the same object: BasicAA proves the two
// fields apart (same base, different constant offsets).
int unrelated_field(struct range *r, size_t n)
{
	size_t s = r->start + n; // REMARK: memory.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: add-compare
	r->flags = 1;
	return s < r->start;
}

// A local struct holding the range, an unknown call in between: the call
// cannot reach a local whose address never escapes.
int local_struct(const struct range *in, size_t n)
{
	struct range r = *in;
	size_t s = r.start + n; // REMARK: memory.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: add-compare
	ext();
	return s < r.start;
}

// Must keep: the store writes the very field.
int same_field(struct range *r, size_t n)
{
	size_t s = r->start + n; // REMARK: memory.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
	r->start = 0;
	return s < r->start;
}

// Must keep: q may point at r->start.
int may_alias(struct range *r, size_t *q, size_t n)
{
	size_t s = r->start + n; // REMARK: memory.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
	*q = 0;
	return s < r->start;
}

// Must keep: the local's address escaped to the call, which may write it.
int local_escaped(const struct range *in, size_t n)
{
	struct range r = *in;
	size_t s = r.start + n; // REMARK: memory.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
	ext_ptr(&r);
	return s < r.start;
}
