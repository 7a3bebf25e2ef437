// A comparison every wrapped run answers the same way is a test of the
// wrap only if it decides as the unbounded value would (the wrap then
// decides nothing), or if the side those runs take holds no value but
// wrapped ones (PAGE_ALIGN(len) == 0: {0}). A length bound whose side the
// wrapped runs share with every long message is no such test: `if (len -
// 16 < 56) return -EINVAL;` lets len < 16 through as if it were long (the
// netlink shape nlmsg_len(nlh) < sizeof(*req), through a helper too, in
// caller-handled). But a bound of the result itself by a constant whose
// side the wrapped runs take *leaves* while its other side guards the use
// (`--maxnode; if (maxnode > LIMIT) return -EINVAL; use(maxnode)`,
// mm/mempolicy.c get_nodes()) is a test to leave by, as a sign test with
// one sign known is: guarded-use. On the way, a comparison the wrapped and
// the true value answer alike (`maxnode == 0`: ULONG_MAX and -1 both are
// not 0) decides nothing wrong. Same decisions at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow \
// RUN:   -Rpass=wrap-idiom -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck %s

typedef unsigned int u32;
typedef unsigned long size_t;
#define PAGE_ALIGN(x) (((x) + 4095UL) & ~4095UL)
struct nlmsghdr { u32 nlmsg_len; unsigned short nlmsg_type; };
struct req { long a[7]; };
extern int handle(const void *r);
extern long use(size_t);

// Must keep: the lower bound of a difference (every wrapped difference is
// huge, so every wrapped run passes it).
int short_msg(u32 len)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
	u32 d = len - 16;
	if (d < sizeof(struct req))
		return -22;
	return handle(0);
}

// Must keep: the same through a static helper and a field
// (include/net/netlink.h's nlmsg_len(), net/core/sock_diag.c).
// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: the difference is returned, and in diag():
static int nlmsg_len(const struct nlmsghdr *nlh) { return nlh->nlmsg_len - 16; }

int diag(struct nlmsghdr *nlh)
{
	if (nlmsg_len(nlh) < sizeof(struct req))
		return -22;
	return handle(nlh);
}

// Must keep: the upper bound of a sum (every wrapped sum is small).
size_t room(size_t len)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
	size_t e = len + 4096;
	if (e > 65536)
		return 0;
	return 1;
}

// Still removed: PAGE_ALIGN(len) == 0, the side holds only the wrapped 0.
long zero_len(size_t len)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: align-zero
	len = PAGE_ALIGN(len);
	if (!len)
		return -12;
	return use(len);
}

// get_nodes(): every wrapped run (maxnode 0) passes `maxnode == 0` as the
// true -1 would, then takes `maxnode > 32768` and leaves; the loop, the
// only use, is on the other side.
extern int get_bitmap(unsigned long *m, const unsigned long *nm, size_t n);
int get_nodes(unsigned long *nodes, const unsigned long *nmask, size_t maxnode)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: guarded-use
	--maxnode;
	if (maxnode == 0 || !nmask)
		return 0;
	if (maxnode > 4096 * 8)
		return -22;
	while (maxnode > 64)
		maxnode = maxnode / 2;
	return get_bitmap(nodes, nmask, maxnode);
}

// Removed: a sum by a constant bounded from below, every wrapped sum (at
// most 7) taking the leaving side.
long above_header(size_t len)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: guarded-use
	size_t end = len + 8;
	if (end < 16)
		return -22;
	return use(end);
}

// Must keep: the value is used on the leaving side.
long used_on_leaving_side(size_t n)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: the difference is used by 'call' on the wrap path
	size_t d = n - 1;
	if (d > 100)
		return use(d);
	return use(d + 1);
}

// Must keep: the bound guards no use, its outcome is all the value is for
// (the wrap turns n == 0 into "too large").
int bound_decides(size_t n)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
	size_t d = n - 1;
	if (d > 100)
		return -1;
	return 0;
}

// Must keep: a comparison answered as the true value would, then a use.
long eq_then_use(size_t n)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: the difference is used by 'call' before any wrap test
	size_t d = n - 1;
	if (d == 0)
		return 0;
	return use(d);
}

// Must keep: the bound comes after a use.
long bound_after_use(size_t n)
{
	// CHECK: bound-side.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub: the difference is used by 'call' before any wrap test
	size_t d = n - 1;
	use(d);
	if (d > 100)
		return -22;
	return 0;
}
