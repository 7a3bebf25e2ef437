"""The `bounded` family of shapes.py: arithmetic on operands whose range a
dominating comparison, a mask or a constant bounds (issue 39's
cannot-wrap, llvm-pass/idioms/CannotWrap.cpp). The plugin may remove a
check there only when no operand values reach a wrap, so run.py fails a
cannot-wrap removal whose operation wrapped in any run, harmful or not.
And the `bound_leave` family: a sum or difference by a constant bounded by
a constant, the side of the bound that wrapped runs take leaving or not
(guarded-use's test to leave by, mm/mempolicy.c get_nodes())."""
from lang import TYPES, C, V, bin_, cmax, cmin, cmp


class BoundedFamily:
    """Gen's bounded family (a mixin: it uses Gen's pick(), chance() and
    self.r)."""

    def bound_const(self, ty):
        """A bound: small, or near either end of the type."""
        top, low = cmax(ty), cmin(ty)
        vals = [0, 1, 2, 16, 100, 255, 4096, top // 2, top - 15, top - 1,
                top]
        if low < 0:
            vals += [-1, -100, low + 1, low // 2]
        return C(self.pick(*vals), ty)

    def bound(self, x, ty):
        """A comparison bounding x: by a constant, or by another parameter
        (whose own range is the type's)."""
        pred = self.pick('<', '<=', '>', '>=', '!=')
        other = self.bound_const(ty) if self.chance(0.7) else V('lim')
        return cmp(pred, V(x), other)

    def bounded(self):
        """a op b where a is bounded: inside the bound's true side, on its
        false side (the bound turned away), or after it (the bound does not
        dominate: a counterexample), with b a parameter, a small constant or
        a masked parameter, sometimes bounded too; and a bounded field read
        again after an unknown call (a range through memory that may have
        changed)."""
        ty = self.int_ty()
        op = self.pick('+', '+', '-', '*')
        params = [(ty, 'a'), (ty, 'b'), (ty, 'lim')]
        body = []
        a = 'a'
        if self.chance(0.2):  # a field of o, read again after a call
            a = 'f_a'
            body.append(('decl', ty, 'f_a', V('a')))
        rhs = self.pick(V('b'), V('b'), self.bound_const(ty),
                        bin_('&', ty, V('b'), C(self.pick(1, 15, 255), ty)))
        guard_b = rhs == V('b') and self.chance(0.5)
        s = ('decl', ty, 's', bin_(op, ty, V(a), rhs))
        use = [s] + self.pick([('ret', V('s'))], [('sink', V('s'))],
                              [('store', V('s')), ('ret', C(0, 'i32'))])
        if a == 'f_a' and self.chance(0.5):
            use = [('release',)] + use
        where = self.pick('true', 'true', 'false', 'after')
        test = self.bound(a, ty)
        if guard_b:
            use = [('if', self.bound('b', ty), use, [])]
        if where == 'true':
            body.append(('if', test, use, []))
        elif where == 'false':
            body.append(('if', test, [('ret', C(1, 'i32'))], []))
            body += use
        else:
            body.append(('if', test, [('sink', V(a))], []))
            body += use
        body.append(('ret', C(0, 'i32')))
        return params, body

    def bound_leave(self):
        """d = a - K or a + K (K a constant); maybe an equality test of d
        first (returning on equality); then a bound of d by a constant whose one side returns (and
        sometimes uses d there), the other uses d, or the bound's outcome
        returned as all d is for."""
        ty = self.int_ty()
        top = cmax(ty)
        kv = self.pick(1, 1, 2, 8, 16, 4096, top // 2)
        k = C(kv, ty)
        op = self.pick('-', '-', '+')
        body = [('decl', ty, 'd', bin_(op, ty, V('a'), k))]
        params = [(ty, 'a'), (ty, 'r')]
        eq = None
        if self.chance(0.3):
            # `==` only: `if (d != 0) return;` would send every unwrapped
            # run away, and leave the judge no run to learn the bound from.
            eq = self.pick(0, 1, top)
            body.append(('if', cmp('==', V('d'), C(eq, ty)),
                         [('ret', C(2, 'i32'))], []))
        pred = self.pick('<', '<=', '>', '>=')
        lim = self.bound_const(ty)
        # Not half the range: `d <= ULONG_MAX / 2` is serial-compare's
        # modular sign test (intent, which ideal arithmetic does not judge;
        # its own family is `serial`).
        while lim[1] in (top // 2, top // 2 + 1):
            lim = self.bound_const(ty)
        bound = cmp(pred, V('d'), lim)
        # Some calls put d on the value next to the bound on one side or
        # the other (r: a spare argument choosing which), so that the judge
        # sees unwrapped runs take both sides however narrow one is (`d <
        # 1`: {0}); one step further where the equality test above takes
        # that value.
        bv, sign = lim[1], 1 if op == '-' else -1
        lo, hi = (bv - 1, bv) if pred in ('<', '>=') else (bv, bv + 1)
        lo, hi = lo - (lo == eq), hi + (hi == eq)
        self.relations = [('a', lambda v: (hi if v['r'] % 2 else lo) +
                           sign * kv)]
        leave = [('ret', C(1, 'i32'))]
        if self.chance(0.2):
            leave = [('sink', V('d'))] + leave  # used on the leaving side
        use = self.pick([('sink', V('d'))], [('ret', V('d'))],
                        [('store', V('d')), ('ret', C(0, 'i32'))])
        if self.chance(0.15):
            body += [('if', bound, [('ret', C(1, 'i32'))], []),
                     ('ret', C(0, 'i32'))]  # the outcome is all d is for
            return params, body
        if self.chance(0.5):
            body += [('if', bound, leave, [])] + use
        else:
            body.append(('if', bound, use, leave))
        body.append(('ret', C(0, 'i32')))
        return params, body
