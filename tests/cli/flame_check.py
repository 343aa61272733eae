#!/usr/bin/env python3
"""flame_check.py SVG ROW - a flame graph as tsctrace draws it, checked: well-formed XML with an
<svg> root; every frame (a <g> holding <title> and <rect>) lies within a frame one row (ROW px)
below it, and the widths of a frame's children add up to at most its own (in hundredths of
a pixel, as the coordinates are printed). Prints the root frame's tooltip ("all (N unit, ...)")
on success; exits 1 with the first problem otherwise.
"""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
row = int(sys.argv[2])
root = ET.parse(sys.argv[1]).getroot()
if root.tag != NS + "svg":
    sys.exit("the root element is %s, not svg" % root.tag)


def hundredths(s):
    whole, _, frac = s.partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])


frames = []
for g in root.iter(NS + "g"):
    rect, title = g.find(NS + "rect"), g.find(NS + "title")
    if rect is None or title is None:
        sys.exit("a <g> without <rect> or <title>")
    frames.append((hundredths(rect.get("y")), hundredths(rect.get("x")),
                   hundredths(rect.get("width")), title.text))
if not frames:
    sys.exit("no frames")
bottom = max(f[0] for f in frames)
children = {}
for y, x, w, t in frames:
    if y == bottom:
        continue
    parents = [p for p in frames if p[0] == y + row * 100 and p[1] <= x and x + w <= p[1] + p[2]]
    if len(parents) != 1:
        sys.exit("frame %r at y=%d x=%d w=%d lies on %d frames below" % (t, y, x, w, len(parents)))
    children.setdefault(parents[0], []).append(w)
for p, ws in children.items():
    if sum(ws) > p[2]:
        sys.exit("the children of %r are %d wide, more than its %d" % (p[3], sum(ws), p[2]))
roots = [f for f in frames if f[0] == bottom]
if len(roots) != 1:
    sys.exit("%d frames in the bottom row" % len(roots))
print(roots[0][3])
