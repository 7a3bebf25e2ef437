#!/usr/bin/env python3
"""renumber-series.py [--check] [PATCHDIR]

Renames the patches of PATCHDIR/series (default: kernel/patches beside this
script) so that their numbers follow series order, 0001 upwards, keeping
each name's text after the number, and rewrites series to match. Cover
letters (0000-*.patch, one per sub-series) keep their names and must not be
in series. Idempotent: a series already in order changes nothing, so it can
be run again after a merge brought new or reordered patches.

Before touching anything it checks that nothing would be lost: every
series entry exists, no entry is listed twice, every other *.patch file of
the directory is in series (else it would be left with a clashing number),
and no two new names collide. Renames go through temporary names (git mv
inside a git work tree, so history follows), and afterwards the directory
holds exactly the same number of patch files. The old -> new names of the
last run that renamed something are written to PATCHDIR/RENUMBERED.

--check: change nothing; exit 1 if a rename would be needed.
Errors name the file and line and exit 2.
"""
import os
import re
import subprocess
import sys

NUM = re.compile(r'^(\d{4})-(.+\.patch)$')


def die(msg):
    print(f'renumber-series: {msg}', file=sys.stderr)
    sys.exit(2)


def in_git(path):
    r = subprocess.run(['git', '-C', path, 'rev-parse', '--is-inside-work-tree'],
                       capture_output=True, text=True)
    return r.returncode == 0 and r.stdout.strip() == 'true'


def tracked(path, name):
    r = subprocess.run(['git', '-C', path, 'ls-files', '--error-unmatch', name],
                       capture_output=True, text=True)
    return r.returncode == 0


def main(argv):
    check = '--check' in argv
    args = [a for a in argv if a != '--check']
    if len(args) > 1 or any(a.startswith('-') for a in args):
        die('usage: renumber-series.py [--check] [PATCHDIR]')
    here = os.path.dirname(os.path.abspath(__file__))
    pdir = os.path.abspath(args[0] if args else os.path.join(here, '..', 'patches'))
    series = os.path.join(pdir, 'series')
    try:
        lines = open(series).read().split('\n')
    except OSError as e:
        die(f'{series}: {e.strerror}')

    entries = []   # (line index, name, rest of line)
    seen = {}
    for i, line in enumerate(lines):
        s = line.strip()
        if not s or s.startswith('#'):
            continue
        name, _, rest = s.partition(' ')
        where = f'{series}:{i + 1}'
        if name.startswith('0000-'):
            die(f'{where}: {name} is a cover letter: it must not be in series')
        if not NUM.match(name):
            die(f'{where}: {name} is not named NNNN-text.patch')
        if name in seen:
            die(f'{where}: {name} is listed twice (first at line {seen[name]})')
        if not os.path.isfile(os.path.join(pdir, name)):
            die(f'{where}: {name} does not exist in {pdir}')
        seen[name] = i + 1
        entries.append((i, name, rest))

    files = sorted(f for f in os.listdir(pdir) if f.endswith('.patch'))
    loose = [f for f in files if not f.startswith('0000-') and f not in seen]
    if loose:
        die(f'{pdir}: not in series, so it would be left out of the numbering: ' +
            ', '.join(loose))

    plan = []
    new_names = set()
    for n, (i, name, rest) in enumerate(entries, 1):
        new = f'{n:04d}-{NUM.match(name).group(2)}'
        if new in new_names:
            die(f'{series}:{i + 1}: {name} would become {new} twice')
        new_names.add(new)
        plan.append((i, name, new, rest))
    changes = [(name, new) for _, name, new, _ in plan if name != new]
    if not changes:
        print(f'renumber-series: {len(plan)} patches already in series order')
        return 0
    if check:
        for old, new in changes:
            print(f'renumber-series: {old} -> {new}')
        print(f'renumber-series: {len(changes)} of {len(plan)} patches out of series order')
        return 1

    git = in_git(pdir)

    def move(a, b):
        if git and tracked(pdir, a):
            subprocess.run(['git', '-C', pdir, 'mv', a, b], check=True)
        else:
            os.rename(os.path.join(pdir, a), os.path.join(pdir, b))

    before = len(files)
    for old, new in changes:          # out of the way first: no clashes
        move(old, f'.renumber-{old}')
    for old, new in changes:
        if os.path.exists(os.path.join(pdir, new)):
            die(f'{new} exists already; the tree is half renamed (.renumber-* files)')
        move(f'.renumber-{old}', new)
    for i, name, new, rest in plan:
        lines[i] = new + (' ' + rest if rest else '')
    with open(series + '.tmp', 'w') as f:
        f.write('\n'.join(lines))
    os.replace(series + '.tmp', series)
    after = len([f for f in os.listdir(pdir) if f.endswith('.patch')])
    if after != before:
        die(f'{pdir}: {before} patch files before, {after} after')
    with open(os.path.join(pdir, 'RENUMBERED'), 'w') as f:
        f.write('# old name -> new name, from the last run of '
                'kernel/scripts/renumber-series.py\n')
        for old, new in changes:
            f.write(f'{old} {new}\n')
    print(f'renumber-series: renamed {len(changes)} of {len(plan)} patches '
          f'(list in {os.path.join(pdir, "RENUMBERED")})')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
