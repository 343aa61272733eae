#!/usr/bin/env python3
"""layers.py SRC BUILD - the shim's large structure, checked (docs/architecture.md).

Each folder of SRC is a layer; its README.md has a line `May call: a, b` naming the folders
it may depend on. From the objects in BUILD/<folder>/*.o (what each defines and leaves
undefined, read with nm) and from the `#include "folder/file.h"` lines of the sources:
  - no cycle between files (objects), within a folder or across;
  - no dependency of a folder on one its README does not name, and none among the named
    ones that would close a cycle between folders;
  - no folder named on a README's line that the folder never uses;
  - no `#include "file.h"` of a header of SRC without its folder;
  - hot-path objects (hot/) call nothing outside hot/ but what HOT_LIBC allows.
Appends one PASS/FAIL line per check to $RESULTS; exits 1 if any failed.
"""
import os
import re
import subprocess
import sys

# libc functions the hot path may call: setting a pthread key is two stores in glibc's
# thread descriptor for the first 32 keys (thread_state.c says why); the rest is linkage.
HOT_LIBC = {"pthread_setspecific", "memset", "_GLOBAL_OFFSET_TABLE_", "__rseq_offset",
            "__rseq_size"}

src, build = sys.argv[1], sys.argv[2]
results = os.environ.get("RESULTS", "/dev/null")
failed = False


def result(name, problems):
    global failed
    with open(results, "a") as out:
        if problems:
            failed = True
            out.write(f"FAIL audit/{name}: {'; '.join(problems[:5])}\n")
            print(f"  audit   {name}: FAILED")
            for p in problems:
                print(f"          {p}")
        else:
            out.write(f"PASS audit/{name}\n")
            print(f"  audit   {name}: ok")


def may_call(folder):
    readme = os.path.join(src, folder, "README.md")
    if not os.path.isfile(readme):
        raise SystemExit(f"layers.py: {readme} is missing: say what the folder owns and may call")
    with open(readme) as f:
        for line in f:
            m = re.match(r"\s*May call:\s*(.*)$", line)
            if m:
                names = m.group(1).strip().rstrip(".")
                return set() if names in ("", "nothing") else \
                    {n.strip() for n in names.split(",")}
    raise SystemExit(f"layers.py: {folder}/README.md has no 'May call:' line")


folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
allowed = {f: may_call(f) for f in folders}
problems = [f"{f}/README.md names {sorted(allowed[f] - set(folders))}, not folders"
            for f in folders if allowed[f] - set(folders)]

# ---- objects: who defines what, who needs what -------------------------------------------
defines, needs = {}, {}
for f in folders:
    d = os.path.join(build, f)
    if not os.path.isdir(d):
        continue
    for o in sorted(os.listdir(d)):
        if not o.endswith(".o"):
            continue
        node = f"{f}/{o[:-2]}"
        out = subprocess.run(["nm", os.path.join(d, o)], capture_output=True, text=True,
                             check=True).stdout
        needs[node] = set()
        for line in out.splitlines():
            p = line.split()
            if len(p) == 2 and p[0] in "Uw":
                needs[node].add(p[1])
            elif len(p) == 3 and p[1] in "TDBRVWGC":
                defines.setdefault(p[2], node)
if not needs:
    raise SystemExit(f"layers.py: no objects under {build}/<folder>/")

# The tsctrace command (cli/) is a program of its own, linked with the pure layers only: its
# calls of libc's execvp are not calls of the shim's wrapper of that name.
SEPARATE = {"cli"}
edges = {n: {} for n in needs}		# node -> {node: first symbol}
for n, syms in needs.items():
    folder = n.split("/")[0]
    for s in sorted(syms):
        t = defines.get(s)
        if folder in SEPARATE and t and t.split("/")[0] not in allowed[folder] | {folder}:
            continue
        if t and t != n:
            edges[n].setdefault(t, s)


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(graph.get(w, ()))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


result("no-file-cycles",
       [" <-> ".join(c) + " (" + ", ".join(f"{a}->{b}: {edges[a][b]}" for a in c
                                         for b in c if b in edges[a]) + ")"
        for c in cycles(edges)])

# ---- folders: objects' links and source includes -----------------------------------------
uses = {}					# (from folder, to folder) -> evidence
for n, ts in edges.items():
    for t, s in ts.items():
        a, b = n.split("/")[0], t.split("/")[0]
        if a != b:
            uses.setdefault((a, b), f"{n} -> {t} ({s})")
inc = re.compile(r'^\s*#\s*include\s+"([a-z0-9_]+)/[^"]+"', re.M)
for f in folders:
    for name in sorted(os.listdir(os.path.join(src, f))):
        if not name.endswith((".c", ".h", ".S")):
            continue
        with open(os.path.join(src, f, name)) as fh:
            for m in inc.finditer(fh.read()):
                if m.group(1) != f and m.group(1) in folders:
                    uses.setdefault((f, m.group(1)), f"{f}/{name} includes {m.group(0).split()[-1]}")
problems += [f"{a} may not call {b}: {why}" for (a, b), why in sorted(uses.items())
             if b not in allowed[a]]
declared = {f: allowed[f] & set(folders) for f in folders}
problems += ["README.md 'May call' lines form a cycle: " + " <-> ".join(c)
             for c in cycles(declared)]
result("layers", problems)

# A README naming a layer its folder never uses says less than it seems: keep the lines to
# what is used, so that a new dependency shows as a change to one.
result("may-call-used",
       [f"{f}/README.md names {b}, which nothing in {f}/ includes or calls"
        for f in folders for b in sorted(declared[f]) if (f, b) not in uses])

# ---- includes name their folder ----------------------------------------------------------
# `#include "folder/file.h"`, so that a dependency shows in the line that makes it. A quoted
# name without a folder is only for a header that is in no folder of SRC (the public
# include/tsctrace.h, the command's generated profile.pb-c.h).
bare = re.compile(r'^\s*#\s*include\s+"([^"/]+)"', re.M)
in_src = {name for f in folders for name in os.listdir(os.path.join(src, f))}
problems = []
for f in folders:
    for name in sorted(os.listdir(os.path.join(src, f))):
        if not name.endswith((".c", ".h", ".S")):
            continue
        with open(os.path.join(src, f, name)) as fh:
            text = fh.read()
        problems += [f"{f}/{name}:{text.count(chr(10), 0, m.start()) + 1} includes "
                     f"\"{m.group(1)}\": name its folder"
                     for m in bare.finditer(text) if m.group(1) in in_src]
result("includes-name-folder", problems)

# ---- the hot path ------------------------------------------------------------------------
hot = [n for n in needs if n.startswith("hot/")]
result("hot-calls-only-hot",
       [f"{n} -> {defines.get(s, 'libc')}: {s}" for n in sorted(hot) for s in sorted(needs[n])
        if s not in HOT_LIBC and not defines.get(s, "").startswith("hot/")])
sys.exit(1 if failed else 0)
