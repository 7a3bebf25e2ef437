"""Judge the oracle's log: for every checked operation, was a wrap of it
harmful in some run?

Events (oracle.h): F func call | W op wrapped | C cmp ctx machine ideal
deps | E kind mismatch deps cmps value | R op off diff uw ideal (recheck.py
judges re-checked checks from these). deps and cmps are bit sets over the
function's operations and comparisons (meta: their program-wide ids).

A wrap is harmful when, in a run where the operation wrapped,
  - a value that differs from its ideal (unbounded-arithmetic) value and
    depends on the operation reaches an effect (store, call, return); or
  - a comparison that depends on it decided differently than in ideal
    arithmetic, is not an exact wrap test of it, and its outcome reaches an
    effect as a value; or
  - such a comparison decided a branch, no exact wrap test of the
    operation came after it, and the call's effects (kind and value, in
    order) differ from those of the same call with that one decision
    taken as in ideal arithmetic (a counterfactual run, run.py): a bound
    test that sends a wrapped sum to the handling its wrap test would have
    chosen anyway decides nothing.
A comparison is an exact wrap test of an operation when, over all runs of
the program, every run in which the operation wrapped gave it the same
outcome and some run in which it did not gave the other (learned from the
log, not from any rule of the plugin): `a + b < a` is one for unsigned a,
b; for a signed b of either sign it is not.
"""
from collections import Counter, defaultdict


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
            elif f[0] == 'W':
                yield ('W', int(f[1]), int(f[2]))
            elif f[0] == 'C':
                yield ('C', int(f[1]), f[2], int(f[3]), int(f[4]),
                       int(f[5], 16))
            elif f[0] == 'R':
                yield ('R', int(f[1]), int(f[2]), int(f[3]), int(f[4]),
                       int(f[5]))
            elif f[0] == 'E':
                yield ('E', f[1], int(f[2]), int(f[3], 16), int(f[4], 16),
                       int(f[5], 16))
            else:
                raise ValueError(f[0])
        except (ValueError, IndexError) as e:
            raise ValueError('oracle log line %d: %r: %s' % (n, line, e))


class Judge:
    def __init__(self, funcs):
        self.ops = [f.ops for f in funcs]       # per function: bit -> op id
        self.sites = [f.sites for f in funcs]   # per function: bit -> cmp id
        self.table = defaultdict(set)           # (cmp, op) -> {(wrapped, m)}
        self.wrapped = set()                    # ops that wrapped somewhere
        self.harm = {}                          # op -> (reason, func, call)
        self.harm_calls = defaultdict(set)      # op -> {(func, call)}
        # Counterfactual questions: (func, call, cmp, n) -> {op: effect}
        self.questions = defaultdict(dict)
        self.traces = defaultdict(list)         # (func, call) -> effects

    def learn(self, events):
        cur, W = None, {}
        for ev in events:
            if ev[0] == 'F':
                cur, W = ev[1], {}
            elif ev[0] == 'W':
                W[ev[1]] = ev[2]
                if ev[2]:
                    self.wrapped.add(ev[1])
            elif ev[0] == 'C':
                for b in bits(ev[5]):
                    k = self.ops[cur][b]
                    if k in W:
                        self.table[(ev[1], k)].add((W[k], ev[3]))

    def exact(self, c, k):
        s = self.table.get((c, k), ())
        m0 = {m for w, m in s if not w}
        m1 = {m for w, m in s if w}
        # Every wrapped run on one side, and some unwrapped run on the
        # other; unwrapped runs on the wrap side (`a + b <= a` for b == 0)
        # are the program's own false alarms, not hidden wraps.
        return len(m1) == 1 and (1 - next(iter(m1))) in m0

    def hurt(self, k, why, where):
        self.harm.setdefault(k, (why,) + where)
        self.harm_calls[k].add(tuple(where))

    def judge(self, events):
        cur, call, W, dirty, last, seen = None, None, {}, {}, {}, Counter()
        for ev in events:
            if ev[0] == 'F':
                cur, call, W, dirty, last = ev[1], ev[2], {}, {}, {}
                seen = Counter()
            elif ev[0] == 'W':
                W[ev[1]] = ev[2]
            elif ev[0] == 'C':
                _, c, ctx, m, ideal, deps = ev
                seen[c] += 1
                ks = [self.ops[cur][b] for b in bits(deps)]
                ks = [k for k in ks if W.get(k)]
                div = m != ideal
                last[c] = (div, ks)
                if ctx == 'b' and div:
                    for k in ks:
                        if self.exact(c, k):
                            dirty.pop(k, None)
                        else:
                            dirty[k] = (c, seen[c])
            elif ev[0] == 'E':
                _, kind, mismatch, deps, cmps, value = ev
                where = (cur, call)
                self.traces[where].append((kind, value))
                if mismatch:
                    for b in bits(deps):
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
                for k, (c, n) in dirty.items():
                    if W.get(k):
                        self.questions[(cur, call, c, n)].setdefault(k, kind)

    def answer(self, question, trace):
        """The effects of the call with the question's decision taken as
        in ideal arithmetic: if they differ, the decision mattered."""
        func, call, c, n = question
        if trace == self.traces[(func, call)]:
            return
        for k, kind in self.questions[question].items():
            self.hurt(k, 'comparison %d decided on the wrapped value, the '
                      'path reaches %s, and the ideal decision changes the '
                      'call\'s effects' % (c, kind), (func, call))


def trace_of(events):
    """The effects (kind, value) of a counterfactual run's one call."""
    return [(ev[1], ev[5]) for ev in events if ev[0] == 'E']
