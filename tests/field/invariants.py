#!/usr/bin/env python3
"""invariants.py SCHEMA REPORT... - what must hold in any tsctrace JSON report, whatever the
program: the field suite applies it to every report a traced program left.

For each report: valid against SCHEMA (docs/report.schema.json, with the jsonschema module);
and for each function, and for each of its call sites (TSC_CALLERS):
  - calls = timed + skipped + unwound + migrated + dropped;
  - the histogram's buckets hold exactly the timed calls;
  - min <= median <= p90 <= p99 <= max for cycles, raw, ns and self;
  - self time never above the time: self median <= median, self total <= total;
  - the call sites, and the threads, add up to the function: calls, timed, cycles and self
    totals;
  - no frame of a call path inside libtsctrace, and no path ending in a 0x0 frame.
Prints one line per broken invariant, `FILE: function: what (numbers)`, at most 5 per file,
and exits 1 if any broke, 0 if none, 2 on bad usage or a missing module.
"""
import json
import sys

MAX_LINES = 5
STATS = ("cycles", "raw", "ns", "self")
ORDER = ("min", "median", "p90", "p99", "max")
SHIM = "libtsctrace"


def ordered(block):
    vals = [block.get(k) for k in ORDER]
    if any(v is None for v in vals):
        return True  # a block without percentiles (a site's self) has nothing to order
    return all(a <= b for a, b in zip(vals, vals[1:]))


def counts_add_up(entry):
    parts = ("timed", "skipped", "unwound", "migrated", "dropped")
    return entry.get("calls", 0) == sum(entry.get(k, 0) for k in parts)


def bucket_sum(entry):
    hist = entry.get("histogram") or {}
    return sum(b[2] for b in hist.get("buckets", []))


def timing_problems(name, entry):
    """Counts, histogram, ordering and self time of one function or one call site."""
    out = []
    if not counts_add_up(entry):
        out.append(f"{name}: calls {entry.get('calls')} != timed+skipped+unwound+migrated+dropped")
    if "histogram" in entry and bucket_sum(entry) != entry.get("timed"):
        out.append(f"{name}: histogram holds {bucket_sum(entry)} calls, timed {entry.get('timed')}")
    for stat in STATS:
        if stat in entry and not ordered(entry[stat]):
            vals = [entry[stat].get(k) for k in ORDER]
            out.append(f"{name}: {stat} percentiles out of order {vals}")
    cyc, slf = entry.get("cycles", {}), entry.get("self", {})
    for key in ("median", "total"):
        if key in cyc and key in slf and slf[key] > cyc[key]:
            out.append(f"{name}: self {key} {slf[key]} > {key} {cyc[key]}")
    return out


def total(row, key):
    """A count (calls, timed), or the total of a block of times (cycles, self); a thread's
    row holds those totals as plain numbers."""
    val = row.get(key, 0)
    return val.get("total", 0) if isinstance(val, dict) else val


def adds_up(name, entry, rows, what, keys):
    out = []
    for key in keys:
        if key not in entry or any(key not in r for r in rows):
            continue
        part = sum(total(r, key) for r in rows)
        whole = total(entry, key)
        if part != whole:
            out.append(f"{name}: {what} {key} add up to {part}, function has {whole}")
    return out


def path_problems(name, site, objects):
    out = []
    frames = site.get("frames", [])
    paths = [objects[loc["object"]] if isinstance(loc.get("object"), int)
             and loc["object"] < len(objects) else "" for loc in site.get("locations", [])]
    if any(SHIM in f for f in frames) or any(SHIM in p for p in paths):
        out.append(f"{name}: a frame of the shim in path {site.get('site')}")
    if frames and frames[-1] in ("0x0", "0"):
        out.append(f"{name}: path ends in a 0x0 frame: {site.get('site')}")
    return out


def function_problems(fn, objects):
    name = fn.get("name", "?")
    out = timing_problems(name, fn)
    sites = fn.get("callers")
    if sites:
        out += adds_up(name, fn, sites, "call sites'", ("calls", "timed", "cycles", "self"))
        for site in sites:
            label = f"{name} <- {site.get('site', '?')}"
            out += timing_problems(label, site)
            out += path_problems(name, site, objects)
    threads = fn.get("threads")
    if threads:
        out += adds_up(name, fn, threads, "threads'", ("calls", "timed", "cycles", "self"))
    return out


def report_problems(doc):
    objects = [o.get("path", "") for o in doc.get("objects", [])]
    out = []
    for fn in doc.get("functions", []):
        out += function_problems(fn, objects)
    return out


def schema_problems(validator, doc):
    return [f"schema: {'.'.join(str(p) for p in e.absolute_path) or '(top)'}: "
            f"{' '.join(e.message.split())[:160]}" for e in validator.iter_errors(doc)]


def main(argv):
    if len(argv) < 3:
        print("usage: invariants.py SCHEMA REPORT...", file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("invariants.py: python3-jsonschema is missing", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.validators.validator_for(schema)(schema)
    bad = 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not a JSON report: {e}")
            bad += 1
            continue
        problems = schema_problems(validator, doc) + report_problems(doc)
        for line in problems[:MAX_LINES]:
            print(f"{path}: {line}")
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
