#!/usr/bin/env python3
"""fuzz/wrap-oracle/run.py - random wrap-test programs against a wrap oracle.

Usage: run.py [-j JOBS] [--functions F] [--calls K] [--keep]
              [--family NAME]... [--without NAME]... N SEED

Generates N programs (seeds SEED .. SEED+N-1) of F functions each, every
function one wrap-test shape of IDIOMS.md with random variations
(shapes.py; --family keeps to the families named, --without leaves those
named out: `--without helper` generates the programs of the generator
before the helper family). For each program:

  1. the plain program is compiled with the plugin at -O0 and -O2 (clang's
     signed and unsigned wrap checks, -fwrapv, -wrap-idiom-signed-wrap) and
     its remarks say which checks were removed, and by which idiom;
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
     wrapped.
  4. a re-checked check (the remark says "re-checked": the check stays,
     with the condition of the signed quantity the unsigned arithmetic
     encodes, llvm-pass/SignedRecheck.h) is run: the plugin's objects are
     linked with a driver that runs every call of its function, and it
     must report in exactly the calls where the true result is out of
     range in the meaning it names (recheck.py). A re-check at only one of
     -O0 and -O2 is a failure too. circular-difference also removes the
     check of the difference it corrects: a harmful wrap of that
     difference fails only in a call where no circular-difference re-check
     of the function reported (the correction that did not restore the
     distance is reported there instead: excused, counted in `reported`).

Prints, per idiom and per generator family (shapes.py), the checks
removed, how many of them wrapped in some run (exercised), and how many of
those the oracle judged harmful, and the same for the helpers' checks
among them ("(helper sites)", when one was removed); per
re-check, the checks re-checked, the calls whose true result was out of
range, the calls where the re-check decides otherwise than clang's plain
check (differs), and the checks that reported wrongly in some call. Exit
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
from inputs import inputs  # noqa: E402
from judge import Judge, parse, trace_of  # noqa: E402
from lang import (Func, Numbering, TYPES, const_text, helpers,  # noqa: E402
                  number, ops_at)
from render import Oracle, plain_func, plain_helpers, strip_marks  # noqa: E402
from shapes import Gen  # noqa: E402

SAN = '-fsanitize=signed-integer-overflow,unsigned-integer-overflow'
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
        funcs.append(Func('f%d' % i, *gen.function()))
        funcs[-1].family = gen.family
    number(funcs, Numbering())
    args = [inputs(rng, f.params, calls) for f in funcs]
    return funcs, args


def plain_source(seed, funcs):
    lines = ['/* fuzz/wrap-oracle, seed %d */' % seed,
             'extern void sink(unsigned long);', 'extern void warn(void);',
             'extern volatile unsigned long g_store;',
             'extern void *malloc(unsigned long);', 'extern void free(void *);',
             'extern void obj_release(void *);', '']
    where, text = {}, {}
    # The helpers the functions call (lang.py 'call'), before them: each
    # one's operator is the site of every call's operation.
    for name, body in plain_helpers(funcs).items():
        clean, w = strip_marks(body, len(lines) + 1)
        where.update(w)
        text[name] = clean
        lines += clean + ['']
    for f in funcs:
        clean, w = strip_marks(plain_func(f), len(lines) + 1)
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


def remarks(cfg, level, cwd):
    cmd = [cfg.clang, '-c', '-O' + level, '-fwrapv', SAN, '-w'] + \
        cfg.plugin_flags + ['-mllvm', '-wrap-idiom-signed-wrap',
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
    built = {lvl: remarks(cfg, lvl, work) for lvl in ('0', '2')}
    removed = {lvl: built[lvl][0] for lvl in built}
    rechecked = {lvl: built[lvl][1] for lvl in built}
    run([cfg.clang, '-O0', '-fwrapv', '-w', 'oracle.c', '-o', 'oracle'],
        work, 'oracle build')
    log = run(['./oracle'], work, 'oracle run', 20).stdout.splitlines()
    events = list(parse(log))
    j = Judge(funcs)
    j.learn(events)
    j.judge(events)
    res = {'seed': seed, 'stats': Counter(), 'failures': []}
    # Counterfactuals only where they can change a verdict: a removed check.
    removed_ops = {k for rem in removed.values() for site in rem
                   for k in ops_at(where, site)}
    # A circular-difference removal is judged per call (its harm may be
    # excused where the correction's re-check reported): ask on.
    per_call = {k for rem in removed.values()
                for site, idiom in rem.items()
                if idiom == 'circular-difference'
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

    def harm_of(k, idiom, lvl):
        """Why the removal of op k's check is harmful, or None."""
        if k not in j.harm:
            return None
        if idiom != 'circular-difference':
            return j.harm[k]
        # The correction's re-check reported it (recheck.py).
        left = sorted(w for w in j.harm_calls[k]
                      if not recheck.excused(w[0], w[1], funcs,
                                             rechecked[lvl], where,
                                             reported[lvl]))
        if lvl == '2' and len(left) < len(j.harm_calls[k]):
            res['stats'][(idiom, 'reported')] += 1
        if left:
            return ('its wrap harmed a call in which no re-check of its '
                    'correction reported',) + left[0]
        return None

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
    # circular-difference is both: it removes and it re-checks.
    idioms = sorted({i for i, w in stats if w == 'removed'})
    print('wrap-oracle: %d programs x %d functions, %s, seeds %d-%d' % (
        cfg.count, cfg.functions, cfg.clang, cfg.seed,
        cfg.seed + cfg.count - 1))
    print('%-20s %8s %10s %8s %13s' % ('idiom (-O2)', 'removed', 'exercised',
                                        'harmful', 'no operation'))
    for i in idioms:
        print('%-20s %8d %10d %8d %13d' % (
            i, stats[(i, 'removed')], stats[(i, 'exercised')],
            stats[(i, 'harmful')], stats[(i, 'no operation')]))
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
    for i in idioms:
        if stats[(i, 'reported')]:
            print('%s: %d removed checks wrapped harmfully only in calls '
                  'where the re-check of their correction reported' % (
                      i, stats[(i, 'reported')]))
    if rechecks:
        print('%-20s %10s %12s %8s %6s' % ('re-check (-O2)', 're-checked',
                                          'out of range', 'differs',
                                          'wrong'))
    for i in rechecks:
        print('%-20s %10d %12d %8d %6d' % (
            i, stats[(i, 're-checked')], stats[(i, 'out of range')],
            stats[(i, 'differs')], stats[(i, 'wrong')]))
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
