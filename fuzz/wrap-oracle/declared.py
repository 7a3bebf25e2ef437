"""Which operations have an operand declared to wrap, on the C source
(the `declared` family, shapes_declared.py; llvm-pass/analysis/DeclaredWrap.h).

A declared-wrap removal is right only where an operand of the operation
is a variable, parameter or field declared `__wraps` (lang.declared()), or
a value computed from one by + - * & | ^ << (the left operand of a shift),
a negation, or a conversion to a type no wider (a truncation); a
conditional of such values (constants aside); and a plain variable holds
what it was last assigned, so `u32 s = w + 1; s - b` computes from one
(the value flows; the declaration of s does not matter). A widening
conversion ends it (`(u64)w + big`), and so do a call (a helper's
parameters are not declared) and a comparison. Where control flow joins,
a plain variable computes from one only if it does on every path that
reaches the join. Decided here, independently of the plugin's IR rule.
"""
from lang import TYPES, declared, type_of

WRAPPING_OPS = ('+', '-', '*', '&', '|', '^')


def _terminates(body):
    """Does a statement list end in a return or goto (no path out)?"""
    return bool(body) and body[-1][0] in ('ret', 'goto')


def declared_operands(f):
    """{operation id: has it an operand that is declared to wrap or
    computed from one?} for every checked operation of f (a helper call's
    operation: never, its operands are the helper's parameters)."""
    types = dict((n, t) for t, n in f.params)
    out = {}

    def wrapping(e, env):
        k = e[0]
        if k == 'var':
            return declared(e[1]) or env.get(e[1], False)
        if k == 'bin':
            left, right = wrapping(e[3], env), wrapping(e[4], env)
            if len(e) > 5:
                out[e[5]] = out.get(e[5], False) or left or right
            if e[1] in WRAPPING_OPS:
                return left or right
            return e[1] == '<<' and left
        if k == 'neg':
            inner = wrapping(e[2], env)
            if len(e) > 3:
                out[e[3]] = out.get(e[3], False) or inner
            return inner
        if k == 'cast':
            inner = wrapping(e[2], env)
            return inner and TYPES[e[1]][1] <= TYPES[type_of(e[2], types)][1]
        if k == 'sel':
            wrapping(e[1], env)
            ws = [wrapping(a, env) for a in e[2:4] if a[0] != 'const']
            return bool(ws) and all(ws)
        if k == 'cmp':
            wrapping(e[2], env)
            wrapping(e[3], env)
            return False
        if k == 'call':
            wrapping(e[4], env)
            wrapping(e[5], env)
            for oid in e[6:]:
                out.setdefault(oid, False)
            return False
        return False

    def assigned(ty, e, env):
        """Does a variable of type ty given e compute from a declared one?"""
        return wrapping(e, env) and \
            TYPES[ty][1] <= TYPES[type_of(e, types)][1]

    def cond(c, env):
        if c[0] == 'and':
            wrapping(c[2], env)
        elif c[0] in ('or', 'andc', 'andv'):
            cond(c[1], env)
            cond(c[2], env)
        else:
            wrapping(c, env)

    def join(a, b):
        return dict((n, a.get(n, False) and b.get(n, False))
                    for n in set(a) | set(b))

    def stmts(body, env):
        for s in body:
            k = s[0]
            if k == 'decl':
                w = assigned(s[1], s[3], env)
                types[s[2]] = s[1]
                env[s[2]] = w
            elif k == 'set':
                env[s[1]] = assigned(types[s[1]], s[2], env)
            elif k == 'if':
                cond(s[1], env)
                a, b = dict(env), dict(env)
                stmts(s[2], a)
                stmts(s[3], b)
                ends = (_terminates(s[2]), _terminates(s[3]))
                env.clear()
                env.update(b if ends[0] and not ends[1] else
                           a if ends[1] and not ends[0] else join(a, b))
            elif k in ('ret', 'sink', 'store', 'eval', 'sinkl'):
                wrapping(s[1], env)
            elif k in ('postdec', 'predec'):
                # n - 1 computes from n; the body runs zero times or more.
                body_ = s[2] if k == 'postdec' else s[3]
                for _ in range(2):
                    after = dict(env)
                    stmts(body_, after)
                    merged = join(env, after)
                    env.clear()
                    env.update(merged)
                oid = s[3] if k == 'postdec' else s[4]
                out[oid] = out.get(oid, False) or declared(s[1]) or \
                    env.get(s[1], False)

    stmts(f.body, dict((n, False) for _, n in f.params))
    for k in f.ops:
        out.setdefault(k, False)
    return out
