#!/usr/bin/env python3
"""Code sizes in a Go WebAssembly binary, by package and by function.

Reads the code section (id 10), the data section (id 11) and the "name"
custom section's function names (build without -s to keep it:
GOOS=js GOARCH=wasm go build -ldflags=-w ...), and prints the raw and
gzip -9 sizes of the code, grouped by package (the symbol's import path,
up to its last '/'-segment's first '.'), then the largest functions.
Gzip of a group is the group's bodies concatenated and compressed alone:
an estimate of what removing them would save, not an exact one.

  scripts/wasm-sizes.py FILE.wasm [-n TOP] [-p PREFIX] [--diff OTHER.wasm]
"""
import argparse
import gzip
import re
import signal
import sys
from collections import defaultdict


def limits(b, k):
    """Skips a limits record (flags, min, and max when flags & 1); returns the offset after it."""
    flags = b[k]
    _, k = leb(b, k + 1)
    if flags & 1:
        _, k = leb(b, k)
    return k


def leb(b, i):
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def name(b, i):
    n, i = leb(b, i)
    return b[i:i + n].decode("utf-8", "replace"), i + n


def parse(path):
    b = open(path, "rb").read()
    assert b[:4] == b"\0asm", "not a wasm file"
    i = 8
    nimports = 0
    bodies = []
    names = {}
    sections = []
    data = 0
    while i < len(b):
        sid = b[i]
        size, j = leb(b, i + 1)
        end = j + size
        label = str(sid)
        if sid == 0:
            cname, k = name(b, j)
            label = "custom:" + cname
            if cname == "name":
                while k < end:
                    sub = b[k]
                    ssz, k = leb(b, k + 1)
                    send = k + ssz
                    if sub == 1:
                        cnt, m = leb(b, k)
                        for _ in range(cnt):
                            idx, m = leb(b, m)
                            fn, m = name(b, m)
                            names[idx] = fn
                    k = send
        elif sid == 2:
            cnt, k = leb(b, j)
            for _ in range(cnt):
                _, k = name(b, k)
                _, k = name(b, k)
                kind = b[k]
                k += 1
                if kind == 0:
                    _, k = leb(b, k)
                    nimports += 1
                elif kind == 1:
                    k = limits(b, k + 1)  # a table: its reftype, then limits
                elif kind == 2:
                    k = limits(b, k)  # a memory: limits
                elif kind == 3:
                    k += 2
        elif sid == 10:
            cnt, k = leb(b, j)
            for _ in range(cnt):
                bsz, k2 = leb(b, k)
                bodies.append(b[k2:k2 + bsz])
                k = k2 + bsz
        elif sid == 11:
            data = size
        sections.append((label, size))
        i = end
    funcs = [(names.get(nimports + n, "func%d" % (nimports + n)), body) for n, body in enumerate(bodies)]
    return b, sections, funcs, data


def package(sym):
    # Go symbols: path/to/pkg.Func, path/to/pkg.(*T).M, pkg.Func[...]
    # (the linker writes '/' as '_' in wasm names: github.com_x_y.F).
    s = sym.split("[", 1)[0]
    m = re.match(r"[a-z0-9-]+\.(com|org|net|io|in|dev)_", s)  # a domain: github.com_
    start = m.end() if m else 0
    dot = s.find(".", start)
    return s[:dot] if dot > 0 else s


def gz(bs):
    return len(gzip.compress(b"".join(bs), 9))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wasm")
    ap.add_argument("-n", type=int, default=40, help="functions to list")
    ap.add_argument("-p", default="", help="list only functions with this prefix")
    ap.add_argument("--diff", help="second wasm: per-package raw size change")
    a = ap.parse_args()
    b, sections, funcs, data = parse(a.wasm)
    print("file %d bytes, gzip -9 %d" % (len(b), len(gzip.compress(b, 9))))
    for label, size in sections:
        print("  section %-14s %9d" % (label, size))
    print("data section %d bytes" % data)
    pk = defaultdict(list)
    for fn, body in funcs:
        pk[package(fn)].append(body)
    if a.diff:
        _, _, f2, d2 = parse(a.diff)
        pk2 = defaultdict(list)
        for fn, body in f2:
            pk2[package(fn)].append(body)
        rows = []
        for p in set(pk) | set(pk2):
            r1 = sum(map(len, pk.get(p, [])))
            r2 = sum(map(len, pk2.get(p, [])))
            if r1 != r2:
                rows.append((r2 - r1, p, r1, r2))
        rows.sort()
        print("\n%10s %10s %10s  package" % ("a raw", "b raw", "b-a"))
        for d, p, r1, r2 in rows:
            print("%10d %10d %+10d  %s" % (r1, r2, d, p))
        print("data %d -> %d (%+d)" % (data, d2, d2 - data))
        return
    rows = sorted(((sum(map(len, v)), gz(v), len(v), p) for p, v in pk.items()), reverse=True)
    print("\n%10s %10s %6s  package (code)" % ("raw", "gzip", "funcs"))
    for r, g, n, p in rows:
        print("%10d %10d %6d  %s" % (r, g, n, p))
    sel = [(len(body), fn) for fn, body in funcs if fn.startswith(a.p)]
    sel.sort(reverse=True)
    print("\n%10s  function" % "raw")
    for r, fn in sel[:a.n]:
        print("%10d  %s" % (r, fn))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under | head
    sys.exit(main())
