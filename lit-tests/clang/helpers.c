// The repeated operand computed twice by a small helper (MemoryFacts.h):
// `f(x) + n < f(x)` when f is a static inline function defined here that
// writes nothing and, if it reads memory, nothing writes in between; and
// two loads of one field across a call of such a helper. The shapes are
// the three kernel sites of issue 12 (arch/x86/kvm/x86.c, two in
// fs/ext4/resize.c), each next to the counterexample that must keep its
// check. Same decisions at -O0 (helpers are calls) and -O2 (at pipeline
// start they are calls too).
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s

typedef unsigned long long u64;
typedef unsigned int u32;
typedef u64 gpa_t, gfn_t;
#define PAGE_SHIFT 12
#define le32_to_cpu(x) ((u32)(x))

// include/linux/kvm_host.h: pure.
static inline gfn_t gpa_to_gfn(gpa_t gpa) { return (gfn_t)(gpa >> PAGE_SHIFT); }

// IR-LABEL: define {{.*}} @kvm_range(
// IR-NOT: __ubsan_handle
// IR: ret
int kvm_range(gpa_t gpa, unsigned long npages)
{
	if (gpa_to_gfn(gpa) + npages <= gpa_to_gfn(gpa)) // REMARK: helpers.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: add-compare
		return -22;
	return 0;
}

// fs/ext4/ext4.h: reads the superblock, writes nothing.
struct ext4_super_block { u32 s_inodes_count, s_blocks_count_lo, s_blocks_count_hi; };
static inline u64 ext4_blocks_count(struct ext4_super_block *es)
{
	return ((u64)le32_to_cpu(es->s_blocks_count_hi) << 32) |
	       le32_to_cpu(es->s_blocks_count_lo);
}
struct ext4_new_group_data { u64 blocks_count; };

int ext4_blocks(struct ext4_super_block *es, struct ext4_new_group_data *input)
{
	if (ext4_blocks_count(es) + input->blocks_count < ext4_blocks_count(es)) // REMARK: helpers.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: add-compare
		return -22;
	return 0;
}

// EXT4_SB() is a call between the two loads of es->s_inodes_count.
struct ext4_sb_info { u32 s_inodes_per_group; };
struct super_block { void *s_fs_info; };
static inline struct ext4_sb_info *EXT4_SB(struct super_block *sb) { return sb->s_fs_info; }
#define EXT4_INODES_PER_GROUP(s) (EXT4_SB(s)->s_inodes_per_group)

int ext4_inodes(struct super_block *sb, struct ext4_super_block *es)
{
	if (le32_to_cpu(es->s_inodes_count) + EXT4_INODES_PER_GROUP(sb) < le32_to_cpu(es->s_inodes_count)) // REMARK: helpers.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: add-compare
		return -22;
	return 0;
}

// A helper calling a helper.
static inline u64 blocks_plus(struct ext4_super_block *es) { return ext4_blocks_count(es) >> 1; }
int nested(struct ext4_super_block *es, u64 n)
{
	return blocks_plus(es) + n < blocks_plus(es); // REMARK: helpers.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: add-compare
}

// Must keep: the helper writes memory (each call returns another value).
struct counter { u64 id; };
static inline u64 next_id(struct counter *c) { return c->id++; }
int helper_writes(struct counter *c, u64 n)
{
	return next_id(c) + n < next_id(c); // REMARK: helpers.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
}
// (clang emits next_id() after its first caller: its own c->id++.)
// REMARK: helpers.c:[[@LINE-6]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store'

// Must keep: a helper that writes the field runs between the two reads.
static inline void reset(struct ext4_super_block *es) { es->s_blocks_count_lo = 0; }
int writes_between(struct ext4_super_block *es, u64 n)
{
	u64 s = ext4_blocks_count(es) + n; // REMARK: helpers.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
	reset(es);
	return s < ext4_blocks_count(es);
}

// Must keep: an impure call (only declared: it may write, or count).
u64 ext_blocks(struct ext4_super_block *es);
int impure(struct ext4_super_block *es, u64 n)
{
	return ext_blocks(es) + n < ext_blocks(es); // REMARK: helpers.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
}

// Must keep: the helpers return different fields.
static inline u32 blocks_lo(struct ext4_super_block *es) { return es->s_blocks_count_lo; }
static inline u32 blocks_hi(struct ext4_super_block *es) { return es->s_blocks_count_hi; }
int other_field(struct ext4_super_block *es, u32 n)
{
	return blocks_lo(es) + n < blocks_hi(es); // REMARK: helpers.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
}

// Must keep: a volatile read is an effect, and may differ each time.
static inline u32 read_reg(volatile u32 *reg) { return *reg; }
int volatile_read(volatile u32 *reg, u32 n)
{
	return read_reg(reg) + n < read_reg(reg); // REMARK: helpers.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
}

// Must keep: a pure helper on different arguments.
int other_argument(gpa_t a, gpa_t b, u64 n)
{
	return gpa_to_gfn(a) + n < gpa_to_gfn(b); // REMARK: helpers.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is compared with a value that is not an addend
}
