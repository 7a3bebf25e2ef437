"""The arguments of the wrap oracle's calls (run.py): boundary-heavy
tuples for a function's parameters."""
from lang import TYPES, cmax


def inputs(rng, params, count):
    """Boundary-heavy argument tuples: most wraps happen at the edges."""
    def one(ty):
        top = cmax(ty)
        lo = -top - 1 if TYPES[ty][2] else 0
        edge = [0, 1, 2, 3, 4, 5, 7, 16, 100, 4096, top, top - 1, top - 2,
                top - 15, top // 2, top // 2 + 1]
        if lo:
            edge += [lo, lo + 1, -1, -2, -4, -16, -top]
        if rng.random() < 0.8:
            return rng.choice(edge)
        return rng.randint(lo, top)
    def arg(ty, name):
        if name == 'n':  # a loop count: the wrap is at 0, and loops end
            return rng.choice([0, 0, 1, 2, 3, 5])
        return one(ty)
    out = [[arg(ty, n) for ty, n in params] for _ in range(count)]
    # Small values of every sign combination for the first two signed
    # parameters: unwrapped runs on each side of a sign test, so the judge
    # sees a separating test separate (both addends negative, unwrapped).
    signed = [i for i, (ty, n) in enumerate(params)
              if TYPES[ty][2] and n != 'n'][:2]
    # A bound ('lim') at each end, so that unwrapped runs also get past a
    # bound test taken before the sign test (`s > lim || s < 0`), and 0,
    # so that they get past a sign test made on one path only (`lim && a
    # < 0`, file_range).
    if len(signed) == 2:
        i, j = signed
        lims = [k for k, (ty, n) in enumerate(params) if n == 'lim']
        probes = [(x, y, end) for end in (1, 0, None)
                  for x, y in [(-1, -2), (-2, 1), (1, -2), (2, 1)]]
        for k, (x, y, end) in enumerate(probes):
            if k < len(out):
                out[k][i], out[k][j] = x, y
                for l in lims:
                    ty = params[l][0]
                    out[k][l] = 0 if end is None else cmax(ty) if end else \
                        -cmax(ty) - 1 if TYPES[ty][2] else 0
    return out
