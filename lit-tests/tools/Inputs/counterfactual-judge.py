"""Unit checks of fuzz/wrap-oracle/judge.py's counterfactual questions
(lit-tests/tools/wrap-oracle-counterfactual.test): which decisions a
question forces, and when its answers make a removal harmful."""
import sys

sys.path.insert(0, sys.argv[1])
from judge import Judge  # noqa: E402


class F:
    ops = {0: 4}                # bit 0: operation 4
    sites = {0: 6, 1: 7}        # bits 0, 1: comparisons 6 and 7
    params, body = [], []       # no comparison repeats another


def C(c, m, ideal):
    return ('C', c, 'b', m, ideal, 1)


def E(v):
    return ('E', 'ret', 0, 0, 0, v)


# `s = a + b; if (s > lim || s < 0) return 1; return s;` with b >= 0:
# over all runs, `s > lim` is false whenever the sum wrapped, and as many
# unwrapped results are answered true as false (an exact wrap test by the
# log), `s < 0` is not exact (call 4: a wrapped run where it is
# false, taken as in ideal arithmetic).
LEARN = [('F', 0, 4), ('W', 4, 1), C(7, 0, 0), E(3),
         ('F', 0, 5), ('W', 4, 0), C(6, 1, 1), E(1),
         ('F', 0, 0), ('W', 4, 0), C(6, 1, 1), E(1),
         ('F', 0, 1), ('W', 4, 0), C(6, 0, 0), C(7, 1, 1), E(1),
         ('F', 0, 2), ('W', 4, 0), C(6, 0, 0), C(7, 0, 0), E(5)]
WRAPPED = [('F', 0, 3), ('W', 4, 1), C(6, 0, 1), C(7, 1, 0), E(1)]
j = Judge([F])
j.learn(LEARN + WRAPPED)
j.judge(LEARN + WRAPPED)
for q, ops in sorted(j.questions.items()):
    print('question', q, 'whole', j.whole[q], 'ops', sorted(ops))
q = (0, 3, 7, 1)
ret_s, ret_1 = [('ret', 0x80000000)], [('ret', 1)]
for name, a, whole in (('ideal-path-same', ret_s, ret_1),
                       ('both-differ', ret_s, ret_s),
                       ('forced-same', ret_1, ret_s)):
    jj = Judge([F])
    jj.learn(LEARN + WRAPPED)
    jj.judge(LEARN + WRAPPED)
    if jj.differs(q, a):
        jj.answer(q, a, whole)
    print(name, 'harm' if 4 in jj.harm else 'none')

# Two non-exact divergent decisions before an effect: one question forces
# both (the last alone could pick a path no run takes).
TWO = [('F', 0, 9), ('W', 4, 1), C(6, 0, 0), C(7, 0, 0), E(3),
       ('F', 0, 0), ('W', 4, 1), C(6, 1, 0), C(7, 1, 0), E(2),
       ('F', 0, 1), ('W', 4, 0), C(6, 1, 1), C(7, 0, 0), E(3),
       ('F', 0, 2), ('W', 4, 0), C(6, 0, 0), C(7, 1, 1), E(3)]
j = Judge([F])
j.learn(TWO)
j.judge(TWO)
for q, ops in sorted(j.questions.items()):
    print('question', q, 'whole', j.whole[q], 'ops', sorted(ops))

# A repeated test (seed 54 of the helper family): `e = h(x, lim); if (e >
# lim || e > lim) ...`. Unwrapped runs stop at comparison 6, so only
# wrapped runs reach 7: alone it cannot be learned exact, and each wrapped
# run asked a question about it. Learned with 6 (the same expression over
# values nothing assigns again), it is exact: no question. Not when e is
# decremented in between (a loop's counter), nor for another predicate.
def repeated(second, changed):
    e, lim = ('var', 'e'), ('var', 'lim')
    call = ('call', 'h', '+', 'u64', ('var', 'x'), lim, 4)
    body = [('decl', 'u64', 'e', call),
            ('if', ('or', ('cmp', '>', e, lim, 6),
                    ('cmp', second, e, lim, 7)), [('ret', e)], [])]
    if changed:
        body.append(('postdec', 'e', []))

    class G:
        ops = {0: 4}
        sites = {0: 6, 1: 7}
        params = [('u64', 'x'), ('u64', 'lim')]
    G.body = body
    return G


RUNS = [('F', 0, 0), ('W', 4, 0), C(6, 1, 1), E(1),
        ('F', 0, 1), ('W', 4, 0), C(6, 1, 1), E(1),
        ('F', 0, 2), ('W', 4, 1), C(6, 0, 1), C(7, 0, 1), E(0),
        ('F', 0, 3), ('W', 4, 1), C(6, 0, 1), C(7, 0, 1), E(0)]
for name, second, changed in (('repeated', '>', False),
                              ('repeated-changed', '>', True),
                              ('other-predicate', '>=', False)):
    j = Judge([repeated(second, changed)])
    j.learn(RUNS)
    j.judge(RUNS)
    print(name, 'same', sorted(j.same.items()), 'questions',
          sorted(j.questions))

# An operation that wraps in every run (`e = (a & 65535) - C; if (e >= x)
# warn();`, seed 99 of the helper family): no unwrapped run to learn from.
# Comparison 6 decided one way in every wrapped run, ideal arithmetic the
# other way in each: exact over two different results, not over one call
# or one result (constant operands), not when the wrapped runs decided it
# both ways.
ALWAYS = [('F', 0, 0), ('W', 4, 1, 16), C(6, 1, 0), E(22),
          ('F', 0, 1), ('W', 4, 1, 17), C(6, 1, 0), E(22)]
ONE_VALUE = [('F', 0, 0), ('W', 4, 1, 16), C(6, 1, 0), E(22),
             ('F', 0, 1), ('W', 4, 1, 16), C(6, 1, 0), E(22)]
MIXED = [('F', 0, 0), ('W', 4, 1, 16), C(6, 1, 0), E(22),
         ('F', 0, 1), ('W', 4, 1, 17), C(6, 0, 0), E(0)]
for name, log in (('always-wrapped', ALWAYS), ('always-one-call', ALWAYS[:4]),
                  ('always-one-value', ONE_VALUE), ('always-mixed', MIXED)):
    j = Judge([F])
    j.learn(log)
    j.judge(log)
    print(name, 'exact' if j.exact(6, 4) else 'not exact', 'questions',
          sorted(j.questions))

# Seed 620 (all families): `e = h_0(a, b)` tested the wrong way (`e <= a`,
# comparison 6 on op 4), the wrapped run falls through to `e2 = h_1(a, b)`
# and its right test (comparison 7 on op 5), reached by no unwrapped run.
# The question about op 5 forces 7; the whole run forces every divergent
# decision of the call, 6 included: the path ideal arithmetic takes.
class G2:
    ops = {0: 4, 1: 5}
    sites = {0: 6, 1: 7}
    params, body = [], []


TWICE = [('F', 0, 0), ('W', 4, 1, 9), ('C', 6, 'b', 0, 1, 1), ('W', 5, 1, 9),
         ('C', 7, 'b', 1, 0, 2), E(0)]
j = Judge([G2])
j.learn(TWICE)
j.judge(TWICE)
for q, ops in sorted(j.questions.items()):
    print('twice question', q, 'whole', j.whole[q], 'ops', sorted(ops))

# A test the wrapped runs share with most unwrapped results (`s < 0` on
# `s = a + b` with only b >= 0 known; comparison 6 on op 4, the wrap side
# true): a wrap test only if it guards the value, unwrapped runs using it
# (an effect depending on op 4) only after taking the other side; not when
# its outcome is all the value is for (seeds 564, 980), nor when the wrap
# side uses it too. With the wrap side the rarer one, it is exact anyway.
def USE(v):
    return ('E', 'ret', 0, 1, 0, v)


def shared(use_other, use_wrap, wrap_side_results):
    log = []
    for n, r in enumerate(wrap_side_results):
        log += [('F', 0, n), ('W', 4, 0, r), C(6, 1, 1),
                USE(r) if use_wrap else E(1)]
    for n, r in enumerate((100, 101)):
        log += [('F', 0, 10 + n), ('W', 4, 0, r), C(6, 0, 0),
                USE(r) if use_other else E(0)]
    log += [('F', 0, 20), ('W', 4, 1, 7), C(6, 1, 0), E(1)]
    j = Judge([F])
    j.learn(log)
    return 'exact' if j.exact(6, 4) else 'not exact'


for name, args in (('shared-guards', (True, False, (1, 2, 3))),
                   ('shared-no-use', (False, False, (1, 2, 3))),
                   ('shared-used-both', (True, True, (1, 2, 3))),
                   ('rare-no-use', (False, False, (1,)))):
    print(name, shared(*args))
