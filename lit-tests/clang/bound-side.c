// A comparison every wrapped run answers the same way is a test of the
// wrap only if it decides as the unbounded value would (the wrap then
// decides nothing), or if the side those runs take holds no value but
// wrapped ones (PAGE_ALIGN(len) == 0: {0}). A length bound whose side the
// wrapped runs share with every long message is no such test: `if (len -
// 16 < 56) return -EINVAL;` lets len < 16 through as if it were long (the
// netlink shape nlmsg_len(nlh) < sizeof(*req), through a helper too, in
// caller-handled). Same decisions at -O0 and -O2.
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
