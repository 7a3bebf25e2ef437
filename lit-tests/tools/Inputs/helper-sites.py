"""run.py on a hand-made program (lit-tests/tools/wrap-oracle-helper.test):
a static helper h_0 (`return a + b;` on unsigned int) called by f0, which
handles the wrap (`e = h_0(a, b); if (e < a) return 1; return e;`), and,
in the program `shared`, by f1 too, which returns the sum untested. Its one
site stands for both calls' operations: removed (the test's ignorelist
names h_0), it is harmful through f1's call only, though f0's comes first.

Usage: helper-sites.py ORACLE_DIR shared|handled; the environment as for
run.py (CLANG, PLUGIN, OUT, PLUGIN_FLAGS)."""
import random
import sys

sys.path.insert(0, sys.argv[1])
import run  # noqa: E402
from lang import Func, Numbering, number  # noqa: E402
from inputs import inputs  # noqa: E402

V = lambda n: ('var', n)
SHARED = sys.argv[2] == 'shared'


def call():
    return ('call', 'h_0', '+', 'u32', V('a'), V('b'))


def program(seed, nfuncs, calls, families=None):
    params = [('u32', 'a'), ('u32', 'b'), ('u32', 'lim')]
    funcs = [Func('f0', params, [
        ('decl', 'u32', 'e', call()),
        ('if', ('cmp', '<', V('e'), V('a')), [('ret', ('const', 1, 'i32'))],
         []),
        ('ret', V('e'))])]
    if SHARED:
        funcs.append(Func('f1', params, [('ret', call())]))
    for f in funcs:
        f.family = 'helper'
    number(funcs, Numbering())
    rng = random.Random(seed)
    return funcs, [inputs(rng, f.params, calls) for f in funcs]


run.generate = program
sys.argv = ['run.py', '-j1', '--functions', '2' if SHARED else '1', '1', '1']
sys.exit(run.main())
