#!/usr/bin/env python3
"""series-budget.py - what the series changes outside the infrastructure.

Usage: kernel/scripts/series-budget.py [--per-patch] [PATCHES_DIR]

Issue 35's measure of the series as a maintainer meets it: lines changed
(added and removed) by the patches of `series` in files outside the
infrastructure (overflow.h, the compiler headers, Kconfig, Makefiles and
other Kbuild files, config fragments, lib/test_* and the KUnit suites,
lib/ubsan.[ch], tools/objtool/, Documentation/, scripts/), and of the
added lines the per-site wrap annotations (wrapping_*(), add_wrap(),
__signed_wrap, __unsigned_wrap). Declarations (__wraps) are not
annotations of an operation and are counted only as changed lines.
Patches after an `# optional:` line are counted apart.
"""
import os
import re
import sys

INFRA = re.compile(r'(^|/)(overflow\.h|compiler[^/]*\.h|Kconfig[^/]*|Makefile[^/]*|'
                   r'Kbuild[^/]*|[^/]*\.config)$|^lib/test_|^Documentation/|'
                   r'^scripts/|^lib/[^/]*kunit[^/]*\.c$|^lib/ubsan\.[ch]$|'
                   r'^tools/objtool/')
ANNOTATION = re.compile(r'wrapping_(add|sub|mul|inc|dec|assign_add|assign_sub|neg)\(|'
                        r'__signed_wrap|__unsigned_wrap|add_wrap\(')


def count(path):
    changed = annotations = 0
    name = None
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('+++ '):
                name = line[4:].split()[0]
                name = name[2:] if name.startswith('b/') else name
                continue
            if line.startswith('--- ') or name is None or INFRA.search(name):
                continue
            if line.startswith(('+', '-')):
                changed += 1
                if line.startswith('+') and ANNOTATION.search(line):
                    annotations += 1
    return changed, annotations


def main(argv):
    per_patch = '--per-patch' in argv
    args = [a for a in argv if a != '--per-patch']
    pdir = args[0] if args else os.path.join(os.path.dirname(__file__), '..',
                                             'patches')
    totals = {False: [0, 0], True: [0, 0]}
    optional = False
    rows = []
    with open(os.path.join(pdir, 'series')) as f:
        for line in f:
            line = line.strip()
            if line.startswith('# optional'):
                optional = True
            if not line or line.startswith('#'):
                continue
            path = os.path.join(pdir, line)
            if not os.path.isfile(path):
                sys.exit('series-budget: %s: no such patch' % path)
            c, a = count(path)
            totals[optional][0] += c
            totals[optional][1] += a
            rows.append((c, a, line, optional))
    if per_patch:
        for c, a, name, opt in sorted(rows, reverse=True):
            if c:
                print('%5d %3d %s%s' % (c, a, name, ' (optional)' if opt else ''))
    req, opt = totals[False], totals[True]
    print('outside the infrastructure: %d changed lines, %d annotation lines '
          '(optional refactors: %d changed, %d annotation; all: %d, %d)' % (
              req[0], req[1], opt[0], opt[1], req[0] + opt[0], req[1] + opt[1]))


if __name__ == '__main__':
    main(sys.argv[1:])
