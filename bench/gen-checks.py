#!/usr/bin/env python3
"""bench/gen-checks.py - one C function with N checked unsigned additions.

Usage: bench/gen-checks.py [--straight] N > checks-N.c

N is the number of overflow checks clang emits for the function with
-fsanitize=unsigned-integer-overflow.

The additions come in the shapes the plugin meets in real code, in turn, on
fields of a struct the function receives (so that the operands stay loads
after promotion and memory reasoning is needed), with stores in between:

  add-compare       if (p->a[k] + p->b[k] < p->a[k]) return -1;
  guarded use       s = p->a[k] + n; if (s < n) return -2; p->c[k] = s;
  bounds-and-wrap   if (p->a[k] + len > lim || p->a[k] + len < len) return -3;
                    p->c[k] = p->a[k] + len;
  local guard       t = x + p->b[k]; if (t < x) goto err; x = t;
  unhandled         p->c[k] = p->a[k] + p->b[k];          (kept)
  loop counter      while (m--) p->c[k] ^= m;              (a few)

--straight: one basic block instead, no early exits, in three shapes:
  p->c[k] = p->a[k] + p->b[k];  x += p->a[k];
  if (p->a[k] + p->b[k] < p->a[k]) x ^= 1;

k cycles through K fields, so structurally equal expressions recur every
K additions, as in a long function that works on the same structure.
"""
import sys

K = 16


def straight(n):
    out = [
        "struct S { unsigned long a[%d], b[%d], c[%d]; };" % (K, K, K),
        "",
        "unsigned long checks(struct S *p, unsigned long x) {",
    ]
    for i in range(n):
        k = i % K
        a, b, c = "p->a[%d]" % k, "p->b[%d]" % k, "p->c[%d]" % k
        if i % 3 == 0:
            out.append("  %s = %s + %s;" % (c, a, b))
        elif i % 3 == 1:
            out.append("  x += %s;" % a)
        else:
            out.append("  if (%s + %s < %s) x ^= 1;" % (a, b, a))
    out += ["  return x;", "}", ""]
    return out


def main():
    args = sys.argv[1:]
    mix = "branches"
    if args and args[0] == "--straight":
        mix = "straight"
        args = args[1:]
    n = int(args[0]) if args else 1000
    if mix == "straight":
        sys.stdout.write("\n".join(straight(n)))
        return
    out = [
        "struct S { unsigned long a[%d], b[%d], c[%d]; };" % (K, K, K),
        "",
        "int checks(struct S *p, unsigned long n, unsigned long len,",
        "           unsigned long lim, unsigned long x) {",
        "  unsigned long s, t, m;",
    ]
    shapes = 6
    # checks each shape makes (m-- is a checked subtraction)
    cost = [1, 1, 3, 1, 1, 2]
    made, i = 0, 0
    while made < n:
        i += 1
        k = i % K
        sh = (i // K + i) % shapes
        if made + cost[sh] > n:
            sh = 0
        made += cost[sh]
        a, b, c = "p->a[%d]" % k, "p->b[%d]" % k, "p->c[%d]" % k
        if sh == 0:
            out.append("  if (%s + %s < %s) return -1;" % (a, b, a))
        elif sh == 1:
            out.append("  s = %s + n; if (s < n) return -2; %s = s;" % (a, c))
        elif sh == 2:
            out.append("  if (%s + len > lim || %s + len < len) return -3;"
                       % (a, a))
            out.append("  %s = %s + len;" % (c, a))
        elif sh == 3:
            out.append("  t = x + %s; if (t < x) goto err; x = t;" % b)
        elif sh == 4:
            out.append("  %s = %s + %s;" % (c, a, b))
        else:
            # a loop counter, and a plain checked add beside it
            out.append("  m = %s + 1; while (m--) %s ^= m;" % (b, c))
    out += ["  return (int)x;", "err:", "  return -4;", "}", ""]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
