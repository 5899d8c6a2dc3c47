"""NumPy peer for tools/bench: attention in float32 as a NumPy user writes it (Debian's python3-numpy,
BLAS from the system's libblas.so.3 alternative: OpenBLAS when libopenblas0-pthread is installed).
Run by tools/benchmark/run.mjs with OPENBLAS_NUM_THREADS=1; same line protocol as native.cpp:
    numpy_attn.py DIR B H T d causal      (reads DIR/{q,k,v}.f32)
    out | time MIN_MS | quit              (one command per stdin line, one JSON line per answer)
The first line printed names the BLAS library that NumPy loaded.
"""
import json
import os
import sys
import time

import numpy as np


def blas_library():
    # numpy links libblas.so.3 / libcblas.so.3; Debian's alternatives decide which BLAS that is.
    with open('/proc/self/maps') as maps:
        libs = {line.split()[-1] for line in maps if 'blas' in line and '/' in line}
    return ', '.join(sorted(os.path.realpath(p) for p in libs)) or 'unknown'


def main():
    d_, B, H, T, d, causal = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6] == '1'
    shape = (B, H, T, d)
    q, k, v = (np.fromfile(os.path.join(d_, f'{n}.f32'), dtype=np.float32).reshape(shape) for n in 'qkv')
    scale = np.float32(1 / np.sqrt(d))
    mask = np.triu(np.full((T, T), -np.inf, dtype=np.float32), 1) if causal else None

    def attention():
        s = (q * scale) @ k.swapaxes(-1, -2)
        if mask is not None:
            s += mask
        s -= s.max(axis=-1, keepdims=True)
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        return s @ v

    print(json.dumps({'blas': blas_library()}), flush=True)
    for line in sys.stdin:
        op, *rest = line.split()
        if op == 'out':
            attention().astype(np.float32).tofile(os.path.join(d_, 'out.f32'))
            print(json.dumps({'ok': True}), flush=True)
        elif op == 'time':
            min_ms, samples, start = float(rest[0]), [], time.perf_counter()
            while True:
                t0 = time.perf_counter()
                attention()
                samples.append((time.perf_counter() - t0) * 1e3)
                if (time.perf_counter() - start) * 1e3 >= min_ms:
                    break
            print(json.dumps({'samples': samples}), flush=True)
        elif op == 'quit':
            break


if __name__ == '__main__':
    main()
