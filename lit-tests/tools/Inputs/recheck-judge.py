"""Unit checks of fuzz/wrap-oracle/recheck.py (lit-tests/tools/wrap-oracle-recheck.test):
its C-level rule for a difference read only as signed, and its verdict on
a re-check's reports."""
import sys
from collections import Counter

sys.path.insert(0, sys.argv[1])
import recheck  # noqa: E402
from lang import Func, Numbering, number  # noqa: E402

V = lambda n: ('var', n)


def diff_func(ty, sty, uses):
    body = [('decl', sty, 'd', ('cast', sty, ('bin', '-', ty, V('a'), V('b'))))]
    body += uses + [('ret', ('const', 0, 'i32'))]
    f = Func('f', [(ty, 'a'), (ty, 'b'), (sty, 'lim')], body)
    number([f], Numbering())
    return f


def show(name, ty, sty, uses):
    f = diff_func(ty, sty, uses)
    print('%s: %s' % (name, recheck.signed_only(f, f.ops[0])))


lt = ('cmp', '<', V('d'), V('lim'))
show('compared', 'u64', 'i64', [('ret', lt)])
show('sunk', 'u64', 'i64', [('ret', lt), ('sink', V('d'))][::-1])
show('sunk-after-return', 'u64', 'i64', [('ret', lt), ('sink', V('d'))])
show('widened-int', 'u32', 'i32', [('sink', V('d'))])
show('unsigned-compare', 'u64', 'i64',
     [('ret', ('cmp', '>', ('cast', 'u64', V('d')), ('const', 5, 'u64')))])
show('divided', 'u64', 'i64',
     [('sink', ('bin', '/', 'i64', V('d'), ('const', 3, 'i64')))])

# A signed-difference re-check whose true difference is out of range in
# call 0 and in range in call 1: silent in call 0 is wrong.
f = diff_func('u64', 'i64', [('ret', lt)])
k, site = f.ops[0], (3, 21)
text = {'f': ['f body']}
by_call = {(0, 0): {k: [0, 1, 0]}, (0, 1): {k: [0, 0, 1]}}
for name, reported in (('silent', {}), ('reported', {(0, 0): {site}}),
                       ('over-reported', {(0, 0): {site}, (0, 1): {site}})):
    stats, failures = Counter(), []
    recheck.judge(1, '2', {site: 'signed-difference'}, {site: k}, [f],
                  [[(1 << 63, 0, 0), (1, 2, 0)]], by_call, reported, text,
                  stats, failures)
    print('%s: wrong=%d differs=%d' % (name, stats[('signed-difference',
                                                     'wrong')],
                                       stats[('signed-difference',
                                              'differs')]))
    for line in failures:
        print(line.splitlines()[0])

# A circular-difference re-check (the correction d + size): its meaning is
# the ideal result out of range (bit 3), here in call 0 only; reported
# there, it is right, and a harmful wrap of the difference in call 0 is
# excused by that report, one in call 1 is not.
by_call = {(0, 0): {k: [0, 0, 1, 1]}, (0, 1): {k: [0, 0, 1, 0]}}
for name, reported in (('circular', {(0, 0): {site}}), ('circular-silent', {})):
    stats, failures = Counter(), []
    recheck.judge(1, '2', {site: 'circular-difference'}, {site: k}, [f],
                  [[(1, 2, 0), (5, 2, 0)]], by_call, reported, text, stats,
                  failures)
    print('%s: wrong=%d differs=%d' % (name, stats[('circular-difference',
                                                     'wrong')],
                                       stats[('circular-difference',
                                              'differs')]))
    for line in failures:
        print(line.splitlines()[0])
    print('excused: %s %s' % tuple(
        recheck.excused(0, j, [f], {site: 'circular-difference'}, {site: k},
                        reported, 'circular-difference') for j in (0, 1)))
