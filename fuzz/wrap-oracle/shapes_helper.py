"""The `helper` family of shapes.py: checked arithmetic in a small static
helper, `static T h(T a, T b) { return a op b; }` (lang.py's 'call'), and
callers that handle the returned value as the in-function proofs accept
for an inline `a op b`, or not.

A helper's check may go only when every call handles the wrap, so helpers
are shared: a function calls one of the program's helpers (of any type,
with its operation) or a new one, perhaps twice, perhaps a second one of
its type. Each call site takes one shape:

  test     e = h(A, B); [sign test]; if (wrap test) K; uses of e
           (guarded-use; for a product `A && e / A != B`, mul-div)
  bounds   the same with a bound first: if (e > lim || wrap test) K
  direct   if (h(A, B) < A) K; perhaps sink(h(A, B)) after it (add-compare,
           and the sum computed again where the test says it cannot wrap)
  before   e used (sink, store) before its test
  plain    h(A, B) returned, sunk, stored, or kept and used untested
  unused   (void)h(A, B), or e = h(A, B) never read
  align    PAGE_ALIGN through the helper: (h(A, 4095) & ~4095) == 0 (an
           unsigned sum's align-zero)

with the variations that make a test wrong: the other operand, `lim`, the
other direction or strictness, either order, a signed operand of unknown
sign (no sign test, or one of the other operand), the wrap side falling
through (wrap_action()). Arguments are parameters, constants (negative
ones for signed helpers), expressions of a parameter (`a & 65535`, `a >>
1`, the checked `a + 1`) passed as they are or kept in a local first. The
generator does not know which calls handle the wrap: judge.py decides each
call's operation from the oracle's log, and run.py judges the helper's
removed check by all of them.
"""
from lang import TYPES, C, V, bin_, cmax, cmp

FIELD_HELPER = 'hf_'  # a helper that reads its operands from o's fields

SWAP = {'<': '>', '<=': '>=', '>': '<', '>=': '<='}


class HelperFamily:
    """Gen's helper family (a mixin: it uses Gen's pick(), chance(),
    int_ty(), const(), wrap_action(), uses() and self.helpers, the
    program's helpers so far as (name, op, ty))."""

    def helper_def(self, ty=None):
        """A helper to call: one of the program's (of type ty if given),
        or a new one."""
        old = [h for h in self.helpers if ty is None or h[2] == ty]
        if old and self.chance(0.5):
            return self.pick(*old)
        ty = ty or self.int_ty()
        # Products of unsigned types only: the caller's test divides, and
        # INT_MIN / -1 traps.
        op = self.pick('+', '+', '-') if TYPES[ty][2] else \
            self.pick('+', '+', '-', '*')
        h = ('h_%d' % len(self.helpers), op, ty)
        self.helpers.append(h)
        return h

    def helper(self):
        h = self.helper_def()
        ty = h[2]
        params = [(ty, 'a'), (ty, 'b'), (ty, 'lim')]
        body = []
        if self.chance(0.25):  # two calls: the same helper, or another
            second = h if self.chance(0.7) else self.helper_def(ty)
            body += self.helper_site(h, '', False)
            h = second
            body += self.helper_site(h, '2', True)
        else:
            # A quarter of the lone calls go to a helper of their own that
            # reads both operands from fields of the caller's object o,
            # stored just before the call (render.py: `hf_N(o)`, `return
            # o->f_xN op o->f_yN;`); the caller's tests read the fields.
            # Drawn from the side stream: the other programs stay as they
            # were.
            if self.side.random() < 0.25:
                h = ('%s%d' % (FIELD_HELPER, self.side.randrange(10 ** 6)),
                     h[1], h[2])
            body += self.helper_site(h, '', True)
        body.append(('ret', C(0, 'i32')))
        return params, body

    # -- the arguments ------------------------------------------------
    def helper_const(self, ty, nonzero=False):
        c = self.const(ty)
        if nonzero and c[1] == 0:
            c = C(16, ty)
        if TYPES[ty][2] and self.chance(0.3):
            c = C(-max(c[1], 1), ty)
        return c

    def helper_args(self, op, ty, sfx):
        """(A, B, statements before the call): the call's arguments."""
        pre = []
        first, second = self.pick(('a', 'b'), ('a', 'b'), ('b', 'a'),
                                  ('a', 'lim'))

        def arg(name, local):
            r = self.r.random()
            if r < 0.65:
                return V(name)
            if r < (0.72 if local == 'x' else 0.82):
                return self.helper_const(ty, op == '*')
            e = self.pick(bin_('&', ty, V(name), C(0xffff, ty)),
                          bin_('>>', ty, V(name), C(1, ty)),
                          bin_('+', ty, V(name), C(1, ty)))
            if op == '*' or self.chance(0.5):  # kept in a local first
                pre.append(('decl', ty, local + sfx, e))
                return V(local + sfx)
            return e
        A, B = arg(first, 'x'), arg(second, 'y')
        # Not both constant: the operation would wrap in every run or in
        # none, and the judge, which learns a wrap test from runs that
        # wrap and runs that do not, could tell no test from the rest.
        if A[0] == 'const' and B[0] == 'const':
            B = V(second)
        return A, B, pre

    # -- the tests ------------------------------------------------------
    def helper_test(self, op, ty, e, A, B, up):
        """A test of the result e of A op B that may be its wrap test; up:
        does a wrap of a sum or difference land below A (B's sign)?"""
        if op == '*':
            x, y = self.pick((A, B), (A, B), (B, A), (A, A))
            test = cmp(self.pick('!=', '!=', '!=', '=='),
                       bin_('/', ty, e, x), y)
            # A product's arguments are variables or constants other than
            # 0 (helper_args()): divide by a variable only if it is not 0.
            return ('and', x[1], test) if x[0] == 'var' else test
        if self.chance(0.6):  # the right direction against A, or not strict
            pred = '<' if up else '>'
            if self.chance(0.2):
                pred += '='
            other = B if op == '+' and self.chance(0.3) else A
        else:
            pred = self.pick('<', '<=', '>', '>=')
            other = self.pick(A, A, B, V('lim'))
        if self.chance(0.7):
            return cmp(pred, e, other)
        return cmp(SWAP[pred], other, e)

    def helper_sign(self, ty, A, B):
        """For a signed helper: perhaps a test that leaves unless B (or,
        wrongly, A) has one sign. Returns (statements, does a wrap land
        below A as far as the program's tests say?)."""
        up = True
        if B[0] == 'const':
            return [], B[1] >= 0
        if not TYPES[ty][2] or not self.chance(0.6):
            return [], up
        pred = self.pick('<', '>=')
        # Not of a constant: the test would decide the same in every run.
        what = B if self.chance(0.8) or A[0] == 'const' else A
        return [('if', cmp(pred, what, C(0, ty)), [('ret', C(3, 'i32'))],
                 [])], pred == '<'

    # -- a call site ----------------------------------------------------
    def helper_site(self, h, sfx, last):
        """The statements of one call of helper h; last: the function's
        last call (an earlier one leaves no unconditional return)."""
        name, op, ty = h
        A, B, out = self.helper_args(op, ty, sfx)
        kinds = ['test'] * 4 + ['bounds', 'direct', 'before', 'plain',
                                'unused']
        if op == '+' and not TYPES[ty][2]:
            kinds.append('align')
        kind = self.pick(*kinds)
        if kind == 'align':
            add = self.pick(4095, 4095, 63, 8191)
            B = C(add, ty)
        call = ('call', name, op, ty, A, B)
        guard, up = self.helper_sign(ty, A, B)
        if name.startswith(FIELD_HELPER):  # the arguments stored in o
            fx, fy = 'f_x' + name[3:], 'f_y' + name[3:]
            out += [('decl', ty, fx, A), ('decl', ty, fy, B)]
            A, B = V(fx), V(fy)
            call = ('call', name, op, ty, A, B)
        up = up if op == '+' else not up
        e = 'e' + sfx

        def uses(v):
            if last:
                return self.uses(v, ty, 'lim')
            return [self.pick(('sink', V(v)), ('store', V(v)))
                    for _ in range(self.r.randint(0, 2))]
        if kind == 'align':
            al = 'al' + sfx
            mask = {4095: 4095, 63: 63, 8191: 4095}[add]
            out.append(('decl', ty, al, bin_('&', ty, call,
                                              C(cmax(ty) - mask, ty))))
            if self.chance(0.3):
                out.append(('if', cmp(self.pick('>', '<', '=='), V(al),
                                      V('lim')), [('ret', C(2, 'i32'))],
                            []))
            zero = self.pick(cmp('==', V(al), C(0, ty)),
                             cmp('==', V(al), C(0, ty)),
                             cmp('<', V(al), C(4096, ty)),
                             cmp('==', V(al), C(4096, ty)))
            out.append(('if', zero, self.wrap_action(), []))
            return out + uses(al)
        if kind == 'direct':
            out += guard
            out.append(('if', self.helper_test(op, ty, call, A, B, up),
                        self.wrap_action(), []))
            if self.chance(0.5):  # computed again past the test
                out.append(self.pick(('sink', call), ('store', call)) if
                           not last or self.chance(0.5) else ('ret', call))
            return out
        if kind == 'plain':
            if self.chance(0.5):
                return out + [('decl', ty, e, call)] + uses(e)
            return out + [self.pick(('sink', call), ('store', call)) if not
                          last else self.pick(('sink', call), ('ret', call),
                                              ('store', call))]
        if kind == 'unused':
            return out + [self.pick(('eval', call), ('decl', ty, e, call))]
        before = self.chance(0.6)
        if before:
            out += guard
        out.append(('decl', ty, e, call))
        if not before:
            out += guard
        if kind == 'before':
            out.append(self.pick(('sink', V(e)), ('store', V(e))))
        test = self.helper_test(op, ty, V(e), A, B, up)
        if kind == 'bounds':
            test = ('or', cmp('>', V(e), V('lim')), test)
        out.append(('if', test, self.wrap_action(), []))
        return out + uses(e)
