#!/usr/bin/env python3
"""bench/cg-diff.py - where two callgrind profiles of a compilation differ.

Usage: bench/cg-diff.py BASE.cg PLUG.cg [N]

Prints the functions whose inclusive instruction count (Ir) changed most
between BASE and PLUG (e.g. the <file>.base.cg and <file>.plug.cg that
`bench/compile-time.sh --callgrind` leaves in build/bench/out/callgrind/),
N of each direction (default 25), with the new pass manager's passes
(PassModel<..., XPass, ...>::run) summarised first: that is where the
plugin's own cost and its effect on the later passes show.
"""
import re
import subprocess
import sys


def load(path):
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    ir = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
        if not m:
            continue
        name = re.sub(r"\s*\[[^\]]*\]$", "", m.group(2))
        name = re.sub(r"^(\?\?\?|[^ ]*\.(cpp|h|c|inc)):", "", name)
        ir[name] = max(ir.get(name, 0), int(m.group(1).replace(",", "")))
    return ir


def passes(ir):
    """Inclusive Ir per new-PM pass (PassModel<IRUnit, Pass, ...>::run, or
    XPass::run where the PassModel is not an exported symbol)."""
    res = {}
    for name, v in ir.items():
        m = re.match(r"llvm::detail::PassModel<llvm::(\w+), ([\w:]+(?:<[^>]*>)?),.*>::run\(", name)
        if m and "PassManager<" not in m.group(2) and "Adaptor" not in m.group(2):
            p = m.group(2).replace("llvm::", "")
        else:
            # libLLVM's own PassModels are not exported; its XPass::run are
            m = re.match(r"(llvm::)?(\w+Pass)::run\(", name)
            if not m:
                continue
            p = m.group(2)
        res[p] = max(res.get(p, 0), v)
    return res


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    base, plug = load(sys.argv[1]), load(sys.argv[2])
    tb, tp = base.get("PROGRAM TOTALS", 0), plug.get("PROGRAM TOTALS", 0)
    print(f"total Ir: base {tb:,}  plug {tp:,}  diff {tp - tb:+,} ({100 * (tp - tb) / tb:+.3f}%)")
    pb, pp = passes(base), passes(plug)
    rows = sorted(((pp.get(k, 0) - pb.get(k, 0), k) for k in set(pb) | set(pp)), key=lambda r: -abs(r[0]))
    print(f"\nnew-PM passes, inclusive Ir (largest changes; % of base total):")
    for d, k in rows[:n]:
        print(f"  {d:>+15,} ({100 * d / tb:+.3f}%)  {pb.get(k, 0):>15,} -> {pp.get(k, 0):>15,}  {k}")
    rows = sorted(((plug.get(k, 0) - base.get(k, 0), k) for k in set(base) | set(plug)))
    print(f"\nfunctions, inclusive Ir, largest increases:")
    for d, k in rows[::-1][:n]:
        print(f"  {d:>+15,}  {base.get(k, 0):>15,} -> {plug.get(k, 0):>15,}  {k[:110]}")
    print(f"\nfunctions, inclusive Ir, largest decreases:")
    for d, k in rows[:n]:
        print(f"  {d:>+15,}  {base.get(k, 0):>15,} -> {plug.get(k, 0):>15,}  {k[:110]}")


if __name__ == "__main__":
    main()
