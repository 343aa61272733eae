#!/usr/bin/env python3
"""pprof_totals.py DECODED - totals of a profile that `protoc --decode=perftools.profiles.Profile`
turned into text, as JSON on stdout:

  {"types": ["calls/count", ...], "default": "cycles", "strings0": "",
   "total": {"calls": N, ...}, "by_function": {"calls": {"lex": N, ...}, ...},
   "samples": N, "leaf_is_function": true}

by_function sums each sample into its leaf (first location)'s function name. Exits 1 with a
message when the text does not hold together (a location, function or string index that does
not exist).
"""
import codecs
import json
import re
import sys


def parse(lines):
    """protoc's text format as nested lists of (key, value) pairs."""
    stack = [[]]
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            done = stack.pop()
            stack[-1][-1] = (stack[-1][-1][0], done)
            continue
        m = re.match(r"^(\w+) \{$", line)
        if m:
            stack[-1].append((m.group(1), None))
            stack.append([])
            continue
        key, value = line.split(": ", 1)
        if value.startswith('"'):
            value = codecs.escape_decode(value[1:-1].encode())[0].decode("utf-8", "replace")
        else:
            value = int(value) if re.match(r"^-?\d+$", value) else value
        stack[-1].append((key, value))
    return stack[0]


def get(msg, key, default=0):
    for k, v in msg:
        if k == key:
            return v
    return default


def every(msg, key):
    return [v for k, v in msg if k == key]


top = parse(open(sys.argv[1]))
strings = every(top, "string_table")
types = ["%s/%s" % (strings[get(t, "type")], strings[get(t, "unit")])
         for t in every(top, "sample_type")]
funcs = {get(f, "id"): strings[get(f, "name")] for f in every(top, "function")}
locs = {}
for loc in every(top, "location"):
    lines = every(loc, "line")
    if len(lines) != 1 or get(lines[0], "function_id") not in funcs:
        sys.exit("location %d: not one line naming a known function" % get(loc, "id"))
    locs[get(loc, "id")] = funcs[get(lines[0], "function_id")]
total = {t.split("/")[0]: 0 for t in types}
by_function = {t.split("/")[0]: {} for t in types}
samples = every(top, "sample")
for s in samples:
    ids = every(s, "location_id")
    values = every(s, "value")
    if not ids or any(i not in locs for i in ids) or len(values) != len(types):
        sys.exit("a sample with unknown locations or %d values for %d types"
                 % (len(values), len(types)))
    for t, v in zip(types, values):
        name = t.split("/")[0]
        total[name] += v
        by_function[name][locs[ids[0]]] = by_function[name].get(locs[ids[0]], 0) + v
json.dump({"types": types, "default": strings[get(top, "default_sample_type")],
           "strings0": strings[0] if strings else None, "total": total,
           "by_function": by_function, "samples": len(samples)}, sys.stdout, sort_keys=True)
print()
