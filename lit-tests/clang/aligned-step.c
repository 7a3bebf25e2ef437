// An aligned step to the top of the address space wraps to exactly 0
// (analysis/WrapTest.cpp isAlignedStepZeroTest): for x a multiple of 2^t
// (its known trailing zero bits), x + 2^t wraps only to 0 and is never 0
// otherwise, so `!(x + 2^t)` is an exact wrap test, and the data-flow
// proofs take it (mm/memory.c free_pgd_range(): addr &= PMD_MASK;
// addr += PMD_SIZE; if (!addr) return;). Identical at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark:

#define PMD_SIZE (1UL << 21)
#define PMD_MASK (~(PMD_SIZE - 1))
extern void use(unsigned long);

// CHECK: aligned-step.c:[[@LINE+5]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: guarded-use
void pgd_step(unsigned long addr, unsigned long floor)
{
	addr &= PMD_MASK;
	if (addr < floor) {
		addr += PMD_SIZE;
		if (!addr)
			return;
	}
	use(addr);
}

// The zero test on the other side of an equality, and the step first.
// CHECK: aligned-step.c:[[@LINE+3]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: guarded-use
unsigned long next_pmd(unsigned long addr)
{
	unsigned long next = PMD_SIZE + (addr & PMD_MASK);

	if (next != 0)
		use(next);
	return 0;
}

// Must keep: not aligned to the step (no mask), a mask finer than the
// step, a step that is no power of two, a wrap side that falls through.
// CHECK: aligned-step.c:[[@LINE+3]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is tested for equality
void unaligned(unsigned long addr)
{
	addr += PMD_SIZE;
	if (!addr)
		return;
	use(addr);
}
// CHECK: aligned-step.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is tested for equality
void finer_mask(unsigned long addr)
{
	addr &= ~0xfffUL;
	addr += PMD_SIZE;
	if (!addr)
		return;
	use(addr);
}
// CHECK: aligned-step.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add: the sum is tested for equality
void three_steps(unsigned long addr)
{
	addr &= PMD_MASK;
	addr += 3 * PMD_SIZE;
	if (!addr)
		return;
	use(addr);
}
// CHECK: aligned-step.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
void falls_through(unsigned long addr)
{
	addr &= PMD_MASK;
	addr += PMD_SIZE;
	if (!addr)
		use(1);
	use(addr);
}
