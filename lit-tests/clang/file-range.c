// Signed file ranges (issue 24), built as the kernel builds them
// (-fno-strict-overflow, the signed and unsigned wrap checks, the plugin
// told that signed wrap is defined). A signed sum of an offset and a
// length known non-negative (tests before or after the sum) wraps iff it
// is negative, iff it is below either addend: `s < 0`, `s < a`, `s < b`
// stand for the check (add-compare) or are tests to leave by
// (guarded-use, bounds-and-wrap). fadvise() does the sum in u64 and reads
// it back as loff_t: with len >= 0 the unsigned sum wraps only for a
// negative offset, where the signed reading is offset + len < len, so
// `end < len` is a test every wrapped run takes (guarded-use). Decisions
// are the same at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap \
// RUN:   -fsanitize=signed-integer-overflow,unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap \
// RUN:   -fsanitize=signed-integer-overflow,unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fno-strict-overflow -mllvm -wrap-idiom-signed-wrap \
// RUN:   -fsanitize=signed-integer-overflow,unsigned-integer-overflow \
// RUN:   -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s

typedef long long loff_t;
typedef long long s64;
typedef unsigned long long u64;
#define LLONG_MAX 0x7fffffffffffffffLL
extern int do_range(loff_t a, loff_t b);
extern int permitted(void *file);
extern void sink(loff_t);

struct super_block { loff_t s_maxbytes; };
struct inode { struct super_block *i_sb; unsigned short i_mode; };

// fs/sync.c sync_file_range() as in 6.12: the sum first, then the sign of
// offset, of the sum, and the sum against offset; nbytes may be negative.
// IR-LABEL: define {{.*}} @sync_file_range(
// IR-NOT: __ubsan_handle_add_overflow
// IR: ret i32
int sync_file_range(void *file, loff_t offset, loff_t nbytes, unsigned flags)
{
	int ret;
	loff_t endbyte;
	ret = -22;
	if (flags & ~7u)
		goto out;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	endbyte = offset + nbytes;
	if ((s64)offset < 0)
		goto out;
	if ((s64)endbyte < 0)
		goto out;
	if (endbyte < offset)
		goto out;
	if (nbytes == 0)
		endbyte = LLONG_MAX;
	else
		// endbyte >= 0 here: endbyte - 1 cannot wrap
		// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on sub: cannot-wrap
		endbyte--;
	ret = do_range(offset, endbyte);
out:
	return ret;
}

// Both signs known before the sum, each of the three tests.
int both_addend(loff_t a, loff_t b)
{
	if (a < 0 || b < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	loff_t s = a + b;
	if (s < a)
		return -27;
	return do_range(a, s);
}

int both_other_addend(loff_t a, loff_t b)
{
	if (a < 0 || b < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	loff_t s = a + b;
	if (b > s)
		return -27;
	return do_range(a, s);
}

int both_sign(loff_t a, loff_t b)
{
	if (a < 0 || b < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	loff_t s = a + b;
	if (s < 0)
		return -27;
	return do_range(a, s);
}

// `s <= a`: every wrapped run takes it (b == 0 as well: a false alarm of
// the program's own, no hidden wrap).
int both_at_most(loff_t a, loff_t b)
{
	if (a < 0 || b < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	loff_t s = a + b;
	if (s <= a)
		return -27;
	return do_range(a, s);
}

// The signs tested after the sum, the two tests by ||.
int both_after(loff_t a, loff_t b)
{
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: guarded-use
	loff_t s = a + b;
	if (a < 0 || b < 0)
		return -22;
	if (s < 0 || s < b)
		return -27;
	sink(s);
	return 0;
}

// The sum only tested, two exact tests by ||: it stands for the check.
int both_only_tested(loff_t a, loff_t b)
{
	if (a < 0 || b < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: add-compare
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: add-compare
	return a + b < a || a + b < 0;
}

// fs/open.c vfs_fallocate() before check_add_overflow(): the signs, a
// call, then the bound and the sign of the sum by ||.
int vfs_fallocate(void *file, struct inode *inode, loff_t offset, loff_t len)
{
	if (offset < 0 || len <= 0)
		return -22;
	if (!permitted(file))
		return -1;
	// CHECK: file-range.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: bounds-and-wrap
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on add: add-compare
	if (((offset + len) > inode->i_sb->s_maxbytes) || ((offset + len) < 0))
		return -27;
	return do_range(offset, len);
}

// mm/fadvise.c generic_fadvise(): the unsigned sum read back as loff_t.
// IR-LABEL: define {{.*}} @generic_fadvise(
// IR-NOT: __ubsan_handle_add_overflow
// IR: ret i32
int generic_fadvise(void *mapping, loff_t offset, loff_t len)
{
	loff_t endbyte;
	if (!mapping || len < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: guarded-use
	endbyte = (u64)offset + (u64)len;
	if (!len || endbyte < len)
		endbyte = LLONG_MAX;
	else // endbyte >= len > 0: endbyte - 1 cannot wrap
		// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on sub: cannot-wrap
		endbyte--;
	return do_range(offset, endbyte);
}

// The same in 32 bits, the sum sign-extended for the test.
int fadvise32(int offset, int len)
{
	if (len < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: guarded-use
	long endbyte = (int)((unsigned)offset + (unsigned)len);
	if (endbyte < len)
		return -27;
	return do_range(offset, endbyte);
}

// Must keep: offset's sign tested, len's not. `offset + len < offset`
// holds for a negative len too, and its outcome is the result.
int keep_one_known(loff_t offset, loff_t len)
{
	if (offset < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	return offset + len < offset;
}

// Must keep: the same as a guard. The proof asks for the sign of the
// other addend (len) for a test against offset.
int keep_one_known_guard(loff_t offset, loff_t len)
{
	if (offset < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t end = offset + len;
	if (end < offset)
		return -27;
	return do_range(offset, end);
}

// Must keep: len tested on one path only, offset not at all.
int keep_len_one_path(loff_t offset, loff_t len, int strict)
{
	if (strict && len < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t end = offset + len;
	if (end < 0 || end < offset)
		return -27;
	return do_range(offset, end);
}

// Must keep: the sum stored, passed or returned before its test.
int keep_passed_first(loff_t a, loff_t b)
{
	if (a < 0 || b < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t s = a + b;
	sink(s);
	if (s < 0)
		return -27;
	return 0;
}

loff_t stored_end;
int keep_stored_first(loff_t a, loff_t b)
{
	if (a < 0 || b < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	stored_end = a + b;
	if (stored_end < a)
		return -27;
	return 0;
}

// Must keep: `s < 0` with len of either sign and the outcome returned.
int keep_sign_one_negative(loff_t offset, loff_t len)
{
	if (offset < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	return offset + len < 0;
}

// Must keep: an inexact test, `s < a - 1` (a wrapped sum may land at a - 1).
int keep_inexact(loff_t a, loff_t b)
{
	if (a < 0 || b < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept signed-integer-overflow check on add
	loff_t s = a + b;
	// a >= 0: a - 1 cannot wrap
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed signed-integer-overflow check on sub: cannot-wrap
	if (s < a - 1)
		return -27;
	return do_range(a, s);
}

// Must keep, fadvise: len of unknown sign (1 + -1 wraps as u64 and is
// 0, not below -1: the sum goes on to endbyte--).
int keep_fadvise_len_any(loff_t offset, loff_t len)
{
	loff_t endbyte;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	endbyte = (u64)offset + (u64)len;
	if (!len || endbyte < len)
		endbyte = LLONG_MAX;
	else
		endbyte--;
	return do_range(offset, endbyte);
}

// Must keep, fadvise: compared with offset, the addend of unknown sign.
int keep_fadvise_offset(loff_t offset, loff_t len)
{
	loff_t endbyte;
	if (len < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	endbyte = (u64)offset + (u64)len;
	if (!len || endbyte < offset)
		endbyte = LLONG_MAX;
	else
		endbyte--;
	return do_range(offset, endbyte);
}

// Must keep, fadvise: the sum used on the side wrapped runs take.
int keep_fadvise_wrong_side(loff_t offset, loff_t len)
{
	loff_t endbyte;
	if (len < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	endbyte = (u64)offset + (u64)len;
	if (endbyte < len)
		endbyte--;
	else
		endbyte = LLONG_MAX;
	return do_range(offset, endbyte);
}

// Must keep, fadvise: the sum passed before the test, or the test's
// outcome returned (unwrapped runs with a negative offset answer it so).
int keep_fadvise_passed_first(loff_t offset, loff_t len)
{
	loff_t endbyte;
	if (len < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	endbyte = (u64)offset + (u64)len;
	sink(endbyte);
	if (!len || endbyte < len)
		endbyte = LLONG_MAX;
	return do_range(offset, endbyte);
}

int keep_fadvise_result(loff_t offset, loff_t len)
{
	if (len < 0)
		return -22;
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	loff_t endbyte = (u64)offset + (u64)len;
	return endbyte < len;
}

// The plain unsigned analogue is add-compare's as before; compared as
// signed, with no sign known, it stays checked.
int unsigned_range(u64 offset, u64 len)
{
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: guarded-use
	u64 end = offset + len;
	if (end < len)
		return -27;
	return do_range(offset, end);
}

int keep_unsigned_signed_test(u64 offset, u64 len)
{
	// CHECK: file-range.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	u64 end = offset + len;
	if ((s64)end < (s64)len)
		return -27;
	return do_range(offset, end);
}
