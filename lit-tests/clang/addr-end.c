// The page-table walkers' pXd_addr_end() (include/linux/pgtable.h), an
// align-zero generalised to a comparison with a variable: at the top of the
// address space addr + SIZE wraps into [0, SIZE - 1], the mask makes the
// boundary 0, `__boundary - 1` is then ULONG_MAX, which no `end - 1` is
// above, and the macro gives end: the wrapped boundary is never used.
// ConstantRange proves the add: every wrapped run answers the comparison
// the same way, for every end, and as the unbounded value (2^N - 1) would.
// `__boundary - 1` wraps only when the boundary is 0, i.e. only when the add
// wrapped, and the add's proof follows it. `(end) - 1` stays: end == 0 means the top of the address space,
// and for it the comparison goes either way. Next to each, the
// counterexamples that must keep their checks. Same decisions at -O0 and
// -O2 (clang emits the `?:` as branches and a phi at both).
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -mllvm -wrap-idiom-disable=align-zero \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=DISABLED %s
// The signed version, with signed wrap defined and accepted, still keeps its
// checks (the ranges are unsigned reasoning):
// RUN: %clang_plugin -O2 -fwrapv -mllvm -wrap-idiom-signed-wrap -DSIGNED -fsanitize=signed-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=SIGNED --implicit-check-not=remark: %s

void use(unsigned long);

#ifndef SIGNED
// include/linux/pgtable.h, Linux 6.12, as it is (x86_64's PMD_SIZE).
#define PMD_SHIFT	21
#define PMD_SIZE	(1UL << PMD_SHIFT)
#define PMD_MASK	(~(PMD_SIZE-1))
#define pmd_addr_end(addr, end)						\
({	unsigned long __boundary = ((addr) + PMD_SIZE) & PMD_MASK;	\
	(__boundary - 1 < (end) - 1)? __boundary: (end);		\
})

// mm/pagewalk.c walk_pmd_range()'s loop.
// IR-LABEL: define {{.*}} @walk_pmd_range(
// IR-NOT: __ubsan_handle_add_overflow
// IR: call void @__ubsan_handle_sub_overflow
// IR-NOT: __ubsan_handle
// IR: ret
int walk_pmd_range(unsigned long addr, unsigned long end)
{
	unsigned long next;
	do {
		next = pmd_addr_end(addr, end); // REMARK: addr-end.c:[[@LINE]]:10:{{.*}} removed unsigned-integer-overflow check on add: align-zero
		// REMARK: addr-end.c:[[@LINE-1]]:10:{{.*}} removed unsigned-integer-overflow check on sub: align-zero
		// REMARK: addr-end.c:[[@LINE-2]]:10:{{.*}} kept unsigned-integer-overflow check on sub: the difference is compared with a value that is not its minuend, and that decision reaches 'ret' before any wrap test
		use(addr);
	} while (addr = next, addr != end);
	return 0;
}
// DISABLED: kept unsigned-integer-overflow check on add: idiom align-zero is disabled by -wrap-idiom-disable

// x86_64 with 5-level paging: PGDIR_SHIFT is the variable pgdir_shift, so
// the addend is 1UL << pgdir_shift, a power of two, and the mask its
// ~(S - 1): the wrapped sum is below S, the mask clears it.
extern unsigned int pgdir_shift;
#define PGDIR_SIZE	(1UL << pgdir_shift)
#define PGDIR_MASK	(~(PGDIR_SIZE - 1))
#define pgd_addr_end(addr, end)						\
({	unsigned long __boundary = ((addr) + PGDIR_SIZE) & PGDIR_MASK;	\
	(__boundary - 1 < (end) - 1)? __boundary: (end);		\
})
int walk_pgd_range(unsigned long addr, unsigned long end)
{
	unsigned long next;
	do {
		next = pgd_addr_end(addr, end); // REMARK: addr-end.c:[[@LINE]]:10:{{.*}} removed unsigned-integer-overflow check on add: align-zero
		// PGDIR_SIZE - 1: 1UL << shift is at least 1.
		// REMARK: addr-end.c:[[@LINE-2]]:10:{{.*}} removed unsigned-integer-overflow check on sub: cannot-wrap
		// REMARK: addr-end.c:[[@LINE-3]]:10:{{.*}} removed unsigned-integer-overflow check on sub: align-zero
		// REMARK: addr-end.c:[[@LINE-4]]:10:{{.*}} kept unsigned-integer-overflow check on sub:
		use(addr);
	} while (addr = next, addr != end);
	return 0;
}

// Must keep: the boundary is used besides the choice. Here and below
// `b - 1` keeps its check with the add's: it goes only where the add's
// proof, which follows it, holds.
unsigned long boundary_used(unsigned long addr, unsigned long end)
{
	unsigned long b = (addr + PMD_SIZE) & PMD_MASK; // REMARK: addr-end.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum, masked or shifted, is used by 'call' before any wrap test
	use(b);
	return (b - 1 < end - 1) ? b : end; // REMARK: addr-end.c:[[@LINE]]:12:{{.*}} kept unsigned-integer-overflow check on sub:
	// REMARK: addr-end.c:[[@LINE-1]]:{{.*}} kept unsigned-integer-overflow check on sub:
}

// Must keep: the operands swapped, the wrap side picks the boundary.
unsigned long picks_boundary(unsigned long addr, unsigned long end)
{
	unsigned long b = (addr + PMD_SIZE) & PMD_MASK; // REMARK: addr-end.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum, masked or shifted, is used by 'phi' on the wrap path
	return (b - 1 < end - 1) ? end : b; // REMARK: addr-end.c:[[@LINE]]:12:{{.*}} kept unsigned-integer-overflow check on sub:
	// REMARK: addr-end.c:[[@LINE-1]]:{{.*}} kept unsigned-integer-overflow check on sub:
}

// Must keep: the mask keeps a bit of the wrapped sum (half the size), and
// an addend twice the alignment: their wrapped boundaries are 0 or S/2,
// 0 or S, and `b - 1` is not always ULONG_MAX.
unsigned long half_mask(unsigned long addr, unsigned long end)
{
	unsigned long b = (addr + PMD_SIZE) & ~(PMD_SIZE / 2 - 1); // REMARK: addr-end.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return (b - 1 < end - 1) ? b : end; // REMARK: addr-end.c:[[@LINE]]:12:{{.*}} kept unsigned-integer-overflow check on sub:
	// REMARK: addr-end.c:[[@LINE-1]]:{{.*}} kept unsigned-integer-overflow check on sub:
}
unsigned long double_addend(unsigned long addr, unsigned long end)
{
	unsigned long b = (addr + 2 * PMD_SIZE) & PMD_MASK; // REMARK: addr-end.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	return (b - 1 < end - 1) ? b : end; // REMARK: addr-end.c:[[@LINE]]:12:{{.*}} kept unsigned-integer-overflow check on sub:
	// REMARK: addr-end.c:[[@LINE-1]]:{{.*}} kept unsigned-integer-overflow check on sub:
}

// Must keep: ULONG_MAX <= end - 1 holds when end - 1 is ULONG_MAX, so
// wrapped runs do not all answer `<=` the same way.
unsigned long less_equal(unsigned long addr, unsigned long end)
{
	unsigned long b = (addr + PMD_SIZE) & PMD_MASK; // REMARK: addr-end.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum, masked or shifted, meets a comparison whose outcome the wrap can change, and that decision reaches 'ret' before any wrap test
	return (b - 1 <= end - 1) ? b : end; // REMARK: addr-end.c:[[@LINE]]:12:{{.*}} kept unsigned-integer-overflow check on sub:
	// REMARK: addr-end.c:[[@LINE-1]]:{{.*}} kept unsigned-integer-overflow check on sub:
}

// Must keep: every wrapped run answers `> lim` the same way (a wrapped
// PAGE_ALIGN() is 0, below any limit), but the unbounded value would be
// above it: the wrap decides, and the bound lets it through.
int align_bound(unsigned long len, unsigned long lim)
{
	unsigned long v = (len + 4095) & ~4095UL; // REMARK: addr-end.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum, masked or shifted, meets a comparison whose outcome the wrap can change, and that decision reaches 'ret' before any wrap test
	if (v > lim)
		return -22;
	return 0;
}

// Must keep: a power of two, but the mask of another one (b is 0 for a
// small addr too).
extern unsigned int other_shift;
unsigned long other_mask(unsigned long addr, unsigned long end)
{
	unsigned long b = (addr + PGDIR_SIZE) & ~((1UL << other_shift) - 1); // REMARK: addr-end.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add:
	// REMARK: addr-end.c:[[@LINE-1]]:{{.*}} removed unsigned-integer-overflow check on sub: cannot-wrap
	return (b - 1 < end - 1) ? b : end; // REMARK: addr-end.c:[[@LINE]]:12:{{.*}} kept unsigned-integer-overflow check on sub:
	// REMARK: addr-end.c:[[@LINE-1]]:22:{{.*}} kept unsigned-integer-overflow check on sub:
}
#else
// Must keep: signed, the same shape.
long addr_end_signed(long addr, long end)
{
	long b = (addr + (1L << 21)) & ~((1L << 21) - 1); // SIGNED: addr-end.c:[[@LINE]]:{{.*}} kept signed-integer-overflow check on add:
	return (b - 1 < end - 1) ? b : end; // SIGNED: addr-end.c:[[@LINE]]:{{.*}} kept signed-integer-overflow check on sub:
	// SIGNED: addr-end.c:[[@LINE-1]]:{{.*}} kept signed-integer-overflow check on sub:
}
#endif
