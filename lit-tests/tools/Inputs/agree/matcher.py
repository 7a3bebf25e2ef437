#!/usr/bin/env python3
"""The plugin and wrap-ignorelist triage decide every site alike.

For a recorded set of sites -- one per entry of the given ignorelists (in
its section, and in another section, where it must not apply) and every
wrap site of the given console logs -- this compiles one function per site
with the plugin and the lists (the check's file set by #line, the function
named as the site's) and reads the plugin's remark, writes a console log
with one UBSan report per site and reads triage's csv status, and requires
the same decision: the same deciding entry (file:line) or none.

usage: matcher.py OUTDIR "CLANG_PLUGIN_CMD" LISTS_DIR [--log LOG --sites SITES]...
SITES: `qemu-run parse LOG --sites` output of LOG (the recorded sites).
"""
import glob, os, re, shlex, subprocess, sys

SECTIONS = ["signed-integer-overflow", "unsigned-integer-overflow"]
TYPES = {"signed-integer-overflow": ("long", "9223372036854775807 + 1"),
         "unsigned-integer-overflow": ("unsigned long",
                                       "18446744073709551615 + 1")}


def die(msg):
    sys.exit("matcher.py: " + msg)


def concrete(glob_text):
    return glob_text.replace("*", "x")


def entry_sites(lists):
    """Sites an entry names, in its section and in the other one."""
    sites = []
    for path in lists:
        section = None
        for no, line in enumerate(open(path), 1):
            line = line.strip()
            m = re.match(r"^\[(.*)\]$", line)
            if m:
                section = m.group(1)
                continue
            m = re.match(r"^(fun|src):([^=]+)(=.*)?$", line)
            if not m or not section:
                continue
            for san in SECTIONS:
                if m.group(1) == "fun":
                    sites.append((san, "lib/agree.c", concrete(m.group(2))))
                else:
                    sites.append((san, "./" + concrete(m.group(2)).lstrip("x/"),
                                  "agree_fn"))
    return sites


def log_sites(path):
    out = []
    for line in open(path):
        san, kind, where, func, _ = line.rstrip("\n").split("\t")
        if san in SECTIONS and kind in SECTIONS and func != "?":
            out.append((san, where.rsplit(":", 2)[0], func.split(".")[0]))
    return out


def plugin_decision(outdir, clang, lists, i, site):
    san, file, func = site
    ty = TYPES[san][0]
    src = os.path.join(outdir, "s%d.c" % i)
    with open(src, "w") as f:
        f.write('#line 10 "%s"\n%s %s(%s a, %s b) { return a + b; }\n'
                % (file, ty, func, ty, ty))
    cmd = shlex.split(clang) + [
        "-O2", "-fsanitize=" + ",".join(SECTIONS), "-fwrapv",
        "-mllvm", "-wrap-idiom-signed-wrap",
        "-Rpass=wrap-idiom", "-Rpass-missed=wrap-idiom", "-c", src,
        "-o", os.devnull] + ["-mllvm=-wrap-idiom-ignorelist=" + l for l in lists]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        die("%s: clang failed:\n%s" % (src, p.stderr))
    m = re.search(r"remark: (removed|kept) %s check on add: (.*)" % san,
                  p.stderr)
    if not m:
        die("%s: no remark for the check:\n%s" % (src, p.stderr))
    e = re.search(r"\(`[^`]*` \(([^()]*:\d+)\)", m.group(2))
    if m.group(1) == "removed" and m.group(2).startswith("ignorelist") and e:
        return "covered:" + e.group(1)
    if m.group(1) == "kept" and m.group(2).startswith("kept by") and e:
        return "opted-in:" + e.group(1)
    return "new"


def main():
    if len(sys.argv) < 4:
        die(__doc__)
    outdir, clang, listdir = sys.argv[1:4]
    rest = sys.argv[4:]
    lists = sorted(glob.glob(os.path.join(listdir, "*.scl")))
    if not lists:
        die("%s: no *.scl" % listdir)
    sites = entry_sites(lists)
    while rest:
        if rest[0] != "--sites" or len(rest) < 2:
            die("unexpected argument %r" % rest[0])
        sites += log_sites(rest[1])
        rest = rest[2:]
    sites = sorted(set(sites))
    os.makedirs(outdir, exist_ok=True)
    log = os.path.join(outdir, "sites.log")
    with open(log, "w") as f:
        f.write("Linux version 6.12.0 (matcher.py)\n")
        for i, (san, file, func) in enumerate(sites):
            f.write("UBSAN: %s in %s:%d:%d\n%s cannot be represented in type "
                    "'%s'\nCall Trace:\n %s+0x1/0x2\n---[ end trace ]---\n"
                    % (san, file, 10, i + 1, TYPES[san][1], TYPES[san][0],
                       func))
    p = subprocess.run(["wrap-ignorelist", "triage", "--format=csv",
                        "--ignorelists", listdir, log],
                       capture_output=True, text=True)
    if p.returncode:
        die("triage failed:\n" + p.stderr)
    triage = {}
    for row in p.stdout.splitlines()[1:]:
        cols = row.split(",")
        if cols[0] == "report":
            triage[int(cols[5])] = cols[-2]
    covered = disagree = 0
    for i, site in enumerate(sites):
        mine = plugin_decision(outdir, clang, lists, i, site)
        theirs = triage.get(i + 1, "(missing)")
        theirs = re.sub(r":[^:]*/", ":", theirs)  # the list's base name
        mine = re.sub(r":[^:]*/", ":", mine)
        if mine != theirs:
            disagree += 1
            print("DISAGREE %s %s:10:%d %s: plugin %s, triage %s"
                  % (site[0], site[1], i + 1, site[2], mine, theirs))
        covered += mine != "new"
    print("%d sites, %d decided by an entry, %d disagreements"
          % (len(sites), covered, disagree))
    sys.exit(1 if disagree else 0)


main()
