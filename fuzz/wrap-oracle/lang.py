"""The little language of the wrap-oracle generator.


A program is a list of functions over a few integer types. Each function is
rendered twice from the same tree:

  plain   ordinary C, the program the plugin sees (each checked operator's
          line and column are recorded, to map clang's remarks back to it);
  oracle  the same computation with shadows: every value v carries
          v_i, its value in unbounded ("ideal") arithmetic (__int128),
          v_d, the set of checked operations whose result flows into it,
          v_c, the set of comparisons whose outcome flows into it,
          and every checked operation, comparison and effect is logged
          (judge.py reads the log).

Expressions: ('var', name) ('const', value, ty) ('bin', op, ty, l, r)
('neg', ty, e) ('cmp', pred, l, r) ('cast', ty, e) ('sel', cmp, a, b)
('call', helper, op, ty, l, r). Statements: ('decl', ty, name, e) ('if',
cond, then, else) ('ret', e) ('sink', e) ('store', e) ('eval', e)
('warn',) ('goto',) ('postdec', name, body) ('predec', name, limit, body)
('set', name, e[, op]) ('sinkl', e). cond is a comparison, ('and', var,
cmp), ('or', cond, cond), ('andc', cond, cond) (`c1 && c2`) or ('andv',
cond, cond) (the same through an int, as a helper returns it).

Conversions: a value of another type than the one it is given to, by a
'decl' or 'set' (the variable's type), a 'ret' of a function whose return
type (Func.ret) is not unsigned long, or 'sinkl' (`sink_long(long)`), is
converted implicitly, as C converts it (no cast is written: clang's
implicit-conversion checks see it, ConversionFacts.h); 'ret', 'sink' and
'store' of an unsigned long function write `(unsigned long)` (explicit).
('set', name, e, op) assigns e, which is ('bin', op, ty, ('var', name), r),
written as the compound assignment `name op= r`.

A variable, parameter or field whose name (after the field prefix, m_
f_ q_ k_) starts with w_ is declared `__wraps`
(`__attribute__((annotate("wrap-idiom:wrap")))`, DeclaredWrap.h):
declared().

('call', helper, op, ty, l, r) is helper(l, r), a static helper of the
program defined as `return a op b;` on two parameters of type ty (every
call of one helper has the same op and ty). The plain program calls it, and
the helper's operator is the one checked operator of all its calls; the
oracle evaluates each call as ('bin', op, ty, l, r) in the caller's frame
(as_bin()), with its own operation id. So one site of the plain program
may stand for several operations: `where` maps a site to a tuple of ids.
('eval', e) evaluates e and discards it (`(void)h(a, b);`).
"""

TYPES = {
    # name: (C type, bits, signed)
    'u32': ('unsigned int', 32, False),
    'u64': ('unsigned long', 64, False),
    'i32': ('int', 32, True),
    'i64': ('long', 64, True),
    'u8': ('unsigned char', 8, False),
    'i16': ('short', 16, True),
}
CHECKED = {'+': 'add', '-': 'sub', '*': 'mul'}
MARK = '\x01'


# Constructors of the tree (shapes.py, shapes_helper.py).
def V(n):
    return ('var', n)


def C(v, ty):
    return ('const', v, ty)


def bin_(op, ty, l, r):
    return ('bin', op, ty, l, r)


def cmp(pred, l, r):
    return ('cmp', pred, l, r)


def signed_of(ty):
    """The signed type of ty's width."""
    return {'u32': 'i32', 'u64': 'i64'}.get(ty, ty)


FIELD_PREFIXES = ('m_', 'f_', 'q_', 'k_')


def declared(name):
    """Is the variable, parameter or field `name` declared to wrap?"""
    if name[:2] in FIELD_PREFIXES:
        name = name[2:]
    return name.startswith('w_')


def common_type(a, b):
    """The type C compares values of types a and b in (the usual
    arithmetic conversions: `int < unsigned int` compares unsigned)."""
    a, b = [t if TYPES[t][1] >= 32 else 'i32' for t in (a, b)]
    if a == b:
        return a
    (_, abits, asgn), (_, bbits, bsgn) = TYPES[a], TYPES[b]
    if asgn == bsgn:
        return a if abits >= bbits else b
    u, s = (b, a) if asgn else (a, b)
    return u if TYPES[u][1] >= TYPES[s][1] else s


def cmax(ty):
    _, bits, signed = TYPES[ty]
    return (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1


def cmin(ty):
    _, bits, signed = TYPES[ty]
    return -(1 << (bits - 1)) if signed else 0


def wrap(v, ty):
    """v reduced to ty the way C converts to it (modulo 2^bits)."""
    _, bits, signed = TYPES[ty]
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def const_text(v, ty):
    suffix = {'u32': 'U', 'u64': 'UL', 'i32': '', 'i64': 'L', 'u8': 'U',
              'i16': ''}[ty]
    if v < 0:
        return '(%s)' % (str(v) + suffix)
    return '%d%s' % (v, suffix) if v <= 0xffffffff or ty != 'i32' else str(v)


class Func:
    def __init__(self, name, params, body, ret='u64'):
        self.name = name          # C name
        self.params = params      # [(ty, name)]
        self.body = body          # statements
        self.ret = ret            # return type
        self.ops = []             # checked operation ids, in order
        self.sites = []           # comparison ids


class Numbering:
    """Program-wide ids of checked operations and comparisons."""

    def __init__(self):
        self.op = 0
        self.cmp = 0
        self.op_kind = {}   # id -> 'add', 'sub', 'mul', 'neg'
        self.op_func = {}   # id -> function name

    def new_op(self, kind, func):
        self.op += 1
        self.op_kind[self.op] = kind
        self.op_func[self.op] = func
        return self.op

    def new_cmp(self):
        self.cmp += 1
        return self.cmp


def type_of(e, env):
    k = e[0]
    if k == 'var':
        return env[e[1]]
    if k in ('const', 'neg', 'cast'):
        return e[2] if k == 'const' else e[1]
    if k == 'bin':
        return e[2]
    if k == 'call':
        return e[3]
    if k == 'cmp':
        return 'i32'
    if k == 'sel':
        return type_of(e[2], env)
    raise ValueError(e)


def as_bin(e, env=None):
    """A call ('call', helper, op, ty, l, r[, id]) as the operation it
    computes, ('bin', op, ty, l, r[, id]): each argument converted to ty
    as C converts it to the parameter's type (with env, the caller's
    types; the generator passes arguments of type ty)."""
    l, r = e[4], e[5]
    if env is not None:
        l = l if type_of(l, env) == e[3] else ('cast', e[3], l)
        r = r if type_of(r, env) == e[3] else ('cast', e[3], r)
    return ('bin', e[2], e[3], l, r) + tuple(e[6:])


def ops_at(where, site):
    """The operation ids a site of the plain program stands for (several
    for a helper's operator, one for any other; () for none)."""
    k = where.get(site)
    if k is None:
        return ()
    return k if isinstance(k, tuple) else (k,)


def helpers(funcs):
    """{helper: (op, ty, [operation ids of its calls])} of a numbered
    program, in the order of first call."""
    out = {}

    def expr(e):
        if not isinstance(e, tuple):
            return
        if e[0] == 'call':
            op, ty, ids = out.setdefault(e[1], (e[2], e[3], []))
            if (op, ty) != (e[2], e[3]):
                raise ValueError('helper %s: %s %s and %s %s' % (
                    e[1], op, ty, e[2], e[3]))
            ids += list(e[6:])
        for x in e[1:]:
            if isinstance(x, tuple) and x and isinstance(x[0], str):
                expr(x)

    def stmts(body):
        for s in body:
            for x in s[1:]:
                if isinstance(x, list):
                    stmts(x)
                elif isinstance(x, tuple):
                    expr(x)
    for f in funcs:
        stmts(f.body)
    return out


def number(funcs, num):
    """Give every checked operation and comparison its id (in place)."""
    def expr(e, f):
        k = e[0]
        if k in ('bin', 'call'):
            # ('bin', op, ty, l, r), ('call', helper, op, ty, l, r): a
            # call's operation is numbered in its caller, as the inline one.
            at = 1 if k == 'bin' else 2
            e = list(e)
            e[at + 2] = expr(e[at + 2], f)
            e[at + 3] = expr(e[at + 3], f)
            if e[at] in CHECKED and TYPES[e[at + 1]][1] >= 32:
                e.append(num.new_op(CHECKED[e[at]], f.name))
                f.ops.append(e[-1])
            return tuple(e)
        if k == 'neg':
            inner = expr(e[2], f)
            if inner[0] == 'const' or TYPES[e[1]][2]:
                return ('neg', e[1], inner)
            oid = num.new_op('neg', f.name)
            f.ops.append(oid)
            return ('neg', e[1], inner, oid)
        if k == 'cmp':
            cid = num.new_cmp()
            f.sites.append(cid)
            return ('cmp', e[1], expr(e[2], f), expr(e[3], f), cid)
        if k == 'cast':
            return ('cast', e[1], expr(e[2], f))
        if k == 'sel':
            return ('sel', expr(e[1], f), expr(e[2], f), expr(e[3], f))
        return e

    def cond(c, f):
        if c[0] == 'and':
            return ('and', c[1], expr(c[2], f))
        if c[0] in ('or', 'andc', 'andv'):
            return (c[0], cond(c[1], f), cond(c[2], f))
        return expr(c, f)

    def stmts(body, f):
        out = []
        for s in body:
            k = s[0]
            if k == 'decl':
                out.append(('decl', s[1], s[2], expr(s[3], f)))
            elif k == 'if':
                out.append(('if', cond(s[1], f), stmts(s[2], f),
                            stmts(s[3], f)))
            elif k in ('ret', 'sink', 'store', 'eval', 'sinkl'):
                out.append((k, expr(s[1], f)))
            elif k == 'set':
                out.append(('set', s[1], expr(s[2], f)) + tuple(s[3:]))
            elif k == 'postdec':
                oid = num.new_op('sub', f.name)
                f.ops.append(oid)
                out.append(('postdec', s[1], stmts(s[2], f), oid))
            elif k == 'predec':
                oid = num.new_op('sub', f.name)
                f.ops.append(oid)
                cid = num.new_cmp()
                f.sites.append(cid)
                out.append(('predec', s[1], s[2], stmts(s[3], f), oid, cid))
            else:
                out.append(s)
        return out

    for f in funcs:
        f.body = stmts(f.body, f)
