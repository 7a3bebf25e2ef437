/* Pointer cases; built without -fwrapv: clang emits pointer-overflow checks
 * only without -fwrapv-pointer (and clang 19 also drops them under -fwrapv). */
#include "cases.h"

#define noinline __attribute__((noinline))

struct item { int a; char b; };

noinline int ptr_char(void) { char *p = top_ptr; size_t n = 64; return p + n < p; }
noinline int ptr_struct(void) { struct item *p = (struct item *)top_ptr; size_t n = 8; if (p + n < p) return 1; return 0; }
/* A signed offset of unknown sign: `q < p` is not an exact wrap test. */
noinline int keep_ptr_signed_offset(void) { char *p = top_ptr; long off = (long)two * 32; return p + off < p; }
noinline int keep_ptr_used(void) { char *p = top_ptr; size_t n = 64; sink((size_t)(uintptr_t)(p + n)); return 0; }
