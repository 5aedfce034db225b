"""amdgpu_valu.fract on 4M float32 lanes, timed from Python (run by
capi/benches/bindings.rs). Usage: fract_bench.py LANES REPS. Prints the
median Mlanes/s with a new output array and with out= (reused)."""

import statistics
import sys
import time

import numpy as np

import amdgpu_valu as av

lanes = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 22
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 9
rng = np.random.default_rng(1)
r = rng.integers(0, 2**63, size=lanes, dtype=np.uint64)
# The lane mix of the Rust and C sides: sign and fraction random, biased
# exponent 119..158.
bits = ((r & 0x807FFFFF) | ((119 + (r >> 40) % 40) << 23)).astype(np.uint32)
x = bits.view(np.float32)


def rate(fn):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return lanes / statistics.median(times) / 1e6


out = np.empty_like(x)
fresh = rate(lambda: av.fract(x, target="gfx1201", mode=0xF0))
reused = rate(lambda: av.fract(x, target="gfx1201", mode=0xF0, out=out))
print(f"{fresh:.1f} {reused:.1f}")
