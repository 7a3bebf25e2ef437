"""The `meaning` and `chain` families of shapes.py: results that are true
although a step wraps, and results that are not although none does.

meaning (signed-meaning, llvm-pass/idioms/SignedMeaning.h): unsigned
arithmetic on signed C values, where only the front end knows the C types
(the programs that draw it are built with its facts, run.py):

  offset    `x + d`, `x - d`, `d + x` with d a long (an int), the result
            sunk, returned or stored as unsigned long, kept in an unsigned
            local, in a signed one (`long r = x + d`), or passed to
            sink_long(long) (zero-extended from a u32: read as unsigned)
  adjust    `x -= (long)d`, `x += d` on an unsigned parameter, d of a
            narrower or the same signed type
  neg       `-n` passed to sink_long(), stored to a long or an unsigned
            local, returned from a long (int) function
  diff      `long d = a - b` (`int d = a - b` on u32), `a + b` so; and the
            variations that give the front end nothing to say: the
            difference kept in an unsigned local used before its
            conversion, picked by a conditional first
  compound  `s += u`, `s -= u` with s a long (an int) and u unsigned
  ret       `return a - b;`, `int r = a - b; return r;`, `return x + d;`
            from a function returning int (long)

then signed readings of a signed result (a comparison with `lim`, sunk,
stored, passed on), unsigned ones of an unsigned one. The arguments are
the boundary-heavy tuples of inputs.py: `5 + -1` (the unsigned add wraps,
the true result fits), `0 + -1`, `2^63 - 0` read as a long (out of range,
no unsigned wrap).

chain (final-result, llvm-pass/idioms/FinalResult.h): expressions whose
steps wrap and come back, `end - start + 1` of an empty range (in a
quarter of the calls end = start - 1, run.relate()), round_up(x, m) as
`((x - 1) | m) + 1`, `min + gap - 1` ending at the top (min + gap = 2^N),
`(c << (s & (N - 1))) - 1` (c << s = 2^N), `a - b + c` through a
single-use local (c = b - a); `start + len - 1`, which does not come back
for 0 + 0; `x + d - 1` with d signed; and the shapes that stay plain
checks: the inner value used twice, round_down()'s negative mask `((x - 1)
& ~m) + m + 1`. The result is sunk, returned, stored, kept unsigned or
signed, or passed to sink_long().

The generator does not know which calls are in range: recheck.py judges
each re-check by the oracle's log, in the type the C source reads the
result as (read_as_signed()).
"""
from lang import TYPES, C, V, bin_, cmax, cmp, signed_of


class ResultFamilies:
    """Gen's meaning and chain families (a mixin: it uses Gen's pick(),
    chance(), self.r, self.ret and self.relations)."""

    # -- the readings of a result -----------------------------------------
    def signed_uses(self, name, sty):
        out = []
        for _ in range(self.r.randint(1, 2)):
            out.append(self.pick(
                ('if', cmp(self.pick('<', '>', '<=', '>='), V(name),
                           V('lim')), [('ret', C(1, 'i32'))], []),
                ('if', cmp('<', V(name), C(0, sty)), [('ret', C(5, 'i32'))],
                 []),
                ('sink', V(name)), ('store', V(name)),
                ('sinkl', V(name)),
                ('ret', cmp('>', V(name), V('lim')))))
        return out

    def unsigned_uses(self, name, ty):
        out = []
        for _ in range(self.r.randint(1, 2)):
            out.append(self.pick(
                ('sink', V(name)), ('store', V(name)), ('ret', V(name)),
                ('if', cmp('>', V(name), ('cast', ty, V('lim'))),
                 [('ret', C(2, 'i32'))], [])))
        return out

    def consume(self, e, ty, sty, kinds):
        """Statements that read e (of type ty) one of the ways in kinds:
        'sink', 'ret', 'store' (unsigned long), 'u' (an unsigned local),
        's' (a signed local), 'sinkl' (a long parameter)."""
        kind = self.pick(*kinds)
        if kind == 'u':
            return [('decl', ty, 's', e)] + self.unsigned_uses('s', ty)
        if kind == 's':
            return [('decl', sty, 'r', e)] + self.signed_uses('r', sty)
        return [(kind, e)]

    # -- meaning ------------------------------------------------------------
    def meaning(self):
        ty = self.pick('u64', 'u64', 'u32')
        sty = signed_of(ty)
        kind = self.pick('offset', 'offset', 'adjust', 'neg', 'diff', 'diff',
                         'compound', 'ret')
        params, body = getattr(self, 'meaning_' + kind)(ty, sty)
        return params, body + [('ret', C(0, 'i32'))]

    def meaning_offset(self, ty, sty):
        params = [(ty, 'x'), (sty, 'd'), (sty, 'lim')]
        op = self.pick('+', '-')
        e = bin_(op, ty, V('d'), V('x')) if self.chance(0.3) else \
            bin_(op, ty, V('x'), V('d'))
        return params, self.consume(e, ty, sty, ('sink', 'ret', 'store', 'u',
                                                 's', 's', 'sinkl'))

    def meaning_adjust(self, ty, sty):
        dty = self.pick(sty, 'i32' if ty == 'u64' else 'i16')
        params = [(ty, 'x'), (dty, 'd'), (ty, 'lim')]
        body = []
        for _ in range(self.r.randint(1, 2)):
            op = self.pick('-', '-', '+')
            rhs = ('cast', sty, V('d')) if dty != sty and self.chance(0.6) \
                else V('d')
            body.append(('set', 'x', bin_(op, ty, V('x'), rhs), op))
        body += self.unsigned_uses('x', ty)
        return params, body

    def meaning_neg(self, ty, sty):
        params = [(ty, 'n'), (sty, 'lim')]
        e = ('neg', ty, V('n'))
        if self.chance(0.25):
            self.ret = sty
            return params, [('ret', e)]
        return params, self.consume(e, ty, sty, ('sinkl', 'sinkl', 's', 's',
                                                 'u'))

    def meaning_diff(self, ty, sty):
        params = [(ty, 'a'), (ty, 'b'), (sty, 'lim')]
        e = bin_(self.pick('-', '-', '+'), ty, V('a'), V('b'))
        way = self.pick('fact', 'fact', 'fact', 'twouse', 'picked')
        if way == 'twouse':  # no fact: converted from the variable
            body = [('decl', ty, 't', e), (self.pick('sink', 'store'), V('t')),
                    ('decl', sty, 'd', V('t'))]
        elif way == 'picked':  # no fact: a conditional picks it first
            body = [('decl', sty, 'd', ('sel', cmp('<', V('a'), V('b')),
                                        C(0, ty), e))]
        else:
            body = [('decl', sty, 'd', e)]
        return params, body + self.signed_uses('d', sty)

    def meaning_compound(self, ty, sty):
        params = [(sty, 's'), (ty, 'u'), (sty, 'lim')]
        op = self.pick('+', '-')
        body = [('set', 's', bin_(op, ty, V('s'), V('u')), op)]
        return params, body + self.signed_uses('s', sty)

    def meaning_ret(self, ty, sty):
        self.ret = sty
        if self.chance(0.3):
            params = [(ty, 'x'), (sty, 'd'), (sty, 'lim')]
            return params, [('ret', bin_(self.pick('+', '-'), ty, V('x'),
                                         V('d')))]
        params = [(ty, 'a'), (ty, 'b'), (sty, 'lim')]
        e = bin_('-', ty, V('a'), V('b'))
        if self.chance(0.5):
            return params, [('ret', e)]
        body = [('decl', sty, 'r', e)]
        if self.chance(0.5):
            body.append(('if', cmp('<', V('r'), V('lim')),
                         [('ret', V('lim'))], []))
        return params, body + [('ret', V('r'))]

    # -- chain --------------------------------------------------------------
    def chain(self):
        ty = self.pick('u64', 'u64', 'u32')
        sty, bits = signed_of(ty), TYPES[ty][1]
        kind = self.pick('size', 'size', 'round_up', 'round_up', 'gap_top',
                         'shift', 'local', 'local', 'end', 'twice', 'down',
                         'signed_leaf')
        one = C(1, ty)
        lim = (ty, 'lim')
        if kind == 'size':  # resource_size() of an empty resource
            params = [(ty, 'start'), (ty, 'end'), lim]
            e = bin_('+', ty, bin_('-', ty, V('end'), V('start')), one)
            self.relations = [('end', lambda v: v['start'] - 1)]
        elif kind in ('round_up', 'down'):
            m = self.pick(7, 63, 4095)
            params = [(ty, 'x'), lim]
            x1 = bin_('-', ty, V('x'), one)
            if kind == 'round_up':
                e = bin_('+', ty, bin_('|', ty, x1, C(m, ty)), one)
            else:  # round_down(x - 1, m + 1) + m + 1: a negative mask
                e = bin_('+', ty, bin_('&', ty, x1, C(cmax(ty) - m, ty)),
                         C(m + 1, ty))
        elif kind == 'gap_top':  # a maple tree gap ending at the top
            params = [(ty, 'min'), (ty, 'gap'), lim]
            e = bin_('-', ty, bin_('+', ty, V('min'), V('gap')), one)
            self.relations = [('gap', lambda v: -v['min'])]
        elif kind == 'shift':  # xarray's (64UL << 58) - 1
            c = self.pick(64, 256, 3, 1)
            params = [(ty, 'sh'), lim]
            e = bin_('-', ty, bin_('<<', ty, C(c, ty),
                                   bin_('&', ty, V('sh'), C(bits - 1, ty))),
                     one)
            if c & (c - 1) == 0 and c > 1:
                self.relations = [('sh', lambda v: bits - (c.bit_length() - 1))]
        elif kind in ('local', 'twice'):
            params = [(ty, 'a'), (ty, 'b'), (ty, 'c'), lim]
            pre = [('decl', ty, 't', bin_('-', ty, V('a'), V('b')))]
            if kind == 'twice':  # t's value used twice: no expression
                pre.append(self.pick(('sink', V('t')), ('store', V('t'))))
            e = bin_('+', ty, V('t'), V('c'))
            self.relations = [('c', lambda v: v['b'] - v['a'])]
            return params, pre + self.chain_result(e, ty, sty)
        elif kind == 'end':  # does not come back for 0 + 0
            params = [(ty, 'start'), (ty, 'len'), lim]
            e = bin_('-', ty, bin_('+', ty, V('start'), V('len')), one)
        else:  # a signed leaf: x + d - 1
            params = [(ty, 'x'), (sty, 'd'), lim]
            op = self.pick('+', '-')
            e = bin_('-' if op == '+' else '+', ty,
                     bin_(op, ty, V('x'), V('d')), one)
        return params, self.chain_result(e, ty, sty)

    def chain_result(self, e, ty, sty):
        return self.consume(e, ty, sty, ('sink', 'ret', 'store', 'u', 'u',
                                         's', 'sinkl')) + \
            [('ret', C(0, 'i32'))]
