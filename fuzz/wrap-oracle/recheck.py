"""Judge re-checked checks (llvm-pass/SignedRecheck.h) by running them.

A re-check keeps a check and replaces its condition. It is right when the
plugin's build reports, in every call, exactly when the operation's true
result is out of range in the meaning the remark names; the oracle build
logs both meanings for every unsigned add and sub (ev_R, oracle.h):

  signed-offset      the true result of the operands read with their own C
                     types (`x + off` with off an int: x - 1 for off -1)
                     leaves the result type's range;
  signed-difference  the difference of the operands converted to the result
                     type does not fit its signed counterpart;
  circular-difference  the ideal (unbounded) result of the correction
                     d + size, d the true a - b, leaves the result type's
                     range: the size does not cover b - a.

circular-difference also removes the check of the difference it corrects;
run.py judges that removal like any other (judge.py), except that a
harmful wrap of the difference is no failure in a call where the plugin's
build reported at a circular-difference re-check of the same function:
the correction that did not restore the distance was reported (excused()).

A signed-difference re-check is also only right when the program reads the
difference as nothing but a signed value: decided here on the C source
(signed_only()), independently of the plugin's IR rule. A re-check of a
difference that is also read as unsigned, which stays silent in a call
where the unsigned subtraction wrapped, hid that wrap.

run.py builds the plugin's objects (prog-O0.o, prog-O2.o); this module
links each with a driver that runs every call of every function with a
re-checked check in its own process (UBSan reports a site once per
process) and reads the reports' file:line:col.
"""
import os
import re

from lang import TYPES, as_bin, const_text, ops_at, type_of

REPORT = re.compile(r'^prog\.c:(\d+):(\d+): runtime error:')


def _is_signed(ty):
    return TYPES[ty][2]


def _occurrences(f):
    """Every expression node of f that can run, with its parent expression
    (None at the top) and its statement, in order: statements after a
    return or goto in the same list are dead (the generator appends uses
    after a return; clang emits no code for them)."""
    out = []

    def expr(e, parent, stmt):
        out.append((e, parent, stmt))
        k = e[0]
        if k == 'bin':
            expr(e[3], e, stmt)
            expr(e[4], e, stmt)
        elif k == 'call':
            expr(e[4], e, stmt)
            expr(e[5], e, stmt)
        elif k in ('neg', 'cast'):
            expr(e[2], e, stmt)
        elif k == 'cmp':
            expr(e[2], e, stmt)
            expr(e[3], e, stmt)
        elif k == 'sel':
            for x in e[1:4]:
                expr(x, e, stmt)

    def cond(c, stmt):
        if c[0] == 'and':
            out.append((('var', c[1]), ('and',), stmt))
            expr(c[2], None, stmt)
        elif c[0] == 'or':
            cond(c[1], stmt)
            cond(c[2], stmt)
        else:
            expr(c, None, stmt)

    def stmts(body):
        for s in body:
            k = s[0]
            if k == 'goto':
                break
            if k == 'decl':
                expr(s[3], None, s)
            elif k == 'if':
                cond(s[1], s)
                stmts(s[2])
                stmts(s[3])
            elif k in ('ret', 'sink', 'store', 'eval'):
                expr(s[1], None, s)
                if k == 'ret':
                    break  # what follows never runs
            elif k in ('postdec', 'predec'):
                out.append((('var', s[1]), ('loop',), s))
                stmts(s[2] if k == 'postdec' else s[3])
    stmts(f.body)
    return out


def signed_only(f, oid):
    """Does the program read the result of operation oid as nothing but a
    signed value (C semantics)? Signed readings: a comparison of two signed
    operands, a signed `/ % + - *` or `>>` of it, a conversion to a wider
    signed type (which keeps the value); a conversion to a signed type no
    wider, a select or a signed variable pass it on, and their own uses
    must be signed readings. Anything else (an effect, an unsigned
    conversion, comparison or arithmetic) reads it as unsigned."""
    occ = _occurrences(f)
    env = dict((n, t) for t, n in f.params)
    for e, _, s in occ:
        if s[0] == 'decl':
            env[s[2]] = s[1]

    def ty(e):
        return type_of(e, env)

    def parent_occ(p):
        for o in occ:
            if o[0] is p:
                return o
        return None

    def var_ok(name, seen):
        if name in seen:
            return True
        seen = seen | {name}
        uses = [o for o in occ if o[0][0] == 'var' and o[0][1] == name]
        return bool(uses) and all(value_ok(o, seen) for o in uses)

    def converted(to, e, then):
        """e converted to type `to`: to a wider type, a signed value is
        sign-extended, i.e. read as signed (whatever the wider value meets
        later is a conversion of the true difference, not its wrap), an
        unsigned one zero-extended; to an unsigned type no wider, read as
        unsigned; to a signed type no wider, passed on to `then`."""
        if TYPES[to][1] > TYPES[ty(e)][1]:
            return _is_signed(ty(e))
        if not _is_signed(to):
            return False
        return then()

    def value_ok(o, seen):
        e, parent, stmt = o
        if parent is None:
            if stmt[0] == 'decl' and stmt[3] is e:
                return converted(stmt[1], e, lambda: var_ok(stmt[2], seen))
            if stmt[0] in ('ret', 'sink', 'store'):  # unsigned long
                return converted('u64', e, lambda: False)
            return False
        if parent[0] == 'call':  # an argument: the helper's operand
            parent = as_bin(parent)
        pk = parent[0]
        if pk == 'cmp':
            other = parent[3] if parent[2] is e else parent[2]
            return _is_signed(ty(e)) and _is_signed(ty(other))
        if pk == 'cast':
            po = parent_occ(parent)
            return po is not None and converted(
                parent[1], e, lambda: value_ok(po, seen))
        if pk == 'sel':
            if parent[1] is e or not _is_signed(ty(parent)):
                return False
            po = parent_occ(parent)
            return po is not None and value_ok(po, seen)
        if pk == 'bin':
            if not _is_signed(parent[2]) or not _is_signed(ty(e)):
                return False
            if parent[1] in ('/', '%', '+', '-', '*'):
                return True
            return parent[1] == '>>' and parent[3] is e
        return False

    for o in occ:
        e = o[0]
        if e[0] == 'bin' and len(e) > 5 and e[5] == oid or \
                e[0] == 'call' and len(e) > 6 and e[6] == oid:
            return value_ok(o, frozenset())
    return False


MEANINGS = {'signed-offset': 0, 'signed-difference': 1,
            'circular-difference': 3}


def events_by_call(events):
    """{(func, call): {op: [off, diff, uw, ideal]}} from the oracle's R
    events, each bit OR-ed over the evaluations in the call."""
    out, cur = {}, None
    for ev in events:
        if ev[0] == 'F':
            cur = out.setdefault((ev[1], ev[2]), {})
        elif ev[0] == 'R' and cur is not None:
            bits = cur.setdefault(ev[1], [0, 0, 0, 0])
            for i in range(4):
                bits[i] |= ev[2 + i]
    return out


def excused(fidx, call, funcs, rechecked, where, reported):
    """Did the plugin's build report, in call `call` of function fidx, at a
    circular-difference re-check of that function?"""
    ops = set(funcs[fidx].ops)
    return any(idiom == 'circular-difference' and
               ops.intersection(ops_at(where, site)) and
               site in reported.get((fidx, call), set())
               for site, idiom in rechecked.items())


def driver_source(funcs, args, which):
    """A main() that runs call j of function i, for each i in which, each
    in its own process, framed by `CALL i j` on stderr."""
    lines = ['#include <stdio.h>', '#include <sys/wait.h>',
             '#include <unistd.h>', '',
             'volatile unsigned long g_store;',
             'void sink(unsigned long v) { (void)v; }', 'void warn(void) { }',
             'void obj_release(void *o) { (void)o; }',
             '']
    for i in which:
        f = funcs[i]
        lines.append('unsigned long %s(%s);' % (f.name, ', '.join(
            TYPES[t][0] for t, _ in f.params)))
    lines += ['', 'static void call(int f, int j)', '{',
              '\tswitch (f * 100000 + j) {']
    for i in which:
        f = funcs[i]
        for j, tup in enumerate(args[i]):
            vals = ', '.join(const_text(v, t) for v, (t, _) in
                             zip(tup, f.params))
            lines.append('\tcase %d: %s(%s); break;' % (i * 100000 + j,
                                                        f.name, vals))
    lines += ['\t}', '}', '', 'int main(void)', '{',
              '\tstatic const int fs[] = { %s };' % ', '.join(
                  str(i) for i in which),
              '\tfor (unsigned n = 0; n < sizeof(fs) / sizeof(fs[0]); n++)',
              '\t\tfor (int j = 0; j < %d; j++) {' % max(
                  len(args[i]) for i in which),
              '\t\t\tint st;',
              '\t\t\tfprintf(stderr, "CALL %d %d\\n", fs[n], j);',
              '\t\t\tpid_t p = fork();',
              '\t\t\tif (p == 0) { call(fs[n], j); _exit(0); }',
              '\t\t\tif (p < 0 || waitpid(p, &st, 0) != p) return 2;',
              '\t\t}', '\treturn 0;', '}']
    return '\n'.join(lines) + '\n'


def reports(stderr):
    """{(func, call): {(line, col)}} of the UBSan reports of a driver run."""
    out, cur = {}, None
    for line in stderr.splitlines():
        if line.startswith('CALL '):
            _, f, j = line.split()
            cur = out.setdefault((int(f), int(j)), set())
        else:
            m = REPORT.match(line)
            if m and cur is not None:
                cur.add((int(m.group(1)), int(m.group(2))))
    return out


def judge(seed, lvl, rechecked, where, funcs, args, by_call, reported, text,
          stats, failures):
    """Compare each re-checked check's reports with the meaning it names.
    A helper's check stands for the operations of all its calls (where):
    in each call of each function that calls it, it must report exactly
    when one of that function's operations there is out of range."""
    func_of = {k: i for i, f in enumerate(funcs) for k in f.ops}
    for site, idiom in sorted(rechecked.items()):
        ops = ops_at(where, site)
        if not ops:
            continue
        meaning = MEANINGS.get(idiom)
        if meaning is None:
            failures.append('seed %d -O%s: prog.c:%d:%d re-checked by an '
                            'unknown idiom %s' % (seed, lvl, site[0],
                                                  site[1], idiom))
            continue
        if lvl == '2':
            stats[(idiom, 're-checked')] += 1
        by_func = {}
        for k in ops:
            by_func.setdefault(func_of[k], []).append(k)
        any_wrong = False
        for i, ks in sorted(by_func.items()):
            any_wrong |= _judge_calls(seed, lvl, site, idiom, meaning, i, ks,
                                      funcs, args, by_call, reported, text,
                                      stats, failures)
        if lvl == '2':
            stats[(idiom, 'wrong')] += any_wrong


def _judge_calls(seed, lvl, site, idiom, meaning, i, ks, funcs, args,
                 by_call, reported, text, stats, failures):
    """judge() for the operations ks of function i at one site: is the
    re-check wrong in some call?"""
    sound = meaning != 1 or all(signed_only(funcs[i], k) for k in ks)
    wrong, hidden, differs, out = [], [], 0, 0
    for j in range(len(args[i])):
        bits = [0, 0, 0, 0]
        for k in ks:
            got_bits = by_call.get((i, j), {}).get(k, [0, 0, 0, 0])
            bits = [x | y for x, y in zip(bits, got_bits)]
        want = bool(bits[meaning])
        got = site in reported.get((i, j), set())
        out += want
        differs += want != bool(bits[2])
        if want != got:
            wrong.append((j, want, got))
        elif not sound and bits[2] and not got:
            hidden.append(j)
    if lvl == '2':
        stats[(idiom, 'out of range')] += out
        stats[(idiom, 'differs')] += differs
    body = '\n'.join('  | ' + l for l in text[funcs[i].name])
    what = 'op %d' % ks[0] if len(ks) == 1 else \
        'ops %s' % ', '.join(map(str, ks))
    for j, want, got in wrong[:3]:
        failures.append(
            'seed %d -O%s: %s re-checked prog.c:%d:%d (%s), which %s '
            'in call %s(%s), where the true result is %s\n%s' % (
                seed, lvl, idiom, site[0], site[1], what,
                'reported' if got else 'stayed silent', funcs[i].name,
                ', '.join(str(v) for v in args[i][j]),
                'out of range' if want else 'in range', body))
    for j in hidden[:1]:
        failures.append(
            'seed %d -O%s: %s re-checked prog.c:%d:%d (%s), but the '
            'difference is also read as unsigned, and the unsigned wrap '
            'of call %s(%s) went unreported\n%s' % (
                seed, lvl, idiom, site[0], site[1], what, funcs[i].name,
                ', '.join(str(v) for v in args[i][j]), body))
    return bool(wrong or hidden)


def driver_calls(funcs, rechecked_sites, where):
    """The functions with a re-checked check at some level."""
    func_of = {k: i for i, f in enumerate(funcs) for k in f.ops}
    return sorted({func_of[k] for s in rechecked_sites
                   for k in ops_at(where, s)})


def write(work, name, text):
    with open(os.path.join(work, name), 'w') as f:
        f.write(text)
