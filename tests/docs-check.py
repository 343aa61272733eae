#!/usr/bin/env python3
"""docs-check.py TOP - the documentation against the code, both ways.

  variables    every TSC_* variable the shim reads - its table (src/config/config.c) and any
               other TSC_* name in a string literal or getenv() of src/ - has its row in
               docs/environment.md's tables and its entry in libtsctrace(7), the one place each
               is described; each of those names a variable the code has, and so does every
               TSC_* name README.md mentions; the same for the command's own TSCTRACE_*
               variables (src/cli) in tsctrace(1) and docs/environment.md
  values       for each variable whose values are a fixed list (choose() in config.c), every
               value is in its rows of docs/environment.md and on its libtsctrace(7) line, and
               its default (the value a bad one falls back to) is in those rows' default cell
  commands     every subcommand of src/cli/main.c has its section in tsctrace(1), a line in
               `tsctrace --help` (help.c) and a row in README.md's command table (or an
               indented example); every section is one
  options      every long option of a subcommand (its struct option table in
               src/cli/cmd_<name>.c), and its short form when getopt's string has one, is in
               that command's section of tsctrace(1) and in its --help text (help.c); every
               option a section or a --help text shows is one of the command's

Appends one PASS/FAIL line per check to $RESULTS (`audit/docs-...`); exits 1 if any failed.
"""
import os
import re
import sys

top = sys.argv[1] if len(sys.argv) > 1 else "."
results = os.environ.get("RESULTS", "/dev/null")
failed = False


def read(rel):
    with open(os.path.join(top, rel), encoding="utf-8") as f:
        return f.read()


def result(name, problems):
    global failed
    with open(results, "a") as out:
        if problems:
            failed = True
            out.write(f"FAIL audit/docs-{name}: {'; '.join(problems[:5])}\n")
            print(f"  audit   docs-{name}: FAILED")
            for p in problems:
                print(f"          {p}")
        else:
            out.write(f"PASS audit/docs-{name}\n")
            print(f"  audit   docs-{name}: ok")


def both_ways(code, doc, what, where):
    """Problems: names of code that doc lacks, and names doc has that code lacks."""
    out = [f"{n} ({what}) is not in {where}" for n in sorted(code - doc)]
    out += [f"{where} documents {n}, which the code does not have" for n in sorted(doc - code)]
    return out


# ---- variables ------------------------------------------------------------------------------

config = read("src/config/config.c")
table = re.search(r"var_names\[V_COUNT\]\s*=\s*\{(.*?)\};", config, re.S)
shim_vars = set(re.findall(r'"(TSC_[A-Z_]+)"', table.group(1))) if table else set()
readme = read("README.md")
envmd = read("docs/environment.md")
man7 = read("docs/man/libtsctrace.7")
man1 = read("docs/man/tsctrace.1")

problems = [] if shim_vars else ["no var_names table found in src/config/config.c"]


def shim_sources():
    """The shim's C and assembly sources and headers (src/ but the command's src/cli/)."""
    for folder, _, files in os.walk(os.path.join(top, "src")):
        if os.path.relpath(folder, top).split(os.sep)[:2] == ["src", "cli"]:
            continue
        for f in sorted(files):
            if f.endswith((".c", ".h", ".S")):
                yield os.path.join(folder, f)


# A variable read outside the table (a getenv of its own, a name built into a message) is
# read all the same: every TSC_ name in a string literal of the shim counts. A message names
# a variable as "TSC_X=..." or "TSC_X: ...", so the name ends where a letter, digit or _ does.
literal_vars = set()
for path in shim_sources():
    with open(path, encoding="utf-8") as f:
        for lit in re.findall(r'"((?:[^"\\\n]|\\.)*)"', f.read()):
            literal_vars |= set(re.findall(r"\b(TSC_[A-Z][A-Z0-9_]*)", lit))
problems += [f"{v} is read by the shim (a string literal in src/) but not in var_names[] of "
             "src/config/config.c, so an unknown-variable line would be printed for it"
             for v in sorted(literal_vars - shim_vars)]
shim_vars |= literal_vars
# A table row starts with the variable in backquotes; libtsctrace(7) gives each a .TP entry
# ".BR TSC_X =...". README.md describes none: it links these two, and may only name
# variables the shim has.
problems += both_ways(shim_vars, set(re.findall(r"^\| `(TSC_[A-Z_]+)` \|", envmd, re.M)),
                      "shim variable", "docs/environment.md's table")
readme_vars = set(re.findall(r"\b(TSC_[A-Z][A-Z0-9_]*)", readme))
problems += [f"README.md names {v}, which the code does not have"
             for v in sorted(readme_vars - shim_vars)]
man7_env = re.search(r"^\.SH ENVIRONMENT$(.*?)^\.SH ", man7, re.M | re.S)
problems += both_ways(shim_vars,
                      set(re.findall(r"^\.BR (TSC_[A-Z_]+) =", man7_env.group(1) if man7_env
                                     else "", re.M)),
                      "shim variable", "libtsctrace(7)'s ENVIRONMENT")
result("shim-variables", problems)

# A variable with a fixed list of values: `case V_X: i = choose(p, v, val, x_names, ...,
# "using D")`. Its documented values and default must be the code's.
var_of = dict(re.findall(r'\[(V_[A-Z_]+)\]\s*=\s*"(TSC_[A-Z_]+)"', config))
value_lists = {}
for m in re.finditer(r"static const char \*const (\w+)\[[^\]]*\]\s*=\s*\{([^}]*)\}", config):
    value_lists[m.group(1)] = re.findall(r'"([^"]*)"', m.group(2))
problems = []
choices = re.findall(r'case (V_[A-Z_]+):\s*i = choose\(p, v, val, (\w+),[^;]*?"using ([^"]+)"\)',
                     config)
if not choices:
    problems.append("no choose() of a fixed list of values found in src/config/config.c")
for enum, array, default in choices:
    var = var_of.get(enum)
    values = value_lists.get(array)
    if not var or values is None:
        problems.append(f"{enum}: its variable or the values of {array} not found in config.c")
        continue
    rows = re.findall(rf"^\| `{var}` \|([^|]*)\|([^|]*)\|", envmd, re.M)
    if not rows:
        problems.append(f"{var} has no row in docs/environment.md")
    for values_cell, default_cell in rows:
        problems += [f"{var}={v} (a value the code takes) is not in its docs/environment.md row"
                     for v in values if f"`{v}`" not in values_cell]
        if f"`{default}`" not in default_cell:
            problems.append(f"{var}: docs/environment.md's row does not give the default "
                            f"`{default}` (config.c falls back to it)")
    line = re.search(rf"^\.BR {var} =(.*)$", man7_env.group(1) if man7_env else "", re.M)
    if not line:
        problems.append(f"{var} has no .BR line in libtsctrace(7)'s ENVIRONMENT")
        continue
    problems += [f"{var}={v} (a value the code takes) is not on its libtsctrace(7) line"
                 for v in values if f"\\fB{v}\\fR" not in line.group(1)]
result("variable-values", problems)

cli_src = "".join(read(os.path.join("src/cli", f)) for f in sorted(os.listdir(
    os.path.join(top, "src/cli"))) if f.endswith(".c"))
cli_vars = set(re.findall(r'"(TSCTRACE_[A-Z_]+)"', cli_src))
man1_env = re.search(r"^\.SH ENVIRONMENT$(.*?)^\.SH ", man1, re.M | re.S)
problems = both_ways(cli_vars,
                     set(re.findall(r"^\.B (TSCTRACE_[A-Z_]+)$", man1_env.group(1) if man1_env
                                    else "", re.M)),
                     "command variable", "tsctrace(1)'s ENVIRONMENT")
problems += [f"{v} (command variable) is not in docs/environment.md"
             for v in sorted(cli_vars) if f"`{v}`" not in envmd]
result("command-variables", problems)

# ---- commands -------------------------------------------------------------------------------

main_c = read("src/cli/main.c")
commands = re.findall(r'\{\s*"([a-z]+)",\s*tt_cli_([a-z]+)\s*\}', main_c)
names = {c for c, _ in commands}
help_c = read("src/cli/help.c")
top_help = re.search(r"top_help\[\]\s*=(.*?);", help_c, re.S)
top_help = top_help.group(1) if top_help else ""
man_cmds = re.search(r"^\.SH COMMANDS$(.*?)^\.SH ", man1, re.M | re.S)
man_cmds = man_cmds.group(1) if man_cmds else ""
# A section per command: .SS "name [options] ..." (several forms may share one heading).
sections = {}
for m in re.finditer(r'^\.SS "([a-z]+)(.*?)"$(.*?)(?=^\.SS |\Z)', man_cmds, re.M | re.S):
    sections[m.group(1)] = m.group(2) + m.group(3)
# A section shared by modes of several commands ("Call paths: plot \-\-flame, export
# \-\-folded") documents, for each command its heading names, those of its options it
# mentions (the others belong to the other commands).
shared_sections = {}
for m in re.finditer(r'^\.SS "[A-Z][^"]*"$(.*?)(?=^\.SS |\Z)', man_cmds, re.M | re.S):
    heading = m.group(0).split("\n", 1)[0]
    for cmd in set(re.findall(r"([a-z]+) \\-\\-", heading)):
        if cmd in sections:
            shared_sections[cmd] = shared_sections.get(cmd, "") + heading + m.group(1)
problems = [] if names else ["no command table found in src/cli/main.c"]
problems += both_ways(names, set(sections), "subcommand", "tsctrace(1)'s COMMANDS")
problems += both_ways(names, set(re.findall(r'"  ([a-z]+) {2,}', top_help)), "subcommand",
                      "tsctrace --help")
problems += [f"{c} (subcommand) has no row in README.md's command table" for c in sorted(names)
             if not re.search(rf"^(?: +tsctrace {c} |\| `{c}` \| `tsctrace {c} )", readme, re.M)]
result("commands", problems)

# ---- options --------------------------------------------------------------------------------


def command_help(cmd):
    m = re.search(r'\{\s*"' + cmd + r'",\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\}', help_c)
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))) if m else ""


problems = []
for cmd, fn in commands:
    path = f"src/cli/cmd_{fn}.c"
    if not os.path.exists(os.path.join(top, path)):
        problems.append(f"{cmd}: no {path}")
        continue
    src = read(path)
    longs = re.findall(r'\{\s*"([a-z][a-z-]*)",\s*(?:no|required|optional)_argument,\s*NULL,'
                       r"\s*'(.)'\s*\}", src)
    optstring = re.search(r'getopt_long\([^,]+,[^,]+,\s*"([^"]*)"', src)
    optstring = optstring.group(1) if optstring else ""
    shorts = {v for _, v in longs if v.isalnum() and v in optstring}
    man = sections.get(cmd, "")
    helptext = command_help(cmd)
    if not helptext:
        problems.append(f"{cmd}: no --help text in help.c")
    code_longs = {n for n, _ in longs if n != "help"}
    # Man pages escape the dash: \-\-name. Options of other commands a section names come with
    # the command before them ("merge \-\-allow\-duplicates"), so only the section's own are
    # taken: those not preceded by another command's name.
    man_longs = set()
    for m in re.finditer(r"(?:^|[^a-z])((?:[a-z]+) )?\\-\\-([a-z][a-z\\-]*[a-z])", man):
        if m.group(1) and m.group(1).strip() in names and m.group(1).strip() != cmd:
            continue
        man_longs.add(m.group(2).replace("\\-", "-"))
    man_longs.discard("help")
    shared = shared_sections.get(cmd, "")
    man_longs |= {n.replace("\\-", "-") for n in
                  re.findall(r"\\-\\-([a-z][a-z\\-]*[a-z])", shared)} & code_longs
    problems += both_ways(code_longs, man_longs, f"option of {cmd}",
                          f"tsctrace(1)'s {cmd} section")
    help_longs = set(re.findall(r"(?<![\w-])--([a-z][a-z-]*[a-z])", helptext)) - {"help"}
    problems += both_ways(code_longs, help_longs, f"option of {cmd}", f"tsctrace {cmd} --help")
    for n, v in longs:
        if v not in shorts or n == "help":
            continue
        if not re.search(rf"\\-{v}\b", man):
            problems.append(f"{cmd}: -{v} (--{n}) is not in tsctrace(1)'s {cmd} section")
        if not re.search(rf"(?<![\w-])-{v}\b", helptext):
            problems.append(f"{cmd}: -{v} (--{n}) is not in tsctrace {cmd} --help")
result("options", problems)

sys.exit(1 if failed else 0)
