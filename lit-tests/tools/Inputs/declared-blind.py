"""run.py with a judge that sees no declared operand anywhere
(lit-tests/tools/wrap-oracle-facts.test): every declared-wrap removal of
the declared family must then fail, naming the check and the function.

Usage: declared-blind.py ORACLE_DIR N SEED; the environment as for run.py
(CLANG, PLUGIN, OUT)."""
import sys

sys.path.insert(0, sys.argv[1])
import run  # noqa: E402

run.declared_operands = lambda f: dict((k, False) for k in f.ops)
sys.argv = ['run.py', '-j1', '--family', 'declared', sys.argv[2], sys.argv[3]]
sys.exit(run.main())
