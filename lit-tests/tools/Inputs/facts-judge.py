"""Unit checks of the wrap oracle's judgement of the front end's facts and
of declarations (lit-tests/tools/wrap-oracle-facts.test): the type a
result is read as (recheck.read_as_signed()), the meaning a signed-meaning
re-check is judged by, the operations with a declared operand
(declared.py), and the blame of a wrap a value no longer shows
(judge.py)."""
import sys
from collections import Counter

sys.path.insert(0, sys.argv[1])
import recheck  # noqa: E402
from declared import declared_operands  # noqa: E402
from judge import Judge  # noqa: E402
from lang import Func, Numbering, number  # noqa: E402

V = lambda n: ('var', n)
K = lambda v, t: ('const', v, t)
ZERO = ('ret', K(0, 'i32'))


def func(params, body, ret='u64'):
    f = Func('f', params, body + [ZERO], ret)
    number([f], Numbering())
    return f


def sub(ty, a='a', b='b'):
    return ('bin', '-', ty, V(a), V(b))


U64 = [('u64', 'a'), ('u64', 'b'), ('i64', 'lim')]
U32 = [('u32', 'a'), ('u32', 'b'), ('i32', 'lim')]
OFF = [('u64', 'x'), ('i64', 'd'), ('i64', 'lim')]
x_plus_d = ('bin', '+', 'u64', V('x'), V('d'))
CASES = [
    ('long-local', OFF, [('decl', 'i64', 'r', x_plus_d), ('sink', V('r'))]),
    ('unsigned-local', OFF, [('decl', 'u64', 's', x_plus_d)]),
    ('sunk', OFF, [('sink', x_plus_d)]),
    ('long-param', OFF, [('sinkl', x_plus_d)]),
    ('long-param-widened', U32, [('sinkl', sub('u32'))]),
    ('compound', [('i64', 's'), ('u64', 'u'), ('i64', 'lim')],
     [('set', 's', ('bin', '+', 'u64', V('s'), V('u')), '+')]),
    ('int-return', U32, [('ret', sub('u32'))], 'i32'),
    ('ulong-return', U32, [('ret', sub('u32'))]),
    ('explicit-cast', U64, [('sink', ('cast', 'i64', sub('u64')))]),
    ('conditional', U64, [('decl', 'i64', 'r', ('sel', ('cmp', '<', V('a'),
                                                        V('b')),
                                                sub('u64'), K(0, 'u64')))]),
    ('widened-local', U32, [('decl', 'i64', 'r', sub('u32'))]),
]
for name, params, body, *ret in CASES:
    f = func(params, body, *ret)
    print('%s: %s' % (name, recheck.read_as_signed(f, f.ops[0])))
f = func(OFF, CASES[0][2])
print('meanings:', recheck.meaning_of('signed-meaning', f, f.ops[0]),
      recheck.meaning_of('final-result', f, f.ops[0]),
      recheck.meaning_of('signed-offset', f, f.ops[0]))

# `long r = a - b` re-checked: call 0 is 0 - 1 (out of the unsigned range,
# -1 as a long), call 1 is 2^63 - 0 (no unsigned wrap, out of a long's
# range). R bits: off diff uw ideal sgn isgn.
f = func(U64, [('decl', 'i64', 'r', sub('u64')), ('sink', V('r'))])
k, site = f.ops[0], (3, 21)
by_call = {(0, 0): {k: [1, 0, 1, 1, 0, 0]}, (0, 1): {k: [0, 1, 0, 0, 1, 1]}}
for name, reported in (('as-signed', {(0, 1): {site}}),
                       ('as-unsigned', {(0, 0): {site}}),
                       ('silent', {})):
    stats, failures = Counter(), []
    recheck.judge(1, '2', {site: 'signed-meaning'}, {site: k}, [f],
                  [[(0, 1, 0), (1 << 63, 0, 0)]], by_call, reported,
                  {'f': ['f body']}, stats, failures)
    print('%s: wrong=%d differs=%d signed=%d' % (
        name, stats[('signed-meaning', 'wrong')],
        stats[('signed-meaning', 'differs')],
        stats[('signed-meaning', 'read as signed')]))
    for line in failures:
        print(line.splitlines()[0])

# Operations with a declared operand (w_a a parameter, w_s a local).
W = [('u32', 'w_a'), ('u32', 'b'), ('u32', 'lim')]
P = [('u32', 'a'), ('u32', 'b'), ('u32', 'lim')]
L = [('u64', 'w_l'), ('u64', 'b'), ('u64', 'lim')]
plus = lambda x, y, t='u32': ('bin', '+', t, x, y)
DECLS = [
    ('param', W, [('sink', plus(V('w_a'), V('b')))]),
    ('plain', W, [('sink', plus(V('b'), V('lim')))]),
    ('result', W, [('sink', ('bin', '-', 'u32', plus(V('w_a'), V('b')),
                             K(1, 'u32')))]),
    ('copy', W, [('decl', 'u32', 'c', V('w_a')),
                 ('sink', ('bin', '-', 'u32', V('c'), V('b')))]),
    ('mask', W, [('sink', plus(('bin', '&', 'u32', V('w_a'), K(255, 'u32')),
                               V('b')))]),
    ('shift-amount', W, [('sink', plus(('bin', '<<', 'u32', V('b'),
                                        V('w_a')), V('lim')))]),
    ('negation', W, [('sink', ('neg', 'u32', V('w_a')))]),
    ('truncated', L, [('sink', plus(('cast', 'u32', V('w_l')),
                                    ('cast', 'u32', V('b'))))]),
    ('widened', W, [('sink', plus(('cast', 'u64', V('w_a')), K(5, 'u64'),
                                  'u64'))]),
    ('local-given', P, [('decl', 'u32', 'w_s', V('a')),
                        ('sink', ('bin', '-', 'u32', V('a'), V('lim')))]),
    ('stored-back', P, [('decl', 'u32', 's', ('bin', '-', 'u32', V('b'),
                                              V('lim'))),
                        ('decl', 'u32', 'w_s', V('s')),
                        ('sink', plus(V('s'), K(1, 'u32')))]),
    ('stored-sum', P, [('decl', 'u32', 'w_s', V('a')),
                       ('set', 'w_s', plus(V('b'), V('lim'))),
                       ('sink', V('w_s'))]),
    ('compound', P, [('decl', 'u32', 'w_s', V('a')),
                     ('set', 'w_s', plus(V('w_s'), V('b')), '+')]),
    ('joined', P, [('decl', 'u32', 'c', V('a')),
                   ('if', ('cmp', '<', V('a'), V('b')),
                    [('decl', 'u32', 'w_s', V('b')), ('set', 'c', V('w_s'))],
                    []),
                   ('sink', plus(V('c'), V('lim')))]),
    ('joined-both', P, [('decl', 'u32', 'w_s', V('b')),
                        ('decl', 'u32', 'c', V('w_s')),
                        ('if', ('cmp', '<', V('a'), V('b')),
                         [('set', 'c', plus(V('w_s'), K(1, 'u32')))], []),
                        ('sink', plus(V('c'), V('lim')))]),
]
for name, params, body in DECLS:
    f = func(params, body)
    d = declared_operands(f)
    print('%s: %s' % (name, ' '.join(str(d[k]) for k in f.ops)))


# Blame: op 4 (bit 0) wrapped, and a truncation absorbed it; op 5 (bit 1),
# computed from it, wrapped too, and the effect shows op 5's wrap only.
class F:
    ops = [4, 5]               # bits 0, 1: operations 4 and 5
    sites = {}
    params, body = [], []


def log(wraps):
    tail = (wraps,) if wraps is not None else ()
    return [('F', 0, 0), ('W', 4, 1, 7, 0), ('W', 5, 1, 9, 1),
            ('E', 'sink', 1, 3, 0, 9) + tail]


for name, wraps in (('blamed-shown', 2), ('blamed-deps', None)):
    j = Judge([F])
    events = log(wraps)
    j.learn(events)
    j.judge(events)
    print('%s: %s' % (name, sorted(j.harm)))
print('upstream:', j.wrapped_upstream(5, (0, 0), {4}),
      j.wrapped_upstream(5, (0, 0), set()),
      j.wrapped_upstream(4, (0, 0), {5}))
