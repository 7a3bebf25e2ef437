// dead-value (llvm-pass/IDIOMS.md), issue 24: a counter updated on an object
// that is freed right after (`obj->stat += n; kfree(obj);`). What the store
// writes is read by nobody when every path from it frees the object first:
// reading it after is a use after free. Deallocators: the C library's free()
// (LLVM's TargetLibraryInfo) and the kernel's kfree(), kvfree(),
// kfree_sensitive(); not kfree_rcu()/call_rcu(), kmem_cache_free() or a
// release callback. Next to them the counterexamples that must keep their
// checks. Same decisions at -O0 and -O2.
//
// RUN: %clang_plugin -O0 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// RUN: %clang_plugin -O2 -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom -Rpass-missed=wrap-idiom \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s
// Without the C library's free() (-fno-builtin-free: a function like any
// other), the libc shape keeps its check; the kernel's names stay.
// RUN: %clang_plugin -O0 -fno-builtin-free -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=NOBUILTIN %s
// RUN: %clang_plugin -O2 -fno-builtin-free -fsanitize=unsigned-integer-overflow -Rpass=wrap-idiom \
// RUN:   -Rpass-missed=wrap-idiom -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=NOBUILTIN %s

typedef unsigned long u64;
typedef unsigned long size_t;
struct obj;
struct obj_ops { void (*release)(struct obj *); };
struct rcu_head { struct rcu_head *next; void (*func)(struct rcu_head *); };
struct obj {
	u64 refs, stat, bytes;
	struct obj *child;
	void *buf;
	const struct obj_ops *ops;
	struct rcu_head rcu;
	struct { u64 count; } ref;
};
struct kmem_cache;

void free(void *);
void kfree(const void *);
void kvfree(const void *);
void kfree_sensitive(const void *);
void kvfree_call_rcu(struct rcu_head *, void *);
void call_rcu(struct rcu_head *, void (*)(struct rcu_head *));
void kmem_cache_free(struct kmem_cache *, void *);
void obj_destroy(struct obj *);
void sink(u64);
u64 total;

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

// The kernel's shape: a statistic, then the object goes.
void stat_kfree(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value (the value is never read: unused, or stored and overwritten, or its object freed, before any read)
	kfree(o);
}

// The last reference dropped: the count goes down, the object goes.
void refs_kfree(struct obj *o)
{
	o->refs--; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on sub: dead-value
	kfree(o);
}

void stat_kvfree(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	kvfree(o);
}

void stat_kfree_sensitive(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	kfree_sensitive(o);
}

// The C library's shape.
// NOBUILTIN: freed.c:[[@LINE+3]]:{{.*}} kept unsigned-integer-overflow check on add
void stat_free(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	free(o);
}

// Two counters, the second's check between the first and the free; other
// fields read and written in between (no alias: another field), another
// object (the buffer) freed first.
// NOBUILTIN: freed.c:[[@LINE+4]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
// NOBUILTIN: freed.c:[[@LINE+4]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
void two_counters(struct obj *o, u64 n, u64 len)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	o->bytes += len; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	total = o->refs;
	o->refs = 0;
	kfree(o->buf);
	kfree(o);
}

// container_of(): the address the store writes and the one freed have the
// same base.
void put_ref(void *ref, u64 n)
{
	struct obj *o = container_of(ref, struct obj, ref);
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	kfree(o);
}

// Freed on every path, by either deallocator.
void both_paths(struct obj *o, u64 n, int vm)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} removed unsigned-integer-overflow check on add: dead-value
	if (vm)
		kvfree(o);
	else
		kfree(o);
}

// Must keep: the field read between the store and the free.
void read_between(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	sink(o->stat);
	kfree(o);
}

// Must keep: a call taking the object (a destructor) comes first.
void destroy_between(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	obj_destroy(o);
	kfree(o);
}

// Must keep: the object's release callback reads it first.
void release_between(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	o->ops->release(o);
	kfree(o);
}

// Must keep: another object is freed.
void other_object(struct obj *o, struct obj *p, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	kfree(p);
}

// Must keep: the wrapped value is also stored elsewhere.
void also_stored(struct obj *o, u64 n)
{
	u64 s = o->stat + n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	o->stat = s;
	total = s;
	kfree(o);
}

// Must keep: the wrapped value is returned.
u64 also_returned(struct obj *o, u64 n)
{
	u64 s = o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	kfree(o);
	return s;
}

// Must keep: freed on one path only; the other keeps the object.
void one_path(struct obj *o, u64 n, int last)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	if (last)
		kfree(o);
}

// Must keep: kfree_rcu() (kvfree_call_rcu()), call_rcu(): RCU readers may
// read the object until a grace period has passed.
void rcu_free(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	kvfree_call_rcu(&o->rcu, o);
}

void rcu_callback(struct rcu_head *);
void rcu_call(struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	call_rcu(&o->rcu, rcu_callback);
}

// Must keep: kmem_cache_free(): a SLAB_TYPESAFE_BY_RCU cache keeps the
// memory readable.
void cache_free(struct kmem_cache *c, struct obj *o, u64 n)
{
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	kmem_cache_free(c, o);
}

// Must keep: the field of an object reached through the freed one (the
// child outlives it).
void child_field(struct obj *o, u64 n)
{
	o->child->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
	kfree(o);
}

// Must keep: the object is computed anew on the way to the free (a list
// walked): only the last one is freed, the others keep their sums.
void list_walk(struct obj *o, u64 a, u64 b)
{
	for (;;) {
		o->stat = a + b; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
		if (!o->child)
			break;
		o = o->child;
	}
	kfree(o);
}

// A use after free (freed before the store): nothing to prove, kept.
void freed_first(struct obj *o, u64 n)
{
	kfree(o);
	o->stat += n; // REMARK: freed.c:[[@LINE]]:{{.*}} kept unsigned-integer-overflow check on add: the sum is used by 'store' before any wrap test
}
