"""Judge re-checked checks (llvm-pass/SignedRecheck.h) by running them.

A re-check keeps a check and replaces its condition. It is right when the
plugin's build reports, in every call, exactly when the operation's true
result is out of range in the meaning the remark names; the oracle build
logs every meaning for every unsigned add, sub and negation (ev_R,
oracle.h):

  signed-offset      the true result of the operands read with their own C
                     types (`x + off` with off an int: x - 1 for off -1)
                     leaves the result type's range;
  signed-difference  the difference of the operands converted to the result
                     type does not fit its signed counterpart;
  circular-difference  the ideal (unbounded) result of the correction
                     d + size, d the true a - b, leaves the result type's
                     range: the size does not cover b - a.
  signed-meaning     the operation wraps as unsigned (clang's own check
                     fires) and the true result of the operands read with
                     their own C types (`x + d` with d a long, `-n`)
                     leaves the range
                     of the type the result is read as: the result type's,
                     or its signed counterpart's where the program
                     converts the result to a signed type no wider (`long
                     r = a - b`, sink_long(-n), `s += u` with s a long, a
                     return from an int function), decided here on the C
                     source (read_as_signed()), independently of the
                     front end's facts the plugin reads;
  final-result       some operation of the function wraps in the call, as
                     unsigned or read with its operands' C types (standing
                     for a step of the expression) and the ideal result of the
                     expression's final step, its inner steps computed
                     without wrapping, leaves the
                     result type's range (its signed counterpart's where
                     the final step is read as signed, as for
                     signed-meaning). The plugin computes it from the
                     machine values of the expression's leaves: where a
                     leaf itself wrapped, the two differ, and a call in
                     which another check of the function reported (that
                     leaf's) excuses the difference.

circular-difference also removes the check of the difference it corrects,
and final-result the checks of an expression's inner steps; run.py judges
those removals like any other (judge.py), except that a harmful wrap is no
failure in a call where the plugin's build reported at a re-check of the
same idiom in the same function: the correction that did not restore the
distance, the expression that did not come back, was reported
(excused()).

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
        elif c[0] in ('or', 'andc', 'andv'):
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
            elif k == 'set':
                expr(s[2], None, s)
            elif k == 'if':
                cond(s[1], s)
                stmts(s[2])
                stmts(s[3])
            elif k in ('ret', 'sink', 'store', 'eval', 'sinkl'):
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
            if stmt[0] == 'set' and stmt[2] is e:
                return converted(env[stmt[1]], e,
                                 lambda: var_ok(stmt[1], seen))
            if stmt[0] == 'ret':  # the return type
                return converted(f.ret, e, lambda: f.ret != 'u64')
            if stmt[0] == 'sinkl':  # a long parameter
                return converted('i64', e, lambda: True)
            if stmt[0] in ('sink', 'store'):  # unsigned long
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


def read_as_signed(f, oid):
    """Is the result of operation oid (an unsigned add, sub or negation)
    read as a signed value (C semantics): converted, where it is computed,
    to a signed type no wider (a wider one keeps an unsigned value: it is
    zero-extended)? The consumer's type is the declared type of the
    variable it is assigned to ('decl', 'set'), `long` for sink_long(),
    the function's return type for a 'ret' (unsigned long, written as an
    explicit cast, in the functions of most families), the type of an
    explicit cast; a conditional passes it on to its own consumer. An
    operand of arithmetic, a comparison or an effect of unsigned long
    reads it as unsigned."""
    occ = _occurrences(f)
    env = dict((n, t) for t, n in f.params)
    for e, _, st in occ:
        if st[0] == 'decl':
            env[st[2]] = st[1]

    def signed_to(to, e):
        return _is_signed(to) and \
            TYPES[to][1] <= TYPES[type_of(e, env)][1]

    def consumer(o):
        e, parent, stmt = o
        if parent is None:
            if stmt[0] == 'decl' and stmt[3] is e:
                return signed_to(stmt[1], e)
            if stmt[0] == 'set' and stmt[2] is e:
                return signed_to(env[stmt[1]], e)
            if stmt[0] == 'ret':
                return signed_to(f.ret, e)
            if stmt[0] == 'sinkl':
                return signed_to('i64', e)
            return False
        if parent[0] == 'cast':
            return signed_to(parent[1], e)
        if parent[0] == 'sel' and parent[1] is not e:
            for po in occ:
                if po[0] is parent:
                    return consumer(po)
        return False

    for o in occ:
        e = o[0]
        if e[0] == 'bin' and len(e) > 5 and e[5] == oid or \
                e[0] == 'neg' and len(e) > 3 and e[3] == oid:
            return consumer(o)
    return False


# The meanings (bits of the oracle's R event, oracle.h) a re-check names:
# signed-offset 0 (off), signed-difference 1 (diff), circular-difference 3
# (ideal); signed-meaning 0, or 4 (sgn) where the result is read as
# signed, final-result 3, or 5 (isgn) so (read_as_signed()).
MEANINGS = {'signed-offset': 0, 'signed-difference': 1,
            'circular-difference': 3, 'final-result': 3,
            'signed-meaning': 0}
SIGNED_MEANINGS = {'signed-meaning': 4, 'final-result': 5}
R_BITS = 6


def meaning_of(idiom, f, oid):
    """The R event bit that says whether a re-check of idiom at operation
    oid of function f must report."""
    if idiom in SIGNED_MEANINGS and read_as_signed(f, oid):
        return SIGNED_MEANINGS[idiom]
    return MEANINGS[idiom]

# Idioms that remove some checks and re-check another that answers for
# them: a removed check's harm is excused in a call where a re-check of
# the same idiom in the same function reported (excused()).
PAIRED = ('circular-difference', 'final-result')
# The re-checks that report only where clang's check of the operation (for
# final-result: of one of the expression's steps) would: they excuse the
# wraps the C types make exact and add no report of their own.
ONLY_WITH_WRAP = ('signed-meaning',)


def events_by_call(events):
    """{(func, call): {op: [off, diff, uw, ideal, sgn, isgn]}} from the
    oracle's R events, each bit OR-ed over the evaluations in the call."""
    out, cur = {}, None
    for ev in events:
        if ev[0] == 'F':
            cur = out.setdefault((ev[1], ev[2]), {})
        elif ev[0] == 'R' and cur is not None:
            bits = cur.setdefault(ev[1], [0] * R_BITS)
            for i, b in enumerate(ev[2:2 + R_BITS]):
                bits[i] |= b
    return out


def excused(fidx, call, funcs, rechecked, where, reported, paired):
    """Did the plugin's build report, in call `call` of function fidx, at a
    re-check of idiom `paired` (PAIRED) of that function?"""
    ops = set(funcs[fidx].ops)
    return any(idiom == paired and
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
             'void sink_long(long v) { (void)v; }',
             'void obj_release(void *o) { (void)o; }',
             '']
    for i in which:
        f = funcs[i]
        lines.append('%s %s(%s);' % (TYPES[f.ret][0], f.name, ', '.join(
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
        if idiom not in MEANINGS:
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
            any_wrong |= _judge_calls(seed, lvl, site, idiom, i, ks, funcs,
                                      args, by_call, reported, text, stats,
                                      failures)
        if lvl == '2':
            stats[(idiom, 'wrong')] += any_wrong


def _judge_calls(seed, lvl, site, idiom, i, ks, funcs, args, by_call,
                 reported, text, stats, failures):
    """judge() for the operations ks of function i at one site: is the
    re-check wrong in some call?"""
    meaning = {k: meaning_of(idiom, funcs[i], k) for k in ks}
    sound = all(meaning[k] != 1 or signed_only(funcs[i], k) for k in ks)
    signed = any(meaning[k] == SIGNED_MEANINGS.get(idiom) for k in ks)
    if lvl == '2' and signed:
        stats[(idiom, 'read as signed')] += 1
    wrong, hidden, differs, out = [], [], 0, 0
    for j in range(len(args[i])):
        want, uw = False, False
        for k in ks:
            bits = by_call.get((i, j), {}).get(k, [0] * R_BITS)
            want |= bool(bits[meaning[k]]) and \
                (idiom not in ONLY_WITH_WRAP or bool(bits[2]))
            uw |= bool(bits[2])
        if idiom == 'final-result':
            # Reported only where some step wrapped: as unsigned (its own
            # check would report, uw) or, its operands read with their C
            # types, out of its type (off); any such wrap of the function's
            # operations in the call stands for the expression's steps.
            stepped = any(b[2] or b[0]
                          for b in by_call.get((i, j), {}).values())
            want = want and stepped
        got = site in reported.get((i, j), set())
        out += want
        differs += want != uw
        if want != got and idiom == 'final-result' and \
                reported.get((i, j), set()) - {site}:
            # The expression's leaves are machine values: one that wrapped
            # (the ideal value differs) was reported at its own check.
            if lvl == '2':
                stats[(idiom, 'leaf reported')] += 1
            continue
        if want != got:
            wrong.append((j, want, got))
        elif not sound and uw and not got:
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
            'in call %s(%s), where the true result is %s%s\n%s' % (
                seed, lvl, idiom, site[0], site[1], what,
                'reported' if got else 'stayed silent', funcs[i].name,
                ', '.join(str(v) for v in args[i][j]),
                'out of range' if want else
                'in range' if idiom not in ONLY_WITH_WRAP else
                'in range, or its operation did not wrap',
                ' (read as signed)' if signed else '', body))
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
