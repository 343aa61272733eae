#!/usr/bin/env python3
"""tail_data.py REAL.json OUT.json SEED - a real report (copy_buf(dst, src, n) 1,000 times
with n = 64 and 100 with 65,536 on two threads, strlen 600 times; TSC_CALLERS=2) given the
issue-34 members the shim is to write (docs/report-format.md): "slowest" (its largest
histogram values, slowest first, on the report's threads, inside its wall time),
"slowest_info", and "by_arg" for copy_buf's third argument, split from the histogram at 1,000
cycles. How tests/cli/data/tail-a.json and tail-b.json were made; kept to remake them."""
import json
import random
import sys


def ranked(buckets, mx):
    """Every timed call's value, ascending: a bucket's high edge clamped to max."""
    out = []
    for lo, hi, n in buckets:
        out += [min(hi, mx)] * n
    return out


def pct(vals, p):
    rank = max(1, -(-len(vals) * p // 100))
    return vals[rank - 1]


def main():
    src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rnd = random.Random(seed)
    r = json.load(open(src))
    tids = [t["tid"] for t in r["functions"][0]["threads"]]
    base_dst, base_src = 0x55D0C8A4E040, 0x55D0C8A5E040
    for f in r["functions"]:
        vals = ranked(f["histogram"]["buckets"], f["cycles"]["max"])
        frames = [c["frames"] for c in f.get("callers", [])]
        big = f["name"] == "copy_buf"
        slow = []
        for i, cyc in enumerate(reversed(vals[-8:])):
            n = 65536 if big and cyc >= 1000 else 64
            args = [base_dst, base_src, n, rnd.randrange(0, 1 << 40), 0, -1] if big else \
                [0x55D0C8A3A004, 0, 0, 7, 0x7FFC1A2B3C40, 0]
            slow.append({
                "cycles": cyc,
                "start_ns": r["start_unix_ns"] + rnd.randrange(1000000, r["wall_ns"] - 1000000),
                "tid": tids[i % 2], "cpu": i % 2,
                "args": args, "ret": base_dst if big else 12,
                "path": frames[i % len(frames)] if frames else None,
                "offcpu_ns": (rnd.randrange(0, cyc // 4) if i % 3 else None) if big else None,
            })
        f["slowest"] = slow
        f["slowest_info"] = {"kept": 8, "timed_only": True, "slower_than": None, "not_kept": 0}
        if big:
            small = [v for v in vals if v < 1000]
            large = [v for v in vals if v >= 1000]
            drop = f["calls"] - f["timed"]
            f["by_arg"] = {"arg": 3, "filter": None, "buckets": [
                {"lo": 64, "hi": 127, "calls": len(small) + drop, "timed": len(small),
                 "min": small[0], "median": pct(small, 50), "p99": pct(small, 99)},
                {"lo": 65536, "hi": 131071, "calls": len(large), "timed": len(large),
                 "min": large[0], "median": pct(large, 50), "p99": pct(large, 99)}]}
    json.dump(r, open(dst, "w"), indent=1)
    open(dst, "a").write("\n")


main()
