// Guarded zero tests with a bound test between the align and the zero test
// (do_mmap()'s shape with a limit first): every wrapped PAGE_ALIGN(len) is
// 0, which `len > limit` sends one way for every limit, though the
// unbounded 2^64 would go the other. Only the side wrapped runs take is
// followed, as a decision on the wrapped value: it must reach the zero test
// that leaves before any effect. Same decisions at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s

typedef unsigned long size_t;
#define PAGE_ALIGN(x) (((x) + 4095UL) & ~4095UL)
extern long use(size_t);
extern size_t task_size, mapped;

long bound_between(size_t len)
{
	// CHECK: align-between.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: align-zero
	len = PAGE_ALIGN(len);
	if (len > task_size)
		return -12;
	if (!len)
		return -12;
	return use(len);
}

// Must keep: the side wrapped runs take (`0 <= limit`, for every limit)
// returns on that wrong decision, before any wrap test: a return is an
// effect like any other, and no handling of the wrap.
long keep_decision_returns(size_t len)
{
	// CHECK: align-between.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	len = PAGE_ALIGN(len);
	if (len <= task_size)
		return -12;
	if (!len)
		return -12;
	return use(len);
}

// Must keep: an effect between the wrong decision and the zero test.
long keep_effect_between(size_t len)
{
	// CHECK: align-between.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	len = PAGE_ALIGN(len);
	if (len > task_size)
		return -12;
	mapped++;
	if (!len)
		return -12;
	return use(len);
}

// Must keep: no zero test after the bound test (the wrapped 0 is used).
long keep_bound_only(size_t len)
{
	// CHECK: align-between.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	len = PAGE_ALIGN(len);
	if (len > task_size)
		return -12;
	return use(len);
}

// Must keep: a test wrapped runs answer both ways (`len > 4096` with a
// mask that leaves 0 or 4096 after a wrap) is no one-sided decision.
long keep_short_mask(size_t len)
{
	// CHECK: align-between.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	len = (len + 8191) & ~4095UL;
	if (len > task_size)
		return -12;
	if (!len)
		return -12;
	return use(len);
}
