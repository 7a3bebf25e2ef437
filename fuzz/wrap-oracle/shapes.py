"""Random functions rich in wrap-test shapes, with random variations.

Every shape family of llvm-pass/IDIOMS.md appears, and around each one the
variations that make it right or wrong: the comparison's operator, order
and operand, signed types with and without a sign test, the action on the
wrap side (leave, fall through, skip), later uses of the value, the
constants of a carry-select, the reduction after modular arithmetic; and
the same arithmetic in a static helper the program calls, handled by some
callers and not by others (family helper, shapes_helper.py); signed C
values in unsigned arithmetic and expressions that wrap and come back
(meaning, chain: shapes_result.py), values declared to wrap (declared:
shapes_declared.py), operands a comparison or a mask bounds (bounded:
shapes_bounded.py), a bound of a result taken to leave (bound_leave:
shapes_bounded.py). The generator does not know which variations are
idioms: judge.py and recheck.py decide from the oracle's log.
"""
import random

from lang import TYPES, C, V, bin_, cmax, cmp
from shapes_bounded import BoundedFamily
from shapes_declared import DeclaredFamily
from shapes_freed import FreedFamily
from shapes_helper import HelperFamily
from shapes_result import ResultFamilies

# Families drawn from the extra stream (Gen.function()).
EXTRA_FAMILIES = ('meaning', 'chain', 'declared', 'bounded', 'bound_leave')


class Gen(HelperFamily, FreedFamily, ResultFamilies, DeclaredFamily,
          BoundedFamily):
    def __init__(self, rng):
        self.r = rng
        self.helpers = []  # the program's helpers (shapes_helper.py)
        # Draws that must not move the main stream (a program that takes
        # none of them is the one the generator made before them): seeded
        # from its state (the ints: hash(None) differs from run to run),
        # without drawing from it.
        self.side = random.Random(hash(rng.getstate()[1]))
        # The extra families' stream (function()), apart from the side one.
        self.extra = random.Random(hash(rng.getstate()[1]) ^ 0x5eed)
        self.ret = 'u64'
        self.shadow = None
        self.relations = []

    def pick(self, *xs):
        return self.r.choice(xs)

    def chance(self, p):
        return self.r.random() < p

    def int_ty(self, signed_ok=True):
        tys = ['u32', 'u64'] + (['i32', 'i64'] if signed_ok else [])
        return self.pick(*tys)

    def const(self, ty, small=False):
        top = cmax(ty)
        vals = [0, 1, 2, 3, 5, 16, 100, 1023, 4096]
        if not small:
            vals += [top, top - 1, top // 2, top - 15]
        v = self.pick(*vals)
        return C(v, ty)

    # -- what the wrap side does, and what happens to the value after ----
    def wrap_action(self):
        return self.pick(
            [('ret', C(1, 'i32'))],
            [('warn',), ('ret', C(22, 'i32'))],
            [('store', C(7, 'u64')), ('goto',)],
            [('warn',)],                  # falls through
            [('store', C(7, 'u64'))],     # falls through
        )

    def uses(self, s, ty, lim):
        out = []
        for _ in range(self.r.randint(0, 2)):
            out.append(self.pick(
                ('sink', V(s)),
                ('store', V(s)),
                ('if', cmp('>', V(s), V(lim)), [('ret', C(2, 'i32'))], []),
                ('ret', cmp('<', V(s), V(lim))),
                ('ret', V(s)),
            ))
        return out

    # -- the families ---------------------------------------------------
    def sum_test(self):
        ty = self.int_ty()
        signed = TYPES[ty][2]
        op = self.pick('+', '-')
        params = [(ty, 'a'), (ty, 'b'), (ty, 'lim')]
        body = []
        if signed and self.chance(0.6):
            pred = self.pick('<', '>=')
            body.append(('if', cmp(pred, V('b'), C(0, ty)),
                         [('ret', C(3, 'i32'))], []))
        s = bin_(op, ty, V('a'), V('b'))
        if op == '+':
            other = self.pick(V('a'), V('a'), V('b'), V('lim'))
            pred = self.pick('<', '<=', '>', '>=')
        else:
            other = self.pick(V('a'), V('a'), V('b'), V('lim'))
            pred = self.pick('>', '>=', '<', '<=')
        direct = self.chance(0.4)
        name = self.pick('s', 's', 'm_s')
        if not direct:
            body.append(('decl', ty, name, s))
            s_expr = V(name)
        else:
            s_expr = s
        test = cmp(pred, s_expr, other) if self.chance(0.7) else \
            cmp({'<': '>', '<=': '>=', '>': '<', '>=': '<='}[pred], other,
                s_expr)
        if self.chance(0.2):  # a bound first, as remoteproc has it
            bound = cmp('>', s_expr, V('lim'))
            body.append(('if', ('or', bound, test), self.wrap_action(), []))
        elif self.side.random() < 0.25:
            # x86's __access_ok(): `if (s <= lim && !wrapped) ok; else
            # handle`, the bound first (the side stream: the programs
            # without it stay the ones made before it).
            flip = {'<': '>=', '<=': '>', '>': '<=', '>=': '<'}
            ok = ('cmp', flip[test[1]]) + tuple(test[2:])
            kind = 'andv' if self.side.random() < 0.5 else 'andc'
            body.append(('if', (kind, cmp('<=', s_expr, V('lim')), ok),
                         [], self.wrap_action()))
        else:
            body.append(('if', test, self.wrap_action(), []))
        if direct:
            if self.chance(0.5):
                body.append(('sink', bin_(op, ty, V('a'), V('b'))))
        else:
            body += self.uses(name, ty, 'lim')
        body.append(('ret', C(0, 'i32')))
        return params, body

    def sign_test(self):
        """A signed sum or difference tested for its sign (`off + len < 0`),
        its operands' signs tested before or after it (sync_file_range()),
        or not; the sum kept in a variable or a local struct's field."""
        ty = self.pick('i32', 'i64')
        op = self.pick('+', '-')
        params = [(ty, 'a'), (ty, 'b'), (ty, 'lim')]
        name = self.pick('s', 's', 'm_s')
        guards = []
        for v in ('a', 'b'):
            if self.chance(0.6):
                guards.append(('if', cmp(self.pick('<', '<', '>='), V(v),
                                         C(0, ty)),
                               [('ret', C(3, 'i32'))], []))
        after = self.chance(0.4)
        body = [] if after else guards
        body.append(('decl', ty, name, bin_(op, ty, V('a'), V('b'))))
        if after:
            body += guards
        pred, c = self.pick(('<', 0), ('<', 0), ('<=', -1), ('>=', 0),
                            ('>', -1), ('<', 1), ('>', 0))
        test = cmp(pred, V(name), C(c, ty)) if self.chance(0.7) else \
            cmp({'<': '>', '<=': '>=', '>': '<', '>=': '<='}[pred], C(c, ty),
                V(name))
        if self.chance(0.2):  # a bound first, as fallocate() had it
            test = ('or', cmp('>', V(name), V('lim')), test)
        body.append(('if', test, self.wrap_action(), []))
        body += self.uses(name, ty, 'lim')
        body.append(('ret', C(0, 'i32')))
        return params, body

    def file_range(self):
        """loff_t ranges (issue 24): a signed sum of an offset and a length,
        both signs tested before or after it (sync_file_range(), the old
        fallocate() checks), then `s < a`, `s < b` or `s < 0`, perhaps a
        bound first; or fadvise's unsigned sum of the two read
        back as signed, `if (!len || (s64)end < len) end = MAX; else
        end--;`. With the variations that make them wrong: a sign tested
        on one path only or not at all, `s < a - 1`, the sum used before
        the test, the other side taken, compared with the other addend."""
        ty = self.pick('i32', 'i64')
        params = [(ty, 'a'), (ty, 'b'), (ty, 'lim')]

        def guard(v):
            pred, c = self.pick(('<', 0), ('<', 0), ('<=', 0), ('>=', 0))
            test = cmp(pred, V(v), C(c, ty))
            if self.chance(0.15):  # on one path only
                test = ('and', 'lim', test)
            return ('if', test, [('ret', C(3, 'i32'))], [])
        if self.chance(0.3):
            return params, self.fadvise(ty, guard)
        guards = [guard(v) for v in ('a', 'b') if self.chance(0.8)]
        after = self.chance(0.4)
        body = [] if after else list(guards)
        name = self.pick('s', 's', 'm_s')
        body.append(('decl', ty, name, bin_('+', ty, V('a'), V('b'))))
        if after:
            body += guards
        if self.chance(0.1):
            body.append(self.pick(('sink', V(name)), ('store', V(name))))

        def test():
            other = self.pick(V('a'), V('b'), C(0, ty), C(0, ty),
                              bin_('-', ty, V('a'), C(1, ty)), V('lim'))
            pred = self.pick('<', '<', '<=', '>=', '>')
            if self.chance(0.7):
                return cmp(pred, V(name), other)
            return cmp({'<': '>', '<=': '>=', '>': '<', '>=': '<='}[pred],
                       other, V(name))
        # One test, perhaps a bound before it. Two tests by || (`s < 0 ||
        # s < a`) are left to the lit tests: with both signs known the
        # second is reached by wrapped runs only, and the judge cannot
        # learn from unwrapped runs that it separates them.
        t = test()
        if self.chance(0.2):  # a bound first
            t = ('or', cmp('>', V(name), V('lim')), t)
        body.append(('if', t, self.wrap_action(), []))
        body += self.uses(name, ty, 'lim')
        body.append(('ret', C(0, 'i32')))
        return params, body

    def fadvise(self, ty, guard):
        """mm/fadvise.c: `end = (u64)offset + (u64)len; if (!len || end <
        len) end = LLONG_MAX; else end--;`, len >= 0 tested, or not."""
        uty = {'i32': 'u32', 'i64': 'u64'}[ty]
        body = [guard('b')] if self.chance(0.7) else []
        body.append(('decl', uty, 'e', bin_('+', uty, ('cast', uty, V('a')),
                                             ('cast', uty, V('b')))))
        if self.chance(0.1):
            body.append(('sink', V('e')))
        other = self.pick(V('b'), V('b'), V('b'), V('a'))
        pred = self.pick('<', '<', '<=', '>=')
        test = cmp(pred, ('cast', ty, V('e')), other)
        if self.chance(0.7):
            test = ('or', cmp('==', V('b'), C(0, ty)), test)
        whole = [('sink', C(cmax(ty), ty))]
        last = [('sink', bin_('-', uty, V('e'), C(1, uty)))]
        wrap_true = pred in ('<', '<=')
        if self.chance(0.15):
            wrap_true = not wrap_true  # the other side
        body.append(('if', test, whole, last) if wrap_true else
                    ('if', test, last, whole))
        body.append(('ret', C(0, 'i32')))
        return body

    def mul_div(self):
        ty = self.pick('u32', 'u64')
        params = [(ty, 'a'), (ty, 'b'), (ty, 'lim')]
        body = [('decl', ty, 'p', bin_('*', ty, V('a'), V('b')))]
        x, y = self.pick(('a', 'b'), ('b', 'a'), ('a', 'a'))
        test = cmp(self.pick('!=', '!=', '=='), bin_('/', ty, V('p'), V(x)),
                   V(y))
        body.append(('if', ('and', x, test), self.wrap_action(), []))
        body += self.uses('p', ty, 'lim')
        body.append(('ret', C(0, 'i32')))
        return params, body

    def loop(self):
        ty = self.pick('u32', 'u64')
        params = [(ty, 'n'), (ty, 'lim')]
        inner = [('sink', V('n'))] if self.chance(0.7) else []
        if self.chance(0.7):
            body = [('postdec', 'n', inner)]
        else:
            body = [('predec', 'n', 3, inner)]
        if self.chance(0.4):
            body.append(('ret', V('n')))
        body.append(('ret', C(0, 'i32')))
        return params, body

    def carry(self):
        ty = self.pick('u32', 'u64')
        params = [(ty, 'x'), (ty, 'lim')]
        c = self.pick(5, 16, 100, 4096)
        zw = self.pick(c, c + 11, c - 1, 0, 1, cmax(ty) - 15, 16, 4096)
        zn = self.pick(0, 0, c, c + 1, 5, cmax(ty) - 15)
        body = [('decl', ty, 'y', bin_('-', ty, V('x'), C(c, ty)))]
        test, wrap_true = self.pick((cmp('>', V('y'), V('x')), True),
                                    (cmp('>', V('x'), V('y')), False),
                                    (cmp('<', V('x'), V('y')), True),
                                    (cmp('>=', V('x'), V('y')), False))
        a, b = (zw, zn) if wrap_true else (zn, zw)
        body.append(('decl', ty, 'z', bin_('+', ty, V('y'), (
            'sel', test, C(a, ty), C(b, ty)))))
        if self.chance(0.2):
            body.append(('sink', V('y')))
        body.append(self.pick(('sink', V('z')), ('ret', V('z'))))
        body.append(('ret', C(0, 'i32')))
        return params, body

    def modular(self):
        ty = self.pick('u32', 'u64')
        params = [(ty, 'h'), (ty, 'k')]
        mixed = bin_('+', ty, bin_('*', ty, V('h'), C(0x9e3779b1, ty)),
                     V('k'))
        e = self.pick(('cast', 'u8', mixed),
                      bin_('&', ty, ('neg', ty, V('k')), C(63, ty)),
                      bin_('%', ty, bin_('*', ty, V('h'), C(2654435761, ty)),
                           C(1024, ty)),
                      bin_('>>', ty, bin_('+', ty, V('h'), V('k')), C(4, ty)),
                      bin_('&', ty, bin_('+', ty, V('h'), V('k')),
                           C(0xff, ty)),
                      bin_('&', ty, V('h'), ('neg', ty, C(4096, ty))),
                      ('neg', ty, V('k')))
        return params, [('sink', e), ('ret', C(0, 'i32'))]

    def align(self):
        """PAGE_ALIGN() then a zero test (do_mmap()), perhaps a bound test
        or an effect between, with the variations that make it wrong: a
        mask shorter than the addend, a bound test wrapped runs answer both
        ways, a test of something other than zero. Or (side stream) a
        length's bound after its header (header_bound())."""
        ty = self.pick('u32', 'u64')
        params = [(ty, 'len'), (ty, 'lim')]
        add, mask = self.pick((4095, 4095), (4095, 4095), (8191, 4095),
                              (4096, 4095), (63, 63))
        body = [('decl', ty, 'al',
                 bin_('&', ty, bin_('+', ty, V('len'), C(add, ty)),
                      C(cmax(ty) - mask, ty)))]
        if self.chance(0.6):
            pred = self.pick('>', '>=', '<', '<=', '==')
            bound = V('lim') if self.chance(0.7) else self.const(ty)
            body.append(('if', cmp(pred, V('al'), bound),
                         self.pick([('ret', C(2, 'i32'))],
                                   [('warn',), ('ret', C(2, 'i32'))],
                                   [('store', C(5, 'u64'))]), []))
        if self.chance(0.2):
            body.append(self.pick(('warn',), ('store', C(6, 'u64'))))
        zero = self.pick(cmp('==', V('al'), C(0, ty)),
                         cmp('==', V('al'), C(0, ty)),
                         cmp('<', V('al'), C(4096, ty)),
                         cmp('==', V('al'), C(4096, ty)))
        body.append(('if', zero, self.wrap_action(), []))
        body += self.uses('al', ty, 'lim')
        body.append(('ret', C(0, 'i32')))
        if self.side.random() < 0.3:  # the main stream drew as before
            return self.header_bound()
        return params, body

    def header_bound(self):
        """A length with its header taken off, then a bound by a constant
        that every wrapped (huge) difference answers one way: a lower bound
        (netlink's `nlmsg_len(nlh) < sizeof(*req)`) lets the wrapped runs
        through with the long messages, an upper bound sends them away
        with the too long ones. Drawn from the side stream."""
        r = self.side
        hdr = r.choice([16, 64, 1])
        params = [('u32', 'len'), ('u32', 'lim')]
        body = [('decl', 'u32', 'd', bin_('-', 'u32', V('len'),
                                          C(hdr, 'u32')))]
        d = ('cast', 'u64', V('d'))
        test = cmp(r.choice(['<', '<=', '>=', '>']), d,
                   C(r.choice([56, 8, 4096]), 'u64'))
        body.append(('if', test, [('ret', C(2, 'i32'))], []))
        body.append(r.choice([('store', C(5, 'u64')), ('sink', V('len')),
                              ('warn',), ('sink', V('d'))]))
        body.append(('ret', C(0, 'i32')))
        return params, body

    def add_back(self):
        ty = self.pick('u32', 'u64')
        params = [(ty, 'x')]
        m = self.pick(1023, 4095, 7)
        m2 = self.pick(m, m, m + 1)
        e = bin_('&', ty, bin_('+', ty, bin_('-', ty, V('x'), C(m, ty)),
                                C(m2, ty)), C(cmax(ty) - m, ty))
        body = []
        if self.chance(0.2):
            body.append(('decl', ty, 'd', bin_('-', ty, V('x'), C(m, ty))))
            body.append(('sink', V('d')))
            body.append(('sink', bin_('+', ty, V('d'), C(m2, ty))))
        else:
            body.append(('sink', e))
        body.append(('ret', C(0, 'i32')))
        return params, body

    def serial(self):
        ty = self.pick('u32', 'u64')
        sty = {'u32': 'i32', 'u64': 'i64'}[ty]
        params = [(ty, 'now'), (ty, 'then')]
        then = V('then')
        if self.chance(0.5):
            # A subtrahend of known bound (sign-guard): below half the
            # range, exactly half, one or two more, or anything.
            half = cmax(ty) // 2 + 1
            k = self.pick(255, 4095, half - 1, half, half + 1, cmax(ty))
            then = bin_('&', ty, V('then'), C(k, ty))
        d = ('cast', sty, bin_('-', ty, V('now'), then))
        if self.chance(0.5):
            pred = self.pick('<', '>', '>=', '<=')
            k = self.pick(0, 0, 0, 5)
            return params, [('ret', cmp(pred, d, C(k, sty)))]
        body = [('decl', sty, 'dd', d)]
        if self.chance(0.3):
            # max_t(long, 0, d) or min_t(): the select picks 0 or d.
            pred = self.pick('>', '>', '<')
            body.append(('sink', ('sel', cmp(pred, V('dd'), C(0, sty)),
                                  V('dd'), C(0, sty))))
        else:
            pred = self.pick('<', '<', '<=', '>')
            body.append(('if', cmp(pred, V('dd'), C(0, sty)),
                         self.pick([('ret', C(1, 'i32'))],
                                   [('ret', C(1, 'i32'))], [('warn',)]),
                         []))
            body.append(('sink', V('dd')))
        body.append(('ret', C(0, 'i32')))
        return params, body

    def recheck(self):
        """Signed quantities in unsigned arithmetic (SignedRecheck.h): an
        unsigned value plus or minus a narrower signed offset, and an
        unsigned difference kept in a signed variable; with the variations
        that make them no re-check (an offset as wide or unsigned, sext(off)
        - x, the difference also used as unsigned)."""
        if self.chance(0.5):
            ty, oty = self.pick(('u64', 'i32'), ('u64', 'i32'), ('u64', 'i16'),
                                ('u32', 'i16'), ('u32', 'i16'), ('u64', 'i64'),
                                ('u64', 'u32'))
            params = [(ty, 'x'), (oty, 'off'), (ty, 'lim')]
            x = V('x')
            if ty == 'u64' and oty in ('i32', 'i16') and self.chance(0.3):
                # x itself sign-extended from an int: of a value known
                # non-negative (`!x`, a mask; srcutree.c's `--trycount +
                # curdelay`, curdelay = !delay), so x is unsigned and off
                # the signed offset; or of one of unknown sign (two sexts:
                # no re-check).
                params[0] = ('i32', 'x')
                x = ('cast', ty, self.pick(
                    cmp('==', V('x'), C(0, 'i32')),
                    bin_('&', 'i32', V('x'), C(0xffff, 'i32')),
                    V('x')))
            op = self.pick('+', '-')
            if self.chance(0.25):
                e = bin_(op, ty, V('off'), x)
            else:
                e = bin_(op, ty, x, V('off'))
            if self.chance(0.3):
                return params, [self.pick(('sink', e), ('ret', e)),
                                ('ret', C(0, 'i32'))]
            body = [('decl', ty, 's', e)]
            for _ in range(self.r.randint(1, 2)):
                body.append(self.pick(
                    ('sink', V('s')), ('store', V('s')), ('ret', V('s')),
                    ('if', cmp('>', V('s'), V('lim')), [('ret', C(2, 'i32'))],
                     []),
                    ('ret', cmp('<', V('s'), V('lim')))))
            body.append(('ret', C(0, 'i32')))
            return params, body
        ty = self.pick('u64', 'u64', 'u32')
        sty = {'u32': 'i32', 'u64': 'i64'}[ty]
        params = [(ty, 'a'), (ty, 'b'), (sty, 'lim')]
        d = ('cast', sty, bin_('-', ty, V('a'), V('b')))
        if self.chance(0.25):
            pred = self.pick('<', '>', '<=', '>=', '==', '!=')
            return params, [('ret', cmp(pred, d, V('lim'))),
                            ('ret', C(0, 'i32'))]
        body = [('decl', sty, 'd', d)]
        signed_uses = [
            ('if', cmp(self.pick('<', '>', '<=', '>='), V('d'), V('lim')),
             [('ret', C(1, 'i32'))], []),
            ('ret', cmp(self.pick('<', '>', '=='), V('d'), V('lim'))),
            ('sink', bin_('/', sty, V('d'), C(3, sty))),
            ('if', cmp('>', ('sel', cmp('>', V('d'), V('lim')), V('d'),
                             V('lim')), C(100, sty)),
             [('ret', C(4, 'i32'))], []),
            ('if', cmp('<', V('d'), C(0, sty)), [('ret', C(5, 'i32'))], []),
        ]
        unsigned_uses = [
            ('sink', V('d')), ('store', V('d')), ('ret', V('d')),
            ('if', cmp('>', ('cast', ty, V('d')), C(100, ty)),
             [('ret', C(6, 'i32'))], []),
        ]
        for _ in range(self.r.randint(1, 2)):
            pool = unsigned_uses if self.chance(0.3) else signed_uses
            body.append(self.pick(*pool))
        body.append(('ret', C(0, 'i32')))
        return params, body

    def circular(self):
        """A circular-buffer distance (CircularDifference.cpp, fs/jbd2's
        `freed = block - tail; if (block < tail) freed += last - first;`):
        d = a - b, and the size added where the program's test says the
        difference wrapped, chosen by `?:` or taken in an `if`; with the
        variations that make it none (a test that is not exact, a test of
        other operands, the size added on the other side, the difference
        also used on the wrap side, or after the two sides join)."""
        ty = self.pick('u64', 'u64', 'u32')
        params = [(ty, 'a'), (ty, 'b'), (ty, 'lim')]
        body = []
        size = self.r.random()
        if size < 0.2:
            size = C(self.pick(16, 100, 4096, cmax(ty) // 2), ty)
        elif size < 0.4:
            # The size of a buffer [first, last): known to be ordered.
            params += [(ty, 'first'), (ty, 'last')]
            body.append(('if', cmp('<', V('last'), V('first')),
                         [('ret', C(9, 'i32'))], []))
            size = bin_('-', ty, V('last'), V('first'))
        else:
            params.append((ty, 'size'))
            size = V('size')
        body.append(('decl', ty, 'd', bin_('-', ty, V('a'), V('b'))))
        # (comparison, does a wrapped run make it true?)
        test, wrap_true = self.pick(
            (cmp('<', V('a'), V('b')), True), (cmp('>', V('b'), V('a')), True),
            (cmp('>=', V('a'), V('b')), False),
            (cmp('<=', V('b'), V('a')), False),
            (cmp('<', V('a'), V('b')), True), (cmp('>=', V('a'), V('b')), False),
            (cmp('<=', V('a'), V('b')), True),   # a == b: no wrap
            (cmp('<', V('a'), V('lim')), True),  # another value
            (cmp('>', V('a'), V('b')), True))    # the other side
        fixed = bin_('+', ty, V('d'), size) if self.chance(0.8) else \
            bin_('+', ty, size, V('d'))
        if self.chance(0.15):
            body.append(('sink', V('d')))        # before the test
        if self.chance(0.5):
            arms = (fixed, V('d')) if wrap_true else (V('d'), fixed)
            body.append(('decl', ty, 'r', ('sel', test, arms[0], arms[1])))
            for _ in range(self.r.randint(1, 2)):
                body.append(self.pick(
                    ('sink', V('r')), ('store', V('r')), ('ret', V('r')),
                    ('if', cmp('>', V('r'), V('lim')), [('ret', C(2, 'i32'))],
                     []),
                    ('ret', cmp('<', V('r'), V('lim')))))
        else:
            wrap = [self.pick(('sink', fixed), ('ret', fixed),
                              ('store', fixed))]
            if self.chance(0.2):
                wrap.insert(0, ('sink', V('d')))  # also used as it is
            if self.chance(0.7):
                wrap.append(('ret', C(1, 'i32')))
            other = [self.pick(('sink', V('d')), ('ret', V('d')),
                               ('ret', cmp('<', V('d'), V('lim'))))]
            body.append(('if', test, wrap, other) if wrap_true else
                        ('if', test, other, wrap))
            if self.chance(0.3):
                body.append(('sink', V('d')))     # after the sides join
        body.append(('ret', C(0, 'i32')))
        return params, body

    FAMILIES = ['sum_test'] * 4 + ['sign_test'] * 2 + ['align'] * 2 + \
        ['mul_div', 'loop', 'carry', 'modular', 'add_back', 'serial'] + \
        ['recheck'] * 2 + ['circular'] * 2 + ['file_range'] * 2 + \
        ['freed'] * 2 + ['helper'] * 2 + \
        ['meaning'] * 2 + ['chain'] * 2 + ['declared'] * 2 + ['bounded'] * 2 + \
        ['bound_leave'] * 2

    def function(self):
        """(params, body); self.family, self.ret (its return type),
        self.relations (of its arguments, run.relate()). An extra family
        takes the place of the function the main stream drew with the share
        of its weight, drawn from the extra stream only: the other
        functions, and their arguments (self.shadow: the replaced one's
        parameters, run.generate()), are the ones made before them."""
        main = [f for f in self.FAMILIES if f not in EXTRA_FAMILIES]
        extra = [f for f in self.FAMILIES if f in EXTRA_FAMILIES]
        self.ret, self.shadow, self.relations = 'u64', None, []
        out = None
        if main:
            self.family = self.pick(*main)
            out = getattr(self, self.family)()
        if extra and (not main or self.extra.random() <
                      len(extra) / len(self.FAMILIES)):
            self.shadow = out[0] if out else None
            self.family = self.extra.choice(extra)
            saved, self.r = self.r, self.extra
            try:
                out = getattr(self, self.family)()
            finally:
                self.r = saved
        return out

