"""The Python side of capi/benches/bindings.rs. Usage:
    bindings_bench.py DIR WHOLE RING REPS TARGET MODE OP:FMT...
For each row (fract:f16, add:f32...), reads DIR/{a,b,c}_FMT.bin,
DIR/exp_FMT.bin and DIR/want_ROW.bin (the Rust bare kernel's bits) and
prints "OP:FMT prep64 fn64 out new prep_out": the median Mlanes/s over REPS
passes of amdgpu_valu.Prepared and of the one-shot function in 64-lane calls
(on views made beforehand, with out=) cycling through RING lanes, and of
one call over WHOLE lanes with out=, with a new array, and through Prepared
with out=. Every result is checked against the Rust bits. Every array
starts on a 4 KiB page, the destination BINDINGS_DST_SHIFT bytes past one,
as the Rust and C sides place theirs (bindings.rs, `PageArray`)."""

import os
import statistics
import sys
import time

import numpy as np

import amdgpu_valu as av

DTYPE = {"f16": np.uint16, "f32": np.uint32, "f64": np.uint64}
SOURCES = {"fract": 1, "ldexp": 1, "add": 2, "sub": 2, "subrev": 2, "mul": 2, "fma": 3}

folder, whole, ring, reps, target_id, mode = sys.argv[1], *map(int, sys.argv[2:7])
target = av.targets()[target_id]
PAGE = 4096
DST_SHIFT = int(os.environ.get("BINDINGS_DST_SHIFT", "0"))


def paged(x, shift=0):
    """A copy of x starting shift bytes past a 4 KiB page."""
    buf = np.empty(x.nbytes + PAGE + shift, np.uint8)
    start = (-buf.ctypes.data) % PAGE + shift
    out = buf[start : start + x.nbytes].view(x.dtype)
    out[:] = x
    return out


def rate(lanes, fn):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return lanes / statistics.median(times) / 1e6


for r, row in enumerate(sys.argv[7:]):
    op, fmt = row.split(":")
    dt = DTYPE[fmt]
    a, b, c = (paged(np.fromfile(f"{folder}/{k}_{fmt}.bin", dtype=dt)) for k in "abc")
    e = paged(np.fromfile(f"{folder}/exp_{fmt}.bin", dtype=np.int32))
    want = np.fromfile(f"{folder}/want_{r}.bin", dtype=dt)
    args = [a, e] if op == "ldexp" else [a, b, c][: SOURCES[op]]
    p = av.Prepared(target, op, fmt, mode=mode)
    fn = getattr(av, op)
    d = paged(np.zeros(whole, dtype=dt), DST_SHIFT)
    chunks = [([x[i : i + 64] for x in args], d[i : i + 64]) for i in range(0, ring, 64)]

    def prep64():
        for xs, o in chunks:
            p(*xs, out=o)

    def fn64():
        for xs, o in chunks:
            fn(*xs, target=target, mode=mode, out=o)

    figures = []
    for lanes, call in [(ring, prep64), (ring, fn64)]:
        d[:] = 0
        figures.append(rate(lanes, call))
        if not np.array_equal(d[:ring], want[:ring]):
            sys.exit(f"{row}: 64-lane bits differ from the Rust bare kernel")
    d[:] = 0
    figures.append(rate(whole, lambda: fn(*args, target=target, mode=mode, out=d)))
    if not np.array_equal(d, want):
        sys.exit(f"{row}: bits differ from the Rust bare kernel")
    figures.append(rate(whole, lambda: fn(*args, target=target, mode=mode)))
    d[:] = 0
    figures.append(rate(whole, lambda: p(*args, out=d)))
    if not np.array_equal(d, want) or not np.array_equal(fn(*args, target=target, mode=mode), want):
        sys.exit(f"{row}: bits differ from the Rust bare kernel")
    print(row, *(f"{x:.1f}" for x in figures))
