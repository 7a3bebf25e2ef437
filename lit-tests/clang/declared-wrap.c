// declared-wrap (llvm-pass/analysis/DeclaredWrap.h): a field, variable or
// parameter declared to wrap (the kernel's __wraps, an annotate attribute
// with the plugin) makes arithmetic with it modular by declaration: the
// check goes, at -O0 and -O2 alike, and the annotation calls are gone.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -S -emit-llvm %s -o - | FileCheck --check-prefix=IR %s
// Another annotation is not ours: it stays, and decides nothing.
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -DWRAPS=other -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=OTHER %s
// OTHER-NOT: {{on [a-z]+: declared-wrap}}
// OTHER: declared-wrap.c:{{[0-9]+}}:{{[0-9]+}}: remark: kept
//
// IR-NOT: call {{.*}}@llvm.{{ptr|var}}.annotation

#ifndef WRAPS
#define WRAPS wrap-idiom:wrap
#endif
#define STR2(x) #x
#define STR(x) STR2(x)
#define __wraps __attribute__((annotate(STR(WRAPS))))
typedef unsigned int u32;
typedef unsigned long u64;
void sink(unsigned long);
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))

struct conn {
	u32 __wraps snd_una;
	u32 __wraps rcv_nxt;
	u32 __wraps copied_seq;
	u32 snd_wnd;
	u32 len;
	u32 __wraps sack[4];
};

// A sequence number plus a window (tcp_wnd_end()).
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: declared-wrap
u32 wnd_end(struct conn *c) { return c->snd_una + c->snd_wnd; }

// Two sequence numbers read with READ_ONCE() (tcp_epollin_ready()).
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: declared-wrap
u32 inq(struct conn *c) { return READ_ONCE(c->rcv_nxt) - READ_ONCE(c->copied_seq); }

// The result of wrapping arithmetic wraps too: seq + len - 1.
// REMARK: declared-wrap.c:[[@LINE+2]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: declared-wrap
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: declared-wrap
u32 tskey(struct conn *c) { return c->rcv_nxt + c->len - 1; }

// An element of a wrapping array field.
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: declared-wrap
u32 sack_len(struct conn *c, int i) { return c->sack[i + 1] - c->sack[i]; }

// A parameter declared to wrap, and a local; through a phi.
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: declared-wrap
static u32 dist(u32 __wraps to, u32 from) { return to - from; }
u32 use_dist(u32 a, u32 b) { return dist(a, b); }
u32 advance(struct conn *c, u32 used, int peek)
{
	u32 __wraps seq = peek ? c->copied_seq : c->len;
	// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: declared-wrap
	seq += used;
	return seq;
}

// A global defined here and declared to wrap (kernel/sched/clock.c's
// __sched_clock_offset); one only declared here carries no annotation.
u64 __wraps clock_offset;
extern u64 __wraps far_offset;
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on add: declared-wrap
u64 local_clock(u64 raw) { return raw + clock_offset; }
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
u64 far_clock(u64 raw) { return raw + far_offset; }

// The address of a pointer declared to wrap (mm/percpu.c's pcpu_base_addr,
// which may lie below the per-CPU section it is translated against).
void *__wraps base_addr;
extern char section_start[];
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: declared-wrap
u64 base_delta(void) { return (u64)base_addr - (u64)section_start; }

// Must keep: no operand declared to wrap. A window plus a length; a
// helper whose parameters are not declared, whatever its callers pass (the
// declaration is the parameter's, not the argument's); a sum only *stored* into a wrapping
// field was computed before it became one (as with overflow behavior
// types); a u64 sum of a widened sequence number (the extension ends it).
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
u32 plain(struct conn *c) { return c->snd_wnd + c->len; }
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
static u32 gap(u32 to, u32 from) { return to - from; }
u32 use_gap(struct conn *c) { return gap(c->rcv_nxt, c->snd_una); }
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
void store_sum(struct conn *c, u32 a, u32 b) { c->rcv_nxt = a + b; }
// REMARK: declared-wrap.c:[[@LINE+1]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
u64 widened(struct conn *c, u64 big) { return (u64)c->rcv_nxt + big; }

// The declaration is the slot's, not the value's (the wrap oracle's
// declared family): a parameter given to a declared local, or a plain
// local stored into one, is not declared itself; nor is a parameter given
// to a declared field of a local struct (promoted by SROA). Promotion
// makes the stored value and the one read back one value: -O0 took the
// first two checks for declared-wrap, -O0 and -O2 the third, and -O2
// missed the declared local's own read (`given`).
// REMARK: declared-wrap.c:[[@LINE+3]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: declared-wrap
// REMARK: declared-wrap.c:[[@LINE+3]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
u32 given(u32 a, u32 b, u32 lim) {
	u32 __wraps w = a; sink(w - b);
	return a - lim;
}
// REMARK: declared-wrap.c:[[@LINE+3]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
// REMARK: declared-wrap.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on add
u32 stored_back(u32 b, u32 lim) {
	u32 s = b - lim;
	u32 __wraps w = s; sink(w);
	return s + 1;
}
// REMARK: declared-wrap.c:[[@LINE+4]]:{{[0-9]+}}: remark: removed unsigned-integer-overflow check on sub: declared-wrap
// REMARK: declared-wrap.c:[[@LINE+4]]:{{[0-9]+}}: remark: kept unsigned-integer-overflow check on sub
u64 field_given(u64 a, u64 b, u64 lim) {
	struct { long pad0; u64 __wraps w; long pad1; } L; L.w = a; L.pad0 = 1;
	sink(L.w - b);
	return a - lim;
}
