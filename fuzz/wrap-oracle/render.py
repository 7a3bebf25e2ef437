"""Render a numbered program (lang.py) as plain C and as the oracle's C.

A helper called by the program (lang.py's 'call') is, in plain C, a static
function defined before the functions (plain_helpers()), whose `return a
op b;` line carries the mark of every call's operation; in the oracle's C
each call is its operation, in the caller (Oracle.expr())."""
import re

from lang import (TYPES, MARK, as_bin, common_type, const_text, declared,
                  helpers, signed_of, type_of)
from shapes_helper import FIELD_HELPER

EFFECT_TY = 'u64'  # sink(), the store and the return take unsigned long


def ctype(ty):
    return TYPES[ty][0]


# The attribute the kernel's __wraps is with the plugin (DeclaredWrap.h):
# a program that declares a variable so defines it (run.py).
WRAPS = '__wraps'
WRAPS_DEFINE = '#define __wraps __attribute__((annotate("wrap-idiom:wrap")))'


def decl_type(ty, name):
    """The C type a variable, parameter or field is declared with."""
    return ctype(ty) + (' ' + WRAPS if declared(name) else '')


# --------------------------------------------------------------- plain C --

# A value named m_*: in plain C a field of a local struct (`L.m_s`), with
# another field stored before and after it, as code keeps a range in a
# struct on the stack. The oracle keeps it in a variable: the same value.
FIELD_PREFIX = 'm_'


# Values named f_*, q_*, k_*: in plain C fields of two heap objects, `o`
# and `q`, malloc()ed at the start of the function, with o->kid = q:
# f_x is o->f_x, q_x is q->q_x, and k_x the same field as q_x reached
# through the pointer loaded from o (o->kid->q_x). The statements
# ('free', 'o'|'q') free one, ('release',) passes o to a call. The oracle
# keeps them in variables (k_x is q_x); free() is no event: the generator
# reads no object after its free, so what nobody reads after it is dead.
OBJECT_FIELDS = {'f_': 'o->', 'q_': 'q->', 'k_': 'o->kid->'}


def object_field(name):
    return name[:2] in OBJECT_FIELDS


def field_name(name):
    """The field of the object a value named so lives in (k_x: q_x)."""
    return 'q_' + name[2:] if name.startswith('k_') else name


def collect_fields(body, out):
    """{field: type} of the object fields (f_*, q_*, k_*) body declares."""
    for s in body:
        if s[0] == 'decl' and object_field(s[2]):
            out.setdefault(field_name(s[2]), s[1])
        elif s[0] == 'if':
            collect_fields(s[2], out)
            collect_fields(s[3], out)
        elif s[0] in ('postdec', 'predec'):
            collect_fields(s[2] if s[0] == 'postdec' else s[3], out)


def plain_var(name):
    if object_field(name):
        return OBJECT_FIELDS[name[:2]] + field_name(name)
    return 'L.' + name if name.startswith(FIELD_PREFIX) else name


def plain_expr(e):
    k = e[0]
    if k == 'var':
        return plain_var(e[1])
    if k == 'const':
        return const_text(e[1], e[2])
    if k == 'bin':
        mark = MARK + str(e[5]) + MARK if len(e) > 5 else ''
        return '(%s %s%s %s)' % (plain_expr(e[3]), mark, e[1],
                                 plain_expr(e[4]))
    if k == 'call':
        if e[1].startswith(FIELD_HELPER):  # reads o's fields itself
            return '%s(o)' % e[1]
        return '%s(%s, %s)' % (e[1], plain_expr(e[4]), plain_expr(e[5]))
    if k == 'neg':
        mark = MARK + str(e[3]) + MARK if len(e) > 3 else ''
        return '(%s-%s)' % (mark, plain_expr(e[2]))
    if k == 'cmp':
        return '(%s %s %s)' % (plain_expr(e[2]), e[1], plain_expr(e[3]))
    if k == 'cast':
        return '((%s)%s)' % (ctype(e[1]), plain_expr(e[2]))
    if k == 'sel':
        return '(%s ? %s : %s)' % (plain_expr(e[1]), plain_expr(e[2]),
                                   plain_expr(e[3]))
    raise ValueError(e)


def plain_cond(c):
    if c[0] == 'and':
        return '%s && %s' % (plain_var(c[1]), plain_expr(c[2]))
    if c[0] == 'or':
        return '%s || %s' % (plain_cond(c[1]), plain_cond(c[2]))
    if c[0] == 'andc':
        return '(%s) && (%s)' % (plain_cond(c[1]), plain_cond(c[2]))
    if c[0] == 'andv':
        return '({ int ok_ = (%s) && (%s); ok_; })' % (plain_cond(c[1]),
                                                      plain_cond(c[2]))
    return plain_expr(c)


def plain_stmts(body, env, out, depth, ret='u64'):
    """Append body's lines to out; ret: the function's return type."""
    ind = '\t' * depth
    for s in body:
        k = s[0]
        if k == 'decl' and s[2].startswith(FIELD_PREFIX):
            env[s[2]] = s[1]
            out.append('%sL.pad0 = 1; L.%s = %s; L.pad1 = 2;' % (
                ind, s[2], plain_expr(s[3])))
        elif k == 'decl' and object_field(s[2]):
            env[s[2]] = s[1]
            out.append('%s%s = %s;' % (ind, plain_var(s[2]),
                                      plain_expr(s[3])))
        elif k == 'decl':
            env[s[2]] = s[1]
            out.append('%s%s %s = %s;' % (ind, decl_type(s[1], s[2]), s[2],
                                         plain_expr(s[3])))
        elif k == 'set' and len(s) > 3:  # name op= r
            e = s[2]
            mark = MARK + str(e[5]) + MARK if len(e) > 5 else ''
            out.append('%s%s %s%s= %s;' % (ind, plain_var(s[1]), mark, s[3],
                                          plain_expr(e[4])))
        elif k == 'set':
            out.append('%s%s = %s;' % (ind, plain_var(s[1]), plain_expr(s[2])))
        elif k == 'sinkl':
            out.append('%ssink_long(%s);' % (ind, plain_expr(s[1])))
        elif k == 'free':
            out.append('%sfree(%s);' % (ind, s[1]))
        elif k == 'release':
            out.append(ind + 'obj_release(o);')
        elif k == 'if':
            out.append('%sif (%s) {' % (ind, plain_cond(s[1])))
            plain_stmts(s[2], env, out, depth + 1, ret)
            if s[3]:
                out.append(ind + '} else {')
                plain_stmts(s[3], env, out, depth + 1, ret)
            out.append(ind + '}')
        elif k == 'ret' and ret != 'u64':  # converted to the return type
            out.append('%sreturn %s;' % (ind, plain_expr(s[1])))
        elif k == 'ret':
            out.append('%sreturn (unsigned long)%s;' % (ind, plain_expr(s[1])))
        elif k == 'sink':
            out.append('%ssink((unsigned long)%s);' % (ind, plain_expr(s[1])))
        elif k == 'store':
            out.append('%sg_store = (unsigned long)%s;' % (ind,
                                                           plain_expr(s[1])))
        elif k == 'eval':
            out.append('%s(void)%s;' % (ind, plain_expr(s[1])))
        elif k == 'warn':
            out.append(ind + 'warn();')
        elif k == 'goto':
            out.append(ind + 'goto out;')
        elif k == 'postdec':
            out.append('%swhile (%s%s%s--) {' % (ind, s[1], MARK + str(s[3]),
                                                 MARK))
            plain_stmts(s[2], env, out, depth + 1, ret)
            out.append(ind + '}')
        elif k == 'predec':
            out.append('%s{' % ind)
            out.append('%s\tint kc = 0;' % ind)
            out.append('%s\twhile (%s--%s) {' % (ind, MARK + str(s[4]) + MARK,
                                                 s[1]))
            out.append('%s\t\tif (++kc == %d)' % (ind, s[2]))
            out.append('%s\t\t\tbreak;' % ind)
            plain_stmts(s[3], env, out, depth + 2, ret)
            out.append(ind + '\t}')
            out.append(ind + '}')
        else:
            raise ValueError(s)


def plain_func(f):
    env = dict((n, t) for t, n in f.params)
    lines = ['static __attribute__((noinline)) %s %s(%s)' % (
        ctype(f.ret), f.name, ', '.join('%s %s' % (decl_type(t, n), n)
                                        for t, n in f.params)), '{']
    fields = []
    plain_stmts(f.body, env, fields, 1, f.ret)
    struct = [(t, n) for n, t in env.items() if n.startswith(FIELD_PREFIX)]
    if struct:
        lines.append('\tstruct { long pad0; %s long pad1; } L;' % ' '.join(
            '%s %s;' % (decl_type(t, n), n) for t, n in struct))
    heap = {}
    collect_fields(f.body, heap)
    if heap:
        tag = 'obj_' + f.name
        if field_helpers(f):  # defined before the helpers that read it
            lines.append('\tstruct %s' % tag)
        else:
            lines.append('\t' + object_struct(tag, heap))
        lines.append('\t\t*o = malloc(sizeof(struct %s)), *q = malloc('
                     'sizeof(struct %s));' % (tag, tag))
        lines.append('\tif (!o || !q)')
        lines.append('\t\treturn 0;')
        lines.append('\to->kid = q;')
    lines += fields
    lines += ['out:', '\treturn 0;', '}']
    return lines


def object_struct(tag, heap):
    """The heap objects' type: pads around the fields, and the child."""
    return 'struct %s { long pad0; %s struct %s *kid; long pad1; }' % (
        tag, ' '.join('%s %s;' % (decl_type(t, n), n)
                      for n, t in sorted(heap.items())), tag)


def field_helpers(f):
    """{helper: (field, field)} of f's calls of helpers that read their
    operands from o (shapes_helper.FIELD_HELPER): one caller each."""
    out = {}

    def walk(x):
        if isinstance(x, tuple) and x and x[0] == 'call' and \
                x[1].startswith(FIELD_HELPER):
            out[x[1]] = (x[4][1], x[5][1])
        for y in x if isinstance(x, (tuple, list)) else ():
            if isinstance(y, (tuple, list)):
                walk(y)
    walk(f.body)
    return out


def plain_helpers(funcs):
    """{helper: its definition's lines} of a numbered program: `static T
    h(T a, T b)`, not inline, no attributes, its one line `return a op b;`
    marked with the operations of all its calls. A field helper is `static
    T hf_N(const struct obj_F *o)` returning `o->f_x op o->f_y`, after its
    caller's object type (defined here, once)."""
    out = {}
    readers = {}
    for f in funcs:
        for name, fields in field_helpers(f).items():
            readers[name] = (f, fields)
    typed = set()
    for name, (op, ty, ids) in helpers(funcs).items():
        mark = MARK + ','.join(map(str, ids)) + MARK if ids else ''
        c = ctype(ty)
        if name not in readers:
            out[name] = ['static %s %s(%s a, %s b)' % (c, name, c, c), '{',
                         '\treturn a %s%s b;' % (mark, op), '}']
            continue
        f, (x, y) = readers[name]
        tag = 'obj_' + f.name
        lines = []
        if tag not in typed:
            typed.add(tag)
            heap = {}
            collect_fields(f.body, heap)
            lines.append(object_struct(tag, heap) + ';')
        out[name] = lines + [
            'static %s %s(const struct %s *o)' % (c, name, tag), '{',
            '\treturn o->%s %s%s o->%s;' % (x, mark, op, y), '}']
    return out


MARK_RE = re.compile(MARK + r'(\d+(?:,\d+)*)' + MARK)


def strip_marks(lines, first_line):
    """Remove the operator marks; return the lines and {(line, col): (op,
    ...)}: one operation, or a helper's several."""
    where = {}
    clean = []
    for n, line in enumerate(lines):
        while True:
            m = MARK_RE.search(line)
            if not m:
                break
            col = m.start() + 1 + line[:m.start()].count('\t') * 0
            where[(first_line + n, col)] = tuple(
                int(x) for x in m.group(1).split(','))
            line = line[:m.start()] + line[m.end():]
        clean.append(line)
    return clean, where


# ------------------------------------------------------------- oracle C --

class Oracle:
    """Lowers a function into C that computes every value with its shadows
    (machine, ideal, checked-operation set, comparison set) and logs."""

    def __init__(self, f, fidx):
        self.f = f
        self.fidx = fidx
        self.n = 0
        self.out = []
        self.env = dict((n, t) for t, n in f.params)

    def tmp(self):
        self.n += 1
        return 't%d' % self.n

    def emit(self, depth, text):
        self.out.append('\t' * depth + text)

    def declare(self, depth, name, ty):
        self.emit(depth, '%s %s; __int128 %s_i; u64 %s_d, %s_c, %s_w;' % (
            ctype(ty), name, name, name, name, name))

    def absorb(self, depth, t):
        """A value equal to its ideal value shows no wrap: t_w = 0."""
        self.emit(depth, 'if (%s_i == (__int128)%s) %s_w = 0;' % (t, t, t))

    def opbit(self, oid):
        return '(1ULL << %d)' % self.f.ops.index(oid)

    def cmpbit(self, cid):
        return '(1ULL << %d)' % self.f.sites.index(cid)

    def expr(self, e, depth):
        """Emit statements computing e; return the name of its quadruple."""
        k = e[0]
        if k == 'call':  # the helper's operation, in the caller
            return self.expr(as_bin(e, self.env), depth)
        t = self.tmp()
        if k == 'var':
            return field_name(e[1])
        ty = type_of(e, self.env)
        self.declare(depth, t, ty)
        if k == 'const':
            v = const_text(e[1], e[2])
            self.emit(depth, '%s = %s; %s_i = %s; %s_d = 0; %s_c = 0; %s_w = '
                      '0;' % (t, v, t, t, t, t, t))
        elif k == 'bin':
            l, r = self.expr(e[3], depth), self.expr(e[4], depth)
            op = e[1]
            self.emit(depth, '%s = (%s)(%s %s %s);' % (t, ctype(ty), l, op, r))
            if op == '/' or op == '%':
                self.emit(depth, '%s_i = %s_i != 0 ? %s_i %s %s_i : %s;' % (
                    t, r, l, op, r, t))
            elif op == '>>':
                self.emit(depth, '%s_i = %s_i >> %s;' % (t, l, r))
            else:
                self.emit(depth, '%s_i = %s_i %s %s_i;' % (t, l, op, r))
            self.emit(depth, '%s_d = %s_d | %s_d; %s_c = %s_c | %s_c; %s_w = '
                      '%s_w | %s_w;' % (t, l, r, t, l, r, t, l, r))
            if len(e) > 5:
                name = {'+': 'add', '-': 'sub', '*': 'mul'}[op]
                self.emit(depth, '{ %s o; int w = __builtin_%s_overflow'
                          '(%s, %s, &o); ev_W(%d, w, (u64)o, %s_d | %s_d); '
                          'if (w) %s_w |= %s; }' % (
                              ctype(ty), name, l, r, e[5], l, r, t,
                              self.opbit(e[5])))
                self.emit(depth, '%s_d |= %s;' % (t, self.opbit(e[5])))
                if op in '+-' and not TYPES[ty][2]:
                    self.recheck_event(e[5], ty, op, l, r, t, depth)
            self.absorb(depth, t)
        elif k == 'neg':
            x = self.expr(e[2], depth)
            self.emit(depth, '%s = (%s)-%s; %s_d = %s_d; %s_c = %s_c; %s_w = '
                      '%s_w;' % (t, ctype(ty), x, t, x, t, x, t, x))
            if e[2][0] == 'const':
                self.emit(depth, '%s_i = %s;' % (t, t))  # as written
            else:
                self.emit(depth, '%s_i = -%s_i;' % (t, x))
            if len(e) > 3:
                self.emit(depth, 'ev_W(%d, %s != 0, (u64)%s, %s_d);' % (
                    e[3], x, t, x))
                self.emit(depth, '%s_d |= %s; if (%s != 0) %s_w |= %s;' % (
                    t, self.opbit(e[3]), x, t, self.opbit(e[3])))
                self.neg_recheck_event(e[3], ty, x, t, depth)
            self.absorb(depth, t)
        elif k == 'cmp':
            self.compare(e, depth, t, 'v')
        elif k == 'cast':
            x = self.expr(e[2], depth)
            _, bits, sgn = TYPES[ty]
            _, sbits, ssgn = TYPES[type_of(e[2], self.env)]
            self.emit(depth, '%s = (%s)%s; %s_i = icast(%s_i, %d, %d, %d, '
                      '%d); %s_d = %s_d; %s_c = %s_c; %s_w = %s_w;' % (
                          t, ctype(ty), x, t, x, bits, sgn, sbits, ssgn, t, x,
                          t, x, t, x))
            self.absorb(depth, t)
        elif k == 'sel':
            c = self.expr(e[1], depth)
            self.emit(depth, 'if (%s) {' % c)
            a = self.expr(e[2], depth + 1)
            self.copy(depth + 1, t, a)
            self.emit(depth, '} else {')
            b = self.expr(e[3], depth + 1)
            self.copy(depth + 1, t, b)
            self.emit(depth, '}')
            self.emit(depth, '%s_c |= %s_c;' % (t, c))
        return t

    def recheck_event(self, oid, ty, op, l, r, t, depth):
        """ev_R (oracle.h): the meanings a re-check may give the operation
        (t: its result, whose ideal value is computed)."""
        c, bits = ctype(ty), TYPES[ty][1]
        name = {'+': 'add', '-': 'sub'}[op]
        half = '((__int128)1 << %d)' % (bits - 1)
        diff = '0'
        if op == '-':
            diff = ('({ __int128 dd = (__int128)(%s)%s - (__int128)(%s)%s; '
                    'dd < -%s || dd >= %s; })' % (c, l, c, r, half, half))
        ideal = '(%s_i < 0 || %s_i > (__int128)(%s)-1)' % (t, t, c)
        self.emit(depth, '{ %s o; %s so; ev_R(%d, __builtin_%s_overflow(%s, '
                  '%s, &o), %s, __builtin_%s_overflow((%s)%s, (%s)%s, &o), '
                  '%s, __builtin_%s_overflow(%s, %s, &so), %s); }' % (
                      c, ctype(signed_of(ty)), oid, name, l, r, diff, name,
                      c, l, c, r, ideal, name, l, r,
                      self.signed_ideal(t, bits)))

    @staticmethod
    def signed_ideal(t, bits):
        """Is t's ideal value out of the range of the signed type of its
        width?"""
        half = '((__int128)1 << %d)' % (bits - 1)
        return '(%s_i < -%s || %s_i >= %s)' % (t, half, t, half)

    def neg_recheck_event(self, oid, ty, x, t, depth):
        """ev_R of an unsigned negation -x: its true result fits the
        unsigned type only for 0, the signed one up to 2^(N-1)."""
        c, bits = ctype(ty), TYPES[ty][1]
        self.emit(depth, '{ %s so; ev_R(%d, %s != 0, 0, %s != 0, (%s_i < 0 || '
                  '%s_i > (__int128)(%s)-1), __builtin_sub_overflow(0, %s, '
                  '&so), %s); }' % (ctype(signed_of(ty)), oid, x, x, t, t, c,
                                    x, self.signed_ideal(t, bits)))

    def copy(self, depth, dst, src):
        self.emit(depth, '%s = %s; %s_i = %s_i; %s_d = %s_d; %s_c = %s_c; '
                  '%s_w = %s_w;' % (dst, src, dst, src, dst, src, dst, src,
                                    dst, src))

    def compare(self, e, depth, t, ctx):
        l, r = self.expr(e[2], depth), self.expr(e[3], depth)
        # In ideal arithmetic too, C compares both in their common type.
        ct = common_type(type_of(e[2], self.env), type_of(e[3], self.env))
        li, ri = [self.ideal_as(x, type_of(y, self.env), ct)
                  for x, y in ((l, e[2]), (r, e[3]))]
        self.emit(depth, '%s = (%s %s %s); %s_i = (%s %s %s);' % (
            t, l, e[1], r, t, li, e[1], ri))
        # A comparison's outcome carries no arithmetic: its influence is
        # the comparison itself (judge.py).
        self.emit(depth, '%s_d = 0; %s_c = %s_c | %s_c | %s; %s_w = 0;' % (
            t, t, l, r, self.cmpbit(e[4]), t))
        self.emit(depth, '%s = ev_C(%d, \'%s\', %s, (int)%s_i, %s_d | %s_d, '
                  '%s_w | %s_w);' % (t, e[4], ctx, t, t, l, r, l, r))

    @staticmethod
    def ideal_as(x, ty, to):
        """The ideal value of x (of type ty) converted to type to."""
        if ty == to:
            return x + '_i'
        (_, bits, sgn), (_, sbits, ssgn) = TYPES[to], TYPES[ty]
        return 'icast(%s_i, %d, %d, %d, %d)' % (x, bits, sgn, sbits, ssgn)

    def cond(self, c, depth):
        """Emit the evaluation of a branch condition; return an int name."""
        f = self.tmp()
        self.emit(depth, 'int %s = 0;' % f)
        if c[0] == 'and':
            self.emit(depth, 'if (%s) {' % c[1])
            g = self.cond(c[2], depth + 1)
            self.emit(depth + 1, '%s = %s;' % (f, g))
            self.emit(depth, '}')
        elif c[0] in ('or', 'andc', 'andv'):
            g = self.cond(c[1], depth)
            self.emit(depth, '%s = %s;' % (f, g))
            self.emit(depth, ('if (!%s) {' if c[0] == 'or' else
                              'if (%s) {') % f)
            h = self.cond(c[2], depth + 1)
            self.emit(depth + 1, '%s = %s;' % (f, h))
            self.emit(depth, '}')
        else:
            t = self.tmp()
            self.declare(depth, t, 'i32')
            self.compare(c, depth, t, 'b')
            self.emit(depth, '%s = %s;' % (f, t))
        return f

    def effect(self, kind, e, depth, to='u64'):
        """An effect of e's value converted to type `to` (sink(), the
        store and an unsigned long function's return take unsigned long,
        sink_long() a long, another function's return its type)."""
        x = self.expr(e, depth)
        _, sbits, ssgn = TYPES[type_of(e, self.env)]
        if to == 'u64':
            self.emit(depth, '{ unsigned long m = (unsigned long)%s; __int128 '
                      'i = icast(%s_i, 64, 0, %d, %d); ev_E("%s", m, i != '
                      '(__int128)m, %s_d, %s_c, %s_w);' % (
                          x, x, sbits, ssgn, kind, x, x, x))
        else:
            _, bits, sgn = TYPES[to]
            self.emit(depth, '{ %s mt = (%s)%s; unsigned long m = (unsigned '
                      'long)mt; __int128 i = icast(%s_i, %d, %d, %d, %d); '
                      'ev_E("%s", m, i != (__int128)mt, %s_d, %s_c, %s_w);' % (
                          ctype(to), ctype(to), x, x, bits, sgn, sbits, ssgn,
                          kind, x, x, x))
        if kind == 'ret':
            self.emit(depth, '  return m; }')
        elif kind == 'sink':
            self.emit(depth, '  sink(m); }')
        elif kind == 'sinkl':
            self.emit(depth, '  sink_long(mt); }')
        else:
            self.emit(depth, '  g_store = m; }')

    def converted(self, ty, e):
        """e as given to a variable of type ty: converted implicitly."""
        return e if type_of(e, self.env) == ty else ('cast', ty, e)

    def stmts(self, body, depth):
        for s in body:
            k = s[0]
            if k == 'decl' and object_field(s[2]):
                # Object memory: declared once, at the top (render()).
                self.env[s[2]] = s[1]
                x = self.expr(self.converted(s[1], s[3]), depth)
                self.copy(depth, field_name(s[2]), x)
            elif k == 'decl':
                x = self.expr(self.converted(s[1], s[3]), depth)
                self.env[s[2]] = s[1]
                self.declare(depth, s[2], s[1])
                self.copy(depth, s[2], x)
            elif k == 'set':
                x = self.expr(self.converted(self.env[s[1]], s[2]), depth)
                self.copy(depth, field_name(s[1]), x)
            elif k == 'sinkl':
                self.effect('sinkl', s[1], depth, 'i64')
            elif k == 'free':
                self.emit(depth, '/* free(%s) */' % s[1])
            elif k == 'release':
                # The callee may read every field of o.
                for n in sorted(self.fields):
                    if n.startswith('f_'):
                        self.effect('sink', ('var', n), depth)
            elif k == 'if':
                c = self.cond(s[1], depth)
                self.emit(depth, 'if (%s) {' % c)
                self.stmts(s[2], depth + 1)
                self.emit(depth, '} else {')
                self.stmts(s[3], depth + 1)
                self.emit(depth, '}')
            elif k == 'ret':
                self.effect(k, s[1], depth, self.f.ret)
            elif k in ('sink', 'store'):
                self.effect(k, s[1], depth)
            elif k == 'eval':
                self.expr(s[1], depth)
            elif k == 'warn':
                self.emit(depth, 'ev_E("warn", 0, 0, 0, 0, 0); warn();')
            elif k == 'goto':
                self.emit(depth, 'goto out;')
            elif k == 'postdec':
                self.loop_dec(s[1], s[2], s[3], None, None, depth)
            elif k == 'predec':
                self.loop_dec(s[1], s[3], s[4], s[2], s[5], depth)

    def loop_dec(self, n, body, oid, limit, cid, depth):
        ty = self.env[n]
        self.emit(depth, '{ int kc = 0; (void)kc;')
        self.emit(depth, 'for (;;) {')
        d = depth + 1
        self.emit(d, '%s old = %s; { %s o; int w = __builtin_sub_overflow'
                  '(%s, (%s)1, &o); ev_W(%d, w, (u64)o, %s_d); if (w) %s_w |= '
                  '%s; }' % (ctype(ty), n, ctype(ty), n, ctype(ty), oid, n, n,
                             self.opbit(oid)))
        self.emit(d, '%s = (%s)(%s - 1); %s_i = %s_i - 1; %s_d |= %s;' % (
            n, ctype(ty), n, n, n, n, self.opbit(oid)))
        self.absorb(d, n)
        if limit is None:  # while (n--): the old value decides
            self.emit(d, 'if (!(old != 0)) break;')
        else:  # while (--n): the new one does
            self.emit(d, 'int m = ev_C(%d, \'b\', %s != 0, (int)(%s_i != 0), '
                      '%s_d, %s_w);' % (cid, n, n, n, n))
            self.emit(d, 'if (!m) break;')
            self.emit(d, 'if (++kc == %d) break;' % limit)
        self.stmts(body, d)
        self.emit(depth, '} }')

    def render(self):
        f = self.f
        head = 'static __attribute__((noinline)) unsigned long o_%s(%s)' % (
            f.name, ', '.join('%s %s' % (ctype(t), n) for t, n in f.params))
        self.out = [head, '{']
        self.emit(1, 'ev_F(%d);' % self.fidx)
        for t, n in f.params:
            self.emit(1, '__int128 %s_i = %s; u64 %s_d = 0, %s_c = 0, %s_w = '
                      '0;' % (n, n, n, n, n))
        self.fields = {}
        collect_fields(f.body, self.fields)
        for n, t in sorted(self.fields.items()):
            self.env[n] = t
            self.declare(1, n, t)
            self.emit(1, '%s = 0; %s_i = 0; %s_d = 0; %s_c = 0; %s_w = 0;' % (
                n, n, n, n, n))
        self.stmts(f.body, 1)
        self.out += ['out:', '\tev_E("ret", 0, 0, 0, 0, 0);', '\treturn 0;',
                     '}']
        return self.out
