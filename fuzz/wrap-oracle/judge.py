"""Judge the oracle's log: for every checked operation, was a wrap of it
harmful in some run?

Events (oracle.h): F func call | W op wrapped result deps | C cmp ctx machine ideal
deps | E kind mismatch deps cmps value | R op off diff uw ideal sgn isgn
(recheck.py judges re-checked checks from these). deps and cmps are bit sets over the
function's operations and comparisons (meta: their program-wide ids).

A wrap is harmful when, in a run where the operation wrapped,
  - a value that differs from its ideal (unbounded-arithmetic) value and
    depends on the operation reaches an effect (store, call, return); or
  - a comparison that depends on it decided differently than in ideal
    arithmetic, is not an exact wrap test of it, and its outcome reaches an
    effect as a value; or
  - such comparisons decided branches, no exact wrap test of the
    operation came after them, and the call's effects (kind and value, in
    order) differ both from those of the same call with those decisions
    taken as in ideal arithmetic and from those with every divergent
    decision of the call so far (exact tests too, on any operation that
    wrapped) so taken (counterfactual runs, run.py): a bound test that
    sends a wrapped sum to the handling its wrap test would have chosen
    anyway decides nothing, and neither does a pair (`s > lim || s < 0`)
    whose decisions together take the path ideal arithmetic takes, nor a
    second computation of a sum whose first one's test let it through
    (`e = h(a, b)` tested, then `e2 = h2(a, b)` tested the right way).
A comparison is an exact wrap test of an operation when, over all runs of
the program, every run in which the operation wrapped gave it the same
outcome and some run in which it did not gave the other (learned from the
log, not from any rule of the plugin): `a + b < a` is one for unsigned a,
b; for a signed b of either sign it is not. The wrap side must not hold
more of the operation's unwrapped results than the other side (a bound
every wrapped run passes with most unwrapped values, `len - 16 < 56`, is
no wrap test), unless the comparison guards the value: unwrapped runs
used it (an effect depending on it) only after taking the other side
(`if (off + len < 0) goto out; use(off + len)` with len >= 0, where the
wrap joins the negative results the test turns away). Comparisons of one
function that are the same expression (predicate and operands) over
values nothing assigns again are learned together (same_tests()): `if (e
> lim || e > lim)` repeats a test whose second copy only wrapped runs
reach, so alone it could never be learned exact. An operation that
wrapped in every run (`(a & 65535) - C` for a large constant C) leaves no
unwrapped run to learn from: there a comparison is exact when every
wrapped run decided it one way and ideal arithmetic the other way, and
the operation gave at least two different wrapped results (one value,
from constant operands, is no evidence).
"""
from collections import Counter, defaultdict

from render import object_field


def bits(mask):
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1


def parse(lines):
    for n, line in enumerate(lines, 1):
        f = line.split()
        if not f:
            continue
        try:
            if f[0] == 'F':
                yield ('F', int(f[1]), int(f[2]))
            elif f[0] == 'W':  # op wrapped [machine result [deps]]
                yield ('W', int(f[1]), int(f[2])) + \
                    tuple(int(x, 16) for x in f[3:5])
            elif f[0] == 'C':  # cmp ctx machine ideal deps [wraps]
                yield ('C', int(f[1]), f[2], int(f[3]), int(f[4]),
                       int(f[5], 16)) + tuple(int(x, 16) for x in f[6:7])
            elif f[0] == 'R':  # op off diff uw ideal [sgn isgn]
                if len(f) not in (6, 8):
                    raise ValueError('%d fields' % len(f))
                yield ('R',) + tuple(int(x) for x in f[1:])
            elif f[0] == 'E':  # kind mismatch deps cmps value [wraps]
                yield ('E', f[1], int(f[2]), int(f[3], 16), int(f[4], 16),
                       int(f[5], 16)) + tuple(int(x, 16) for x in f[6:7])
            else:
                raise ValueError(f[0])
        except (ValueError, IndexError) as e:
            raise ValueError('oracle log line %d: %r: %s' % (n, line, e))


def same_tests(f):
    """{cmp id: the first cmp id of f that is the same expression}: the
    predicate and operands alike, leaves constants and variables declared
    once and never decremented or assigned (object fields excluded: k_x is
    q_x), so that both compare the same values in a call. The operands hold no
    checked operation (its id differs per site)."""
    decls, changed, cmps = Counter(), set(), []

    def expr(e):
        k = e[0]
        if k == 'cmp':
            cmps.append(e)
        for x in e[1:]:
            if isinstance(x, tuple):
                expr(x)

    def cond(c):
        if c[0] == 'and':
            expr(c[2])
        elif c[0] in ('or', 'andc', 'andv'):
            cond(c[1])
            cond(c[2])
        else:
            expr(c)

    def stmts(body):
        for st in body:
            k = st[0]
            if k == 'decl':
                decls[st[2]] += 1
                expr(st[3])
            elif k == 'if':
                cond(st[1])
                stmts(st[2])
                stmts(st[3])
            elif k in ('ret', 'sink', 'store', 'eval', 'sinkl'):
                expr(st[1])
            elif k == 'set':
                changed.add(st[1])
                expr(st[2])
            elif k == 'postdec':
                changed.add(st[1])
                stmts(st[2])
            elif k == 'predec':
                changed.add(st[1])
                stmts(st[3])

    stmts(f.body)
    params = {n for _, n in f.params}

    def pure(e):
        k = e[0]
        if k == 'const':
            return True
        if k == 'var':
            n = e[1]
            return not object_field(n) and n not in changed and \
                ((n in params and not decls[n]) or
                 (n not in params and decls[n] == 1))
        if k == 'cast':
            return pure(e[2])
        return False

    first, out = {}, {}
    for c in cmps:
        if pure(c[2]) and pure(c[3]):
            key = (c[1], c[2], c[3])
            out[c[4]] = first.setdefault(key, c[4])
    return out


class Judge:
    def __init__(self, funcs):
        self.ops = [f.ops for f in funcs]       # per function: bit -> op id
        self.sites = [f.sites for f in funcs]   # per function: bit -> cmp id
        self.same = {}                          # cmp -> cmp learned with
        for f in funcs:
            self.same.update(same_tests(f))
        self.table = defaultdict(set)           # (cmp, op) -> {(wrapped, m)}
        self.ideal = defaultdict(set)           # (cmp, op) -> {ideal} wrapped
        self.wrapped = set()                    # ops that wrapped somewhere
        self.unwrapped = set()                  # ops that ran without wrap
        self.wrap_results = defaultdict(set)    # op -> {wrapped result}
        # (cmp, op) -> outcome -> {the op's unwrapped results deciding so}
        self.sides = defaultdict(lambda: (set(), set()))
        # (cmp, op) -> {outcome after which an unwrapped run's effect used
        # the op's value}
        self.uses = defaultdict(set)
        self.harm = {}                          # op -> (reason, func, call)
        self.harm_calls = defaultdict(set)      # op -> {(func, call)}
        self.harm_why = {}                      # (op, (func, call)) -> reason
        # (func, call) -> {op that wrapped: the ops its operands depend on}
        self.wrapped_at = defaultdict(dict)
        # Counterfactual questions: (func, call, cmp, n, cmp, n, ...) ->
        # {op: effect}, every divergent decision of the op up to the effect
        self.questions = defaultdict(dict)
        # The same call with every divergent decision so far (the exact
        # tests' too, of any operation that wrapped) taken as in ideal
        # arithmetic: question -> its run.
        self.whole = {}
        self.traces = defaultdict(list)         # (func, call) -> effects

    def learn(self, events):
        cur, call, W, R, P = None, None, {}, {}, {}
        for ev in events:
            if ev[0] == 'F':
                cur, call, W, R, P = ev[1], ev[2], {}, {}, {}
            elif ev[0] == 'W':
                W[ev[1]] = ev[2]
                # (a log without results: each call its own)
                R[ev[1]] = ev[3] if len(ev) > 3 else (cur, call)
                if ev[2]:
                    self.wrapped.add(ev[1])
                    self.wrap_results[ev[1]].add(R[ev[1]])
                    at = self.wrapped_at[(cur, call)]
                    at[ev[1]] = at.get(ev[1], 0) | (ev[4] if len(ev) > 4
                                                    else 0)
                else:
                    self.unwrapped.add(ev[1])
            elif ev[0] == 'C':
                for b in bits(ev[5]):
                    k = self.ops[cur][b]
                    if k in W:
                        c = self.same.get(ev[1], ev[1])
                        self.table[(c, k)].add((W[k], ev[3]))
                        if W[k]:
                            self.ideal[(c, k)].add(ev[4])
                        else:
                            self.sides[(c, k)][ev[3]].add(R[k])
                            if ev[2] == 'b':
                                P.setdefault(k, {})[c] = ev[3]
            elif ev[0] == 'E':
                for b in bits(ev[3]):
                    k = self.ops[cur][b]
                    for c, o in P.get(k, {}).items():
                        self.uses[(c, k)].add(o)

    def exact(self, c, k):
        c = self.same.get(c, c)
        s = self.table.get((c, k), ())
        m0 = {m for w, m in s if not w}
        m1 = {m for w, m in s if w}
        if len(m1) != 1:
            return False
        m = next(iter(m1))
        if k not in self.unwrapped:  # wrapped in every run
            return self.ideal[(c, k)] == {1 - m} and \
                len(self.wrap_results[k]) >= 2
        # Every wrapped run on one side, and some unwrapped run on the
        # other; unwrapped runs on the wrap side (`a + b <= a` for b == 0)
        # are the program's own false alarms, not hidden wraps, as long as
        # they are not the most of its results: a bound the wrapped runs
        # share with most unwrapped results (`len - 16 < 56` passed by
        # every wrapped difference, `a - b < 0` by none) is no wrap test.
        if (1 - m) not in m0:
            return False
        side = self.sides.get((c, k))
        if side is None or len(side[m]) <= len(side[1 - m]):
            return True
        # A test the wrapped runs share with most unwrapped results is one
        # to leave by: it handles the wrap when it keeps the value from the
        # uses it guards (`if (off + len < 0) goto out; use(off + len)`),
        # not when its outcome is all the value is for.
        return self.uses.get((c, k), set()) == {1 - m}

    def hurt(self, k, why, where):
        self.harm.setdefault(k, (why,) + where)
        self.harm_calls[k].add(tuple(where))
        self.harm_why.setdefault((k, tuple(where)), why)

    def wrapped_upstream(self, k, where, checked):
        """Did an operation op k's operands are computed from, whose check
        is in `checked`, wrap in call `where` (and so report)? Then op k's
        ideal value is not the one its machine operands give."""
        deps = self.wrapped_at.get(where, {}).get(k, 0)
        return any(k2 != k and k2 in checked and k2 in
                   self.wrapped_at.get(where, {})
                   for b, k2 in enumerate(self.ops[where[0]]) if deps >> b & 1)

    def judge(self, events):
        cur, call, W, dirty, last, seen = None, None, {}, {}, {}, Counter()
        every = []
        for ev in events:
            if ev[0] == 'F':
                cur, call, W, dirty, last = ev[1], ev[2], {}, {}, {}
                seen, every = Counter(), []
            elif ev[0] == 'W':
                W[ev[1]] = ev[2]
            elif ev[0] == 'C':
                _, c, ctx, m, ideal, deps = ev[:6]
                seen[c] += 1
                # Blamed: the operations whose wrap the operands still show.
                ks = [self.ops[cur][b] for b in bits(ev[6] if len(ev) > 6
                                                     else deps)]
                ks = [k for k in ks if W.get(k)]
                div = m != ideal
                last[c] = (div, ks)
                if ctx == 'b' and div and ks:
                    every.append((c, seen[c]))
                if ctx == 'b' and div:
                    for k in ks:
                        if self.exact(c, k):
                            dirty.pop(k, None)
                        else:
                            # Every divergent decision since the last exact
                            # test: the counterfactual takes them all as in
                            # ideal arithmetic (one alone may pick a path no
                            # run takes, e.g. `s > lim || s < 0`).
                            dirty.setdefault(k, []).append((c, seen[c]))
            elif ev[0] == 'E':
                _, kind, mismatch, deps, cmps, value = ev[:6]
                where = (cur, call)
                self.traces[where].append((kind, value))
                if mismatch:
                    for b in bits(ev[6] if len(ev) > 6 else deps):
                        k = self.ops[cur][b]
                        if W.get(k):
                            self.hurt(k, 'the wrapped value reaches %s' %
                                      kind, where)
                for b in bits(cmps):
                    c = self.sites[cur][b]
                    div, ks = last.get(c, (False, []))
                    for k in ks if div else ():
                        if not self.exact(c, k):
                            self.hurt(k, 'comparison %d decides on the wrapped'
                                      ' value and its outcome reaches %s' %
                                      (c, kind), where)
                for k, pairs in dirty.items():
                    if W.get(k):
                        q = (cur, call) + tuple(x for p in pairs for x in p)
                        self.questions[q].setdefault(k, kind)
                        self.whole.setdefault(q, (cur, call) + tuple(
                            x for p in every for x in p))

    def differs(self, question, trace):
        return trace != self.traces[question[:2]]

    def answer(self, question, trace, whole):
        """The effects of the call with the question's decisions (those
        since the last exact wrap test) taken as in ideal arithmetic, and
        with every divergent decision so taken (whole: the call's path in
        ideal arithmetic as far as the wrapped operations decide it). The
        decisions mattered if both differ from the call's own effects: the
        same as the ideal path's effects, or the same with the handling
        kept, is no harm."""
        func, call, cs = question[0], question[1], question[2::2]
        if not self.differs(question, trace) or \
                not self.differs(question, whole):
            return
        for k, kind in self.questions[question].items():
            self.hurt(k, 'comparison%s %s decided on the wrapped value, the '
                      'path reaches %s, and the ideal decisions change the '
                      'call\'s effects' % ('s' if len(cs) > 1 else '',
                                           ', '.join(map(str, cs)), kind),
                      (func, call))


def trace_of(events):
    """The effects (kind, value) of a counterfactual run's one call."""
    return [(ev[1], ev[5]) for ev in events if ev[0] == 'E']
