#!/usr/bin/env python3
"""fuzz/wrap-oracle/run.py - random wrap-test programs against a wrap oracle.

Usage: run.py [-j JOBS] [--functions F] [--calls K] [--keep]
              [--family NAME]... [--without NAME]... [--facts auto|on|off]
              N SEED

Generates N programs (seeds SEED .. SEED+N-1) of F functions each, every
function one wrap-test shape of IDIOMS.md with random variations
(shapes.py; --family keeps to the families named, --without leaves those
named out: `--without helper` generates the programs of the generator
before the helper family, `--without meaning --without chain --without
declared` those before the families of the front end's facts and of
declarations). For each program:

  1. the plain program is compiled with the plugin at -O0 and -O2 (clang's
     signed and unsigned wrap checks, -fwrapv, -wrap-idiom-signed-wrap) and
     its remarks say which checks were removed, and by which idiom. A
     program with a function of the meaning or chain family (or every
     program with --facts on, none with --facts off) is built with the
     front end's facts as Kbuild builds the kernel with the plugin
     (-fsanitize=implicit-integer-sign-change -mllvm
     -wrap-idiom-conversion-facts): their judgement reads the C types the
     plugin can know only from them; the other programs judge the shape
     re-checks where the front end says nothing. The plugin must remove
     the conversion checks it was given: an object that still calls their
     handler is a failure;
  2. the oracle program (the same functions with shadow values, built
     -O0 -fwrapv without sanitizers) runs each function on K boundary-heavy
     argument tuples and logs every checked operation, comparison and
     effect; judge.py decides from that log which wraps were harmful;
  3. a removed check whose operation wrapped harmfully in some run is a
     failure: the plugin hid a real wrap. The function, the arguments and
     the reason are printed. A check removed at -O0 and kept at -O2, or
     the reverse, is a failure too: the decisions must not depend on -O.
     The check of a static helper's `return a op b;` (family helper,
     shapes_helper.py) stands for the operations of all its calls, each
     judged in its caller: its removal is harmful if one of them is (the
     first such call is printed, with the helper), exercised if one
     wrapped. A cannot-wrap removal (a check that cannot fire) fails
     where its operation wrapped at all, harmful or not. A declared-wrap
     removal is right where an
     operand of the operation is declared to wrap or computed from one
     (declared.py, on the C source), a failure elsewhere; its harmful
     wraps are the declaration's intent, counted, no failure.
  4. a re-checked check (the remark says "re-checked": the check stays,
     with the condition of the signed quantity the unsigned arithmetic
     encodes, llvm-pass/SignedRecheck.h) is run: the plugin's objects are
     linked with a driver that runs every call of its function, and it
     must report in exactly the calls where the true result is out of
     range in the meaning it names (recheck.py). A re-check at only one of
     -O0 and -O2 is a failure too. circular-difference also removes the
     check of the difference it corrects, final-result those of an
     expression's inner steps: such a removal's harmful wrap fails only in
     a call where no re-check of the same idiom in the function reported
     (the correction that did not restore the distance, the expression
     that did not come back, is reported there instead: excused, counted
     in `reported`), nor, for final-result, in one where a plain check of
     a leaf of the expression wrapped (reported; the re-check computes on
     the leaves' machine values).

Prints, per idiom and per generator family (shapes.py), the checks
removed, how many of them wrapped in some run (exercised), and how many of
those the oracle judged harmful, and the same for the helpers' checks
among them ("(helper sites)", when one was removed); per
re-check, the checks re-checked, the calls whose true result was out of
range, the calls where the re-check decides otherwise than clang's plain
check (differs), the checks that reported wrongly in some call, and the
checks judged in the meaning of a result read as signed (as signed). Exit
status 0: no failure; 1: a failure; 2: a tool did not run.

Environment: CLANG (clang-22), PLUGIN (build/llvm-pass/WrapIdiom.so), OUT
(build/fuzz-oracle), PLUGIN_FLAGS (more flags for the plugin builds).
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import recheck  # noqa: E402
from declared import declared_operands  # noqa: E402
from inputs import inputs  # noqa: E402
from judge import Judge, parse, trace_of  # noqa: E402
from lang import (Func, Numbering, TYPES, const_text, helpers,  # noqa: E402
                  number, ops_at, wrap)
from render import (WRAPS, WRAPS_DEFINE, Oracle, plain_func,  # noqa: E402
                    plain_helpers, strip_marks)
from shapes import EXTRA_FAMILIES, Gen  # noqa: E402

SAN = '-fsanitize=signed-integer-overflow,unsigned-integer-overflow'
# The front end's facts (ConversionFacts.h), as Kbuild asks for them with
# the plugin: clang's sign-change checks, read and removed by the plugin.
FACTS = ['-fsanitize=implicit-integer-sign-change', '-mllvm',
         '-wrap-idiom-conversion-facts']
# Families whose judgement assumes them (recheck.read_as_signed(): the C
# types the plugin can know only from the front end).
FACT_FAMILIES = ('meaning', 'chain')
CONVERSION_HANDLER = b'__ubsan_handle_implicit_conversion'
DECLARED = 'declared-wrap'
# A check that cannot fire: any wrap of its operation is a failure.
CANNOT = 'cannot-wrap'
REMARK = re.compile(r'^prog\.c:(\d+):(\d+): remark: (removed|kept|re-checked) '
                    r'\S+ check on \S+: (\S+)')


MAX_QUESTIONS = 400
# Decisions one counterfactual run can force (oracle.h's MAX_FORCE).
MAX_FORCE = 16


class ToolError(Exception):
    pass


def generate(seed, nfuncs, calls, families=None):
    rng = random.Random(seed)
    gen = Gen(rng)
    if families:
        gen.FAMILIES = families
    funcs = []
    for i in range(nfuncs):
        funcs.append(Func('f%d' % i, *gen.function(), ret=gen.ret))
        funcs[-1].family = gen.family
        funcs[-1].shadow = gen.shadow
        funcs[-1].relations = gen.relations
    number(funcs, Numbering())
    args = []
    for f in funcs:
        if f.family not in EXTRA_FAMILIES:
            args.append(inputs(rng, f.params, calls))
            continue
        # A function of a family drawn from the generator's extra stream
        # (shapes.py): the main stream draws the arguments of the one it
        # replaced, as before, and the extra stream its own.
        if f.shadow is not None:
            inputs(rng, f.shadow, calls)
        args.append(relate(gen.extra, f, inputs(gen.extra, f.params, calls)))
    return funcs, args


def relate(rng, f, tuples):
    """A quarter of the calls take the relations between arguments the
    shape asks for (`end = start - 1`: an empty range), so that the runs
    that wrap and come back are not left to chance."""
    if not f.relations:
        return tuples
    names = [n for _, n in f.params]
    types = dict((n, t) for t, n in f.params)
    for tup in tuples:
        if rng.random() < 0.25:
            vals = dict(zip(names, tup))
            for target, fn in f.relations:
                vals[target] = wrap(fn(vals), types[target])
            tup[:] = [vals[n] for n in names]
    return tuples


def plain_source(seed, funcs):
    lines = ['/* fuzz/wrap-oracle, seed %d */' % seed,
             'extern void sink(unsigned long);', 'extern void warn(void);',
             'extern volatile unsigned long g_store;',
             'extern void *malloc(unsigned long);', 'extern void free(void *);',
             'extern void obj_release(void *);']
    bodies = [plain_func(f) for f in funcs]
    # What only the newer families use (the other programs stay as they
    # were): a long parameter, and declarations that wrap.
    if any('sink_long(' in l for b in bodies for l in b):
        lines.append('extern void sink_long(long);')
    if any(WRAPS in l for b in bodies for l in b):
        lines.append(WRAPS_DEFINE)
    lines.append('')
    where, text = {}, {}
    # The helpers the functions call (lang.py 'call'), before them: each
    # one's operator is the site of every call's operation.
    for name, body in plain_helpers(funcs).items():
        clean, w = strip_marks(body, len(lines) + 1)
        where.update(w)
        text[name] = clean
        lines += clean + ['']
    for f, body in zip(funcs, bodies):
        clean, w = strip_marks(body, len(lines) + 1)
        clean[0] = clean[0].replace('static ', '')  # keep every function
        where.update(w)
        text[f.name] = clean
        lines += clean + ['']
    return '\n'.join(lines) + '\n', where, text


def oracle_source(funcs, args):
    lines = ['#include <stdlib.h>', '#include "oracle.h"',
             'static int call_no;', '']
    for i, f in enumerate(funcs):
        lines += [l.replace('ev_F(%d);' % i, 'ev_F(%d, call_no);' % i)
                  for l in Oracle(f, i).render()] + ['']
    # ./oracle runs every call; ./oracle F J C N [C N ...] runs call J of
    # function F with the N-th evaluation of each comparison C given its
    # ideal outcome.
    lines.append('static void call(int f, int j)\n{\n\tcall_no = j;')
    lines.append('\tswitch (f * 100000 + j) {')
    for i, f in enumerate(funcs):
        for j, tup in enumerate(args[i]):
            vals = ', '.join(const_text(v, ty)
                             for v, (ty, _) in zip(tup, f.params))
            lines.append('\tcase %d: o_%s(%s); break;' % (i * 100000 + j,
                                                         f.name, vals))
    lines.append('\t}\n}\n')
    lines.append('int main(int argc, char **argv)\n{')
    lines.append('\tif (argc >= 5) {')
    lines.append('\t\tfor (int i = 3; i + 1 < argc && nforce < MAX_FORCE; '
                 'i += 2, nforce++) {')
    lines.append('\t\t\tforce_c[nforce] = atoi(argv[i]);')
    lines.append('\t\t\tforce_n[nforce] = atoi(argv[i + 1]);\n\t\t}')
    lines.append('\t\tcall(atoi(argv[1]), atoi(argv[2]));\n\t\treturn 0;\n\t}')
    lines.append('\tfor (int f = 0; f < %d; f++)' % len(funcs))
    lines.append('\t\tfor (int j = 0; j < %d; j++)' % max(len(a) for a in args))
    lines.append('\t\t\tcall(f, j);')
    lines.append('\treturn 0;\n}')
    return '\n'.join(lines) + '\n'


def run(cmd, cwd, what, timeout=60):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ToolError('%s timed out after %d s (%s)' % (what, timeout,
                                                         ' '.join(cmd)))
    if p.returncode:
        raise ToolError('%s failed (%s):\n%s' % (what, ' '.join(cmd),
                                                 p.stderr[-2000:]))
    return p


def remarks(cfg, level, cwd, facts):
    cmd = [cfg.clang, '-c', '-O' + level, '-fwrapv', SAN, '-w'] + \
        cfg.plugin_flags + (FACTS if facts else []) + \
        ['-mllvm', '-wrap-idiom-signed-wrap',
                            '-Rpass=wrap-idiom', '-Rpass-missed=wrap-idiom',
                            'prog.c', '-o', 'prog-O%s.o' % level]
    removed, rechecked = {}, {}
    for line in run(cmd, cwd, 'plugin build -O' + level).stderr.splitlines():
        m = REMARK.match(line)
        if m and m.group(3) in ('removed', 're-checked'):
            to = removed if m.group(3) == 'removed' else rechecked
            to[(int(m.group(1)), int(m.group(2)))] = m.group(4)
    return removed, rechecked


def one(cfg, seed):
    work = os.path.join(cfg.out, str(seed))
    os.makedirs(work, exist_ok=True)
    funcs, args = generate(seed, cfg.functions, cfg.calls, cfg.family)
    src, where, text = plain_source(seed, funcs)
    with open(os.path.join(work, 'prog.c'), 'w') as f:
        f.write(src)
    with open(os.path.join(work, 'oracle.c'), 'w') as f:
        f.write(oracle_source(funcs, args))
    shutil.copy(os.path.join(HERE, 'oracle.h'), work)
    facts = cfg.facts == 'on' or cfg.facts == 'auto' and \
        any(f.family in FACT_FAMILIES for f in funcs)
    built = {lvl: remarks(cfg, lvl, work, facts) for lvl in ('0', '2')}
    removed = {lvl: built[lvl][0] for lvl in built}
    rechecked = {lvl: built[lvl][1] for lvl in built}
    res = {'seed': seed, 'stats': Counter(), 'failures': []}
    res['stats'][(None, 'facts')] += facts
    for lvl in built if facts else ():
        # Requested for the plugin, the conversion checks are its to
        # remove: the user sees none (and links no handler for them).
        with open(os.path.join(work, 'prog-O%s.o' % lvl), 'rb') as f:
            if CONVERSION_HANDLER in f.read():
                res['failures'].append(
                    'seed %d -O%s: prog-O%s.o still calls %s: a conversion '
                    'check the plugin was asked to remove is left' % (
                        seed, lvl, lvl, CONVERSION_HANDLER.decode()))
    run([cfg.clang, '-O0', '-fwrapv', '-w', 'oracle.c', '-o', 'oracle'],
        work, 'oracle build')
    log = run(['./oracle'], work, 'oracle run', 20).stdout.splitlines()
    events = list(parse(log))
    j = Judge(funcs)
    j.learn(events)
    j.judge(events)
    # Counterfactuals only where they can change a verdict: a removed check.
    removed_ops = {k for rem in removed.values() for site in rem
                   for k in ops_at(where, site)}
    # A circular-difference or final-result removal is judged per call (its
    # harm may be excused where the re-check answering for it reported).
    per_call = {k for rem in removed.values()
                for site, idiom in rem.items()
                if idiom in recheck.PAIRED
                for k in ops_at(where, site)}
    asked = 0
    for q, ops in j.questions.items():
        if not removed_ops & set(ops) or \
                set(ops) <= set(j.harm) - per_call:
            continue
        asked += 1
        if asked > MAX_QUESTIONS or len(q) - 2 > 2 * MAX_FORCE:
            for k in ops:
                j.hurt(k, 'too many counterfactual runs to decide'
                       if asked > MAX_QUESTIONS else
                       'too many divergent decisions to force', q[:2])
            continue
        def counterfactual(q):
            out = run(['./oracle'] + [str(x) for x in q], work,
                      'counterfactual run', 20).stdout.splitlines()
            return trace_of(parse(out))
        trace = counterfactual(q)
        if j.differs(q, trace):
            whole = j.whole[q]
            j.answer(q, trace, trace if whole == q or
                     len(whole) - 2 > 2 * MAX_FORCE else counterfactual(whole))

    # Re-checks: run the plugin's builds (recheck.py).
    which = recheck.driver_calls(funcs, set(rechecked['0']) |
                                 set(rechecked['2']), where)
    reported = {'0': {}, '2': {}}
    if which:
        by_call = recheck.events_by_call(events)
        recheck.write(work, 'driver.c', recheck.driver_source(funcs, args,
                                                             which))
        for lvl in ('0', '2'):
            exe = 'run-O' + lvl
            run([cfg.clang, '-O0', SAN, '-w', 'driver.c', 'prog-O%s.o' % lvl,
                 '-o', exe], work, 'driver build')
            out = run(['./' + exe], work, 'plugin build run', 60).stderr
            reported[lvl] = recheck.reports(out)
            recheck.judge(seed, lvl, rechecked[lvl], where, funcs, args,
                          by_call, reported[lvl], text, res['stats'],
                          res['failures'])
    func_of = {k: f for f in funcs for k in f.ops}
    helper_of = {k: h for h, (_, _, ks) in helpers(funcs).items() for k in ks}

    # The operations whose checks stay plain at each level: they report
    # wherever they wrap (a final-result expression's leaves).
    plain = {lvl: set(k for f in funcs for k in f.ops) -
             {k for s in set(removed[lvl]) | set(rechecked[lvl])
              for k in ops_at(where, s)} for lvl in removed}

    def harm_of(k, idiom, lvl):
        """Why the removal of op k's check is harmful, or None."""
        if k not in j.harm:
            return None
        calls = sorted(j.harm_calls[k])
        left = calls
        if idiom in recheck.PAIRED:
            # The re-check that answers for it reported it (recheck.py).
            left = [w for w in left
                    if not recheck.excused(w[0], w[1], funcs, rechecked[lvl],
                                           where, reported[lvl], idiom)]
            if lvl == '2' and len(left) < len(calls):
                res['stats'][(idiom, 'reported')] += 1
        if idiom == 'final-result':
            # An expression is re-checked on its leaves' machine values: a
            # leaf that wrapped (a plain check, so reported) makes the
            # ideal differ, as recheck.py excuses for the re-check.
            n = len(left)
            left = [w for w in left
                    if not j.wrapped_upstream(k, w, plain[lvl])]
            if lvl == '2' and len(left) < n:
                res['stats'][(idiom, 'leaf removal')] += 1
        if not left:
            return None
        if idiom in recheck.PAIRED:
            return ('its wrap harmed a call in which no re-check of its '
                    'correction reported',) + left[0]
        return (j.harm_why[(k, left[0])],) + left[0]

    # Operations with an operand declared to wrap (declared.py), and those
    # declared-wrap removed at -O2.
    decl_ops = {}
    for f in funcs:
        decl_ops.update(declared_operands(f))
    by_declaration = set()
    for lvl, rem in removed.items():
        for site, idiom in rem.items():
            # A helper's site stands for all its calls' operations: its
            # removal is harmful if one is, exercised if one wrapped.
            ks = ops_at(where, site)
            k, harm = (ks[0] if ks else None), None
            for op in ks:
                harm = harm_of(op, idiom, lvl)
                if harm:
                    k = op
                    break
            # A wrap the declaration asked for is no failure (counted);
            # a removal without a declared operand is.
            intended = None
            if idiom == DECLARED:
                intended, harm = harm, None
                undeclared = [op for op in ks if not decl_ops.get(op)]
                if lvl == '2':
                    by_declaration.update(ks)
            if lvl == '2':
                fam = func_of[k].family if k in func_of else None
                # A helper's operator also counts as a helper site.
                keys = [(idiom, ''), (fam, 'family ')] + \
                    ([(None, 'helper site ')] if k in helper_of else [])
                for x, pre in keys:
                    res['stats'][(x, pre + 'removed')] += 1
                if k is None:
                    res['stats'][(idiom, 'no operation')] += 1
                elif j.wrapped.intersection(ks):
                    for x, pre in keys:
                        res['stats'][(x, pre + 'exercised')] += 1
                        if harm:
                            res['stats'][(x, pre + 'harmful')] += 1
                    if intended:
                        res['stats'][(idiom, 'intended')] += 1
            if idiom == DECLARED and undeclared:
                k = undeclared[0]
                f = func_of[k]
                res['failures'].append(
                    'seed %d -O%s: %s removed the check at prog.c:%d:%d '
                    '(op %d), but no operand of it is declared to wrap or '
                    'computed from one\n%s' % (
                        seed, lvl, idiom, site[0], site[1], k,
                        '\n'.join('  | ' + l for l in
                                  (text[helper_of[k]] if k in helper_of
                                   else []) + text[f.name])))
            if idiom == CANNOT and not harm:
                # Harmless or not, a wrap was to be impossible.
                k = next((op for op in ks if op in j.wrapped), None)
                if k is not None:
                    fidx, call = next(w for w, at in
                                      sorted(j.wrapped_at.items()) if k in at)
                    harm = ('it wrapped', fidx, call)
            if harm:
                why, fidx, call = harm
                f = funcs[fidx]
                h = helper_of.get(k)
                res['failures'].append(
                    'seed %d -O%s: %s removed the check at prog.c:%d:%d '
                    '(op %d%s), but %s\n  call: %s(%s)\n%s' % (
                        seed, lvl, idiom, site[0], site[1], k,
                        ', the call of %s in %s' % (h, f.name) if h else '',
                        why, f.name,
                        ', '.join(str(v) for v in args[fidx][call]),
                        '\n'.join('  | ' + l for l in
                                  (text[h] if h else []) + text[f.name])))
    declared_ops = {k for k, d in decl_ops.items() if d}
    res['stats'][(DECLARED, 'declared operand')] += len(declared_ops)
    res['stats'][(DECLARED, 'declared operand removed')] += len(
        declared_ops & by_declaration)
    r0, r2 = set(rechecked['0']), set(rechecked['2'])
    for site in sorted(r0 ^ r2):
        res['failures'].append('seed %d: prog.c:%d:%d re-checked at -O%s only'
                               ' (%s)' % (seed, site[0], site[1],
                                          '0' if site in r0 else '2',
                                          rechecked['0'].get(site) or
                                          rechecked['2'].get(site)))
    o0, o2 = set(removed['0']), set(removed['2'])
    for site in sorted(o0 ^ o2):
        ks = ops_at(where, site)
        names = [helper_of[ks[0]]] if ks and ks[0] in helper_of else []
        for k in ks:
            if func_of[k].name not in names:
                names.append(func_of[k].name)
        res['failures'].append(
            'seed %d: prog.c:%d:%d removed at -O%s only (%s)\n%s' % (
                seed, site[0], site[1], '0' if site in o0 else '2',
                removed['0'].get(site) or removed['2'].get(site),
                '\n'.join('  | ' + l for n in names for l in text[n])))
    if not res['failures'] and not cfg.keep:
        shutil.rmtree(work)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--functions', type=int, default=12)
    ap.add_argument('--calls', type=int, default=48)
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--family', action='append', choices=sorted(set(Gen.FAMILIES)),
                    help='only this shape family (shapes.py; repeatable)')
    ap.add_argument('--without', action='append',
                    choices=sorted(set(Gen.FAMILIES)),
                    help='every shape family but this one (repeatable)')
    ap.add_argument('--facts', choices=('auto', 'on', 'off'), default='auto',
                    help='build with the front end\'s conversion facts: '
                    'where a family that needs them is drawn (auto), '
                    'always, never')
    ap.add_argument('count', type=int)
    ap.add_argument('seed', type=int)
    cfg = ap.parse_args()
    if cfg.without:  # the weights and order of the rest are kept
        cfg.family = [f for f in cfg.family or Gen.FAMILIES
                      if f not in cfg.without]
        if not cfg.family:
            ap.error('--without leaves no family')
    root = os.path.dirname(os.path.dirname(HERE))
    cfg.clang = os.environ.get('CLANG', 'clang-22')
    plugin = os.environ.get('PLUGIN',
                            os.path.join(root, 'build/llvm-pass/WrapIdiom.so'))
    cfg.out = os.path.abspath(os.environ.get('OUT',
                                             os.path.join(root, 'build/fuzz-oracle')))
    plugin = os.path.abspath(plugin)
    if not os.path.isfile(plugin):
        sys.exit('wrap-oracle: %s: no such plugin (make plugin)' % plugin)
    try:
        major = int(subprocess.run([cfg.clang, '-dumpversion'], check=True,
                                   capture_output=True, text=True)
                    .stdout.split('.')[0])
    except (OSError, subprocess.CalledProcessError, ValueError) as e:
        print('wrap-oracle: %s does not run: %s' % (cfg.clang, e),
              file=sys.stderr)
        return 2
    cfg.plugin_flags = ['-fpass-plugin=' + plugin] + \
        os.environ.get('PLUGIN_FLAGS', '').split()
    if major < 20:  # clang 19 parses a pass plugin's -mllvm options only so
        cfg.plugin_flags.append('-fplugin=' + plugin)
    os.makedirs(cfg.out, exist_ok=True)

    stats, failures, errors = Counter(), [], []
    seeds = range(cfg.seed, cfg.seed + cfg.count)
    with concurrent.futures.ThreadPoolExecutor(cfg.jobs) as pool:
        for seed, fut in [(s, pool.submit(one, cfg, s)) for s in seeds]:
            try:
                r = fut.result()
            except (ToolError, ValueError) as e:
                errors.append('seed %d: %s' % (seed, e))
                continue
            stats.update(r['stats'])
            failures += r['failures']
    rechecks = sorted({i for i, w in stats if w == 're-checked'})
    # circular-difference and final-result are both: they remove and
    # re-check.
    idioms = sorted({i for i, w in stats if w == 'removed'})
    print('wrap-oracle: %d programs x %d functions, %s, seeds %d-%d, '
          '%d with conversion facts' % (
              cfg.count, cfg.functions, cfg.clang, cfg.seed,
              cfg.seed + cfg.count - 1, stats[(None, 'facts')]))
    print('%-20s %8s %10s %8s %13s' % ('idiom (-O2)', 'removed', 'exercised',
                                        'harmful', 'no operation'))
    for i in idioms:
        print('%-20s %8d %10d %8d %13d' % (
            i, stats[(i, 'removed')], stats[(i, 'exercised')],
            stats[(i, 'harmful')] + stats[(i, 'intended')],
            stats[(i, 'no operation')]))
    families = sorted({i for i, w in stats if w == 'family removed' and i})
    print('%-20s %8s %10s %8s' % ('family (-O2)', 'removed', 'exercised',
                                   'harmful'))
    for i in families:
        print('%-20s %8d %10d %8d' % (
            i, stats[(i, 'family removed')], stats[(i, 'family exercised')],
            stats[(i, 'family harmful')]))
    if stats[(None, 'helper site removed')]:
        print('%-20s %8d %10d %8d' % (
            '(helper sites)', stats[(None, 'helper site removed')],
            stats[(None, 'helper site exercised')],
            stats[(None, 'helper site harmful')]))
    if stats[(DECLARED, 'declared operand')] or stats[(DECLARED, 'removed')]:
        print('%s: harmful = wrapped as declared (the declaration is the '
              'intent: no failure); %d of %d operations with a declared '
              'operand removed' % (
                  DECLARED, stats[(DECLARED, 'declared operand removed')],
                  stats[(DECLARED, 'declared operand')]))
    for i in idioms:
        if stats[(i, 'reported')]:
            print('%s: %d removed checks wrapped harmfully only in calls '
                  'where the re-check of their correction reported' % (
                      i, stats[(i, 'reported')]))
        if stats[(i, 'leaf removal')]:
            print('%s: %d removed checks wrapped harmfully only in calls '
                  'where a plain check of one of their leaves wrapped '
                  '(reported)' % (i, stats[(i, 'leaf removal')]))
    if rechecks:
        print('%-20s %10s %12s %8s %6s %10s' % (
            're-check (-O2)', 're-checked', 'out of range', 'differs',
            'wrong', 'as signed'))
    for i in rechecks:
        print('%-20s %10d %12d %8d %6d %10d' % (
            i, stats[(i, 're-checked')], stats[(i, 'out of range')],
            stats[(i, 'differs')], stats[(i, 'wrong')],
            stats[(i, 'read as signed')]))
    for f in failures:
        print('FAIL: ' + f)
    for e in errors[:3]:
        print('ERROR: ' + e, file=sys.stderr)
    if len(errors) > 3:
        print('ERROR: ... and %d more' % (len(errors) - 3), file=sys.stderr)
    print('wrap-oracle: %d failure(s), %d error(s); failing programs kept in %s'
          % (len(failures), len(errors), cfg.out))
    return 2 if errors else 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
