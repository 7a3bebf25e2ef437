"""The `declared` family of shapes.py: arithmetic on values declared to
wrap (declared-wrap, llvm-pass/analysis/DeclaredWrap.h), and beside it
arithmetic that is not.

A value is declared `__wraps` (render.py writes the kernel's
`__attribute__((annotate("wrap-idiom:wrap")))`) as a parameter (`w_a`), a
local (`w_s`), a field of a local struct (`L.m_w_s`) or of a heap object
(`o->f_w_s`), given a parameter, 0, `lim`, or a sum of undeclared values
(whose own check stays: it was computed before it became one). Then one to
three operations, each sunk, returned, stored, kept in a plain local and
used, or tested against `lim`:

  with a declared operand   `w + b`, `w - b`, `b - w`, `w * b`, `-w`,
                            `w + b - 1` (the result of wrapping arithmetic
                            wraps), `(w & 255) + b`, `(u32)w64 + b` (a
                            truncation), `w += b`, a plain copy `c = w`
                            then `c - b` (the value flows);
  without one               `a + lim`, `b - lim`, `(u64)w32 + C` (a
                            widening ends it), `w = b + lim` (the sum is
                            computed before it is stored), the argument a
                            declared local was given (`w_t = b; b - lim`),
                            a plain local stored into a declared one and
                            used again (`s = b - lim; w = s; s + 1`).

declared.py decides which operations have a declared operand, on the C
source; run.py fails a declared-wrap removal of one that has none, and
counts, but does not fail, the wraps of those that have one.
"""
from lang import C, V, bin_, cmax, cmp


class DeclaredFamily:
    """Gen's declared family (a mixin: it uses Gen's pick(), chance(),
    wrap_action() and self.r)."""

    def declared(self):
        ty = self.pick('u32', 'u32', 'u64')
        holder = self.pick('param', 'local', 'local', 'field', 'object',
                           'none')
        a = 'w_a' if holder == 'param' else 'a'
        params = [(ty, a), (ty, 'b'), (ty, 'lim')]
        body = []
        w = a
        if holder in ('local', 'field', 'object'):
            w = {'local': 'w_s', 'field': 'm_w_s', 'object': 'f_w_s'}[holder]
            init = self.pick(V('a'), V('a'), C(0, ty), V('lim'),
                             bin_('+', ty, V('a'), V('b')))
            body.append(('decl', ty, w, init))
        for n in range(self.r.randint(1, 3)):
            body += self.declared_op(ty, w, 'v%d' % n)
        if holder == 'object':
            body.append(('free', 'q'))
            body.append(('free', 'o'))
        body.append(('ret', C(0, 'i32')))
        return params, body

    def declared_op(self, ty, w, name):
        """Statements of one operation with (or without) a declared
        operand w, its value used."""
        W, B, LIM = V(w), V('b'), V('lim')
        pre = []
        kinds = ['add', 'sub', 'rsub', 'mul', 'neg', 'chain', 'mask',
                 'compound', 'copy', 'plain', 'plain', 'widen', 'store_sum',
                 'given', 'back']
        if ty == 'u64':
            kinds.append('trunc')
        kind = self.pick(*kinds)
        rty = ty
        if kind in ('add', 'sub', 'mul'):
            e = bin_({'add': '+', 'sub': '-', 'mul': '*'}[kind], ty, W, B)
        elif kind == 'rsub':
            e = bin_('-', ty, B, W)
        elif kind == 'neg':
            e = ('neg', ty, W)
        elif kind == 'chain':
            e = bin_('-', ty, bin_('+', ty, W, B), C(1, ty))
        elif kind == 'mask':
            e = bin_('+', ty, bin_('&', ty, W, C(255, ty)), B)
        elif kind == 'trunc':
            rty = 'u32'
            e = bin_('+', 'u32', ('cast', 'u32', W), ('cast', 'u32', B))
        elif kind == 'compound':
            op = self.pick('+', '-')
            return [('set', w, bin_(op, ty, W, B), op),
                    self.pick(('sink', W), ('store', W))]
        elif kind == 'copy':
            pre = [('decl', ty, 'c' + name, W)]
            e = bin_('-', ty, V('c' + name), B)
        elif kind == 'plain':
            e = bin_(self.pick('+', '-'), ty, V(self.pick('a', 'b')), LIM)
            if e[3] == V('a') and w == 'w_a':
                e = bin_(e[1], ty, B, LIM)
        elif kind == 'widen':
            rty = 'u64'
            e = bin_('+', 'u64', ('cast', 'u64', W),
                     C(cmax('u64') - 100, 'u64'))
        elif kind == 'store_sum':  # the sum is not the declaration's
            return [('set', w, bin_('+', ty, B, LIM)),
                    self.pick(('sink', W), ('store', W))]
        elif kind == 'given':  # the value given to a declared local
            pre = [('decl', ty, 'w_t' + name, B)]
            e = bin_('-', ty, B, LIM)
        else:  # back: a plain local stored into a declared one
            pre = [('decl', ty, 's' + name, bin_('-', ty, B, LIM)),
                   ('decl', ty, 'w_u' + name, V('s' + name)),
                   self.pick(('sink', V('w_u' + name)),
                             ('store', V('w_u' + name)))]
            e = bin_('+', ty, V('s' + name), C(1, ty))
        use = self.pick('sink', 'sink', 'store', 'keep', 'test')
        if use == 'keep':
            return pre + [('decl', rty, name, e),
                          self.pick(('sink', V(name)), ('store', V(name)),
                                    ('if', cmp('>', V(name), ('cast', rty,
                                                              LIM)),
                                     [('ret', C(2, 'i32'))], []))]
        if use == 'test':
            return pre + [('if', cmp(self.pick('<', '>'), e, ('cast', rty,
                                                             LIM)),
                           self.wrap_action(), [])]
        return pre + [(use, e)]
