// Memory at -O0: a sum stored to a field of a local struct, other fields
// stored between, read back and tested. The locals are promoted by SROA
// before any decision (PromotedFunction.h), so the field is the sum itself,
// at -O0 (on the optnone clone) as at -O2. A struct whose address escapes
// before the test, or the caller's struct, keeps its memory and the check.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s

typedef unsigned long size_t;
extern int use(size_t, size_t);
struct range {
	size_t start, end, flags;
};

// IR-LABEL: define {{.*}} @local_struct(
// IR-NOT: __ubsan_handle_add_overflow
// IR: ret i32
int local_struct(size_t start, size_t len)
{
	struct range r;
	r.start = start;
	// CHECK: local-struct.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: guarded-use
	r.end = start + len;
	r.flags = 1;
	if (r.end < r.start)
		return -22;
	return use(r.start, r.end);
}

// Only the test reads the field: add-compare on the promoted struct.
int local_struct_test_only(size_t start, size_t len)
{
	struct range r = { start, 0, 0 };
	// CHECK: local-struct.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: add-compare
	r.end = r.start + len;
	r.flags = 3;
	return r.end < r.start;
}

// IR-LABEL: define {{.*}} @keep_escaped(
// IR: __ubsan_handle_add_overflow
extern void fill(struct range *);
int keep_escaped(size_t start, size_t len)
{
	struct range r;
	r.start = start;
	// CHECK: local-struct.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is used by 'store'
	r.end = start + len;
	fill(&r);
	if (r.end < r.start)
		return -22;
	return use(r.start, r.end);
}

// The caller's struct: the wrapped end outlives the test.
int keep_out_param(struct range *r, size_t start, size_t len)
{
	r->start = start;
	// CHECK: local-struct.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is used by 'store'
	r->end = start + len;
	r->flags = 0;
	if (r->end < r->start)
		return -22;
	return 0;
}
