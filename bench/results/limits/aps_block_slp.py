"""APS test side at K = 10, 100, 1000: the max pass + the gather of p >= top/4, plain (the kernel's `_largest` and
`_at_least`) against block maxima (B = 8 or 16 classes written out, so that LLVM's SLP vectoriser may pack them),
each block form compiled with numba's SLP switch on and off. Same candidates checked first; CPU time, medians of
interleaved rounds. Run from the checkout's root:
    PYTHONPATH=$PWD:$PWD/bench nice -n 5 python bench/results/limits/aps_block_slp.py
"""
import numba
import numpy as np
from numba import njit
from numba.core.compiler_lock import global_compiler_lock

from _timing import interleaved_medians

SIZES = [(10_000, 10), (10_000, 100), (5_000, 200), (4_000, 300), (2_000, 500), (2_000, 1000)]
SIG = "int64(float64[:, ::1], uint64[:, ::1], int64[::1])"


def plain():
    @njit(nogil=True)
    def kernel(p, bits, many):
        total = 0
        for i in range(p.shape[0]):
            hi = np.uint64(0)
            for j in range(bits.shape[1]):
                hi = max(hi, bits[i, j])
            cut = 0.25 * _top(hi)
            size = 0
            for j in range(p.shape[1]):
                many[size] = j
                size += 1 if p[i, j] >= cut else 0
            total += size + many[0]
        return total
    return kernel


@njit(inline="always")
def _top(hi):
    a = np.empty(1, np.uint64)
    a[0] = hi
    return a.view(np.float64)[0]


def blocks8():
    @njit(nogil=True)
    def kernel(p, bits, many):
        n, k = p.shape
        nb = k // 8
        bm = np.empty(nb + 1, np.uint64)
        total = 0
        for i in range(n):
            r = bits[i]
            hi = np.uint64(0)
            for b in range(nb):
                o = 8 * b
                m0 = max(r[o], r[o + 1])
                m1 = max(r[o + 2], r[o + 3])
                m2 = max(r[o + 4], r[o + 5])
                m3 = max(r[o + 6], r[o + 7])
                m = max(max(m0, m1), max(m2, m3))
                bm[b] = m
                hi = max(hi, m)
            for j in range(8 * nb, k):
                hi = max(hi, r[j])
            cut = 0.25 * _top(hi)
            cb = _bits(cut)
            size = 0
            for b in range(nb):
                if bm[b] >= cb:
                    for j in range(8 * b, 8 * b + 8):
                        many[size] = j
                        size += 1 if r[j] >= cb else 0
            for j in range(8 * nb, k):
                many[size] = j
                size += 1 if r[j] >= cb else 0
            total += size + many[0]
        return total
    return kernel


def blocks16():
    @njit(nogil=True)
    def kernel(p, bits, many):
        n, k = p.shape
        nb = k // 16
        bm = np.empty(nb + 1, np.uint64)
        total = 0
        for i in range(n):
            r = bits[i]
            hi = np.uint64(0)
            for b in range(nb):
                o = 16 * b
                m0 = max(max(r[o], r[o + 1]), max(r[o + 2], r[o + 3]))
                m1 = max(max(r[o + 4], r[o + 5]), max(r[o + 6], r[o + 7]))
                m2 = max(max(r[o + 8], r[o + 9]), max(r[o + 10], r[o + 11]))
                m3 = max(max(r[o + 12], r[o + 13]), max(r[o + 14], r[o + 15]))
                m = max(max(m0, m1), max(m2, m3))
                bm[b] = m
                hi = max(hi, m)
            for j in range(16 * nb, k):
                hi = max(hi, r[j])
            cut = 0.25 * _top(hi)
            cb = _bits(cut)
            size = 0
            for b in range(nb):
                if bm[b] >= cb:
                    for j in range(16 * b, 16 * b + 16):
                        many[size] = j
                        size += 1 if r[j] >= cb else 0
            for j in range(16 * nb, k):
                many[size] = j
                size += 1 if r[j] >= cb else 0
            total += size + many[0]
        return total
    return kernel


@njit(inline="always")
def _bits(x):
    a = np.empty(1, np.float64)
    a[0] = x
    return a.view(np.uint64)[0]


def compiled(factory, slp):
    kernel = factory()
    with global_compiler_lock:
        before = numba.config.SLP_VECTORIZE
        numba.config.SLP_VECTORIZE = slp
        try:
            kernel.compile(SIG)
        finally:
            numba.config.SLP_VECTORIZE = before
    return kernel


def inputs(n, k):
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(n, k)) * 2
    logits[np.arange(n), rng.integers(0, k, n)] += 3
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return p


def main():
    kernels = {"plain": compiled(plain, False), "plain, SLP": compiled(plain, True),
               "blocks of 8": compiled(blocks8, False), "blocks of 8, SLP": compiled(blocks8, True),
               "blocks of 16": compiled(blocks16, False), "blocks of 16, SLP": compiled(blocks16, True)}
    for name, kernel in kernels.items():
        asm = kernel.inspect_asm(kernel.signatures[0])
        print(f"{name}: vpmaxuq {asm.count('vpmaxuq')}, zmm {asm.count('zmm')}, ymm {asm.count('ymm')}")
    print("| n | K | numpy row max | " + " | ".join(kernels) + " |")
    print("|---" * (3 + len(kernels)) + "|")
    for n, k in SIZES:
        p = inputs(n, k)
        bits = p.view(np.uint64)
        many = np.empty(k, np.int64)
        results = {name: f(p, bits, many) for name, f in kernels.items()}
        assert len(set(results.values())) == 1, results
        calls = [lambda: p.max(axis=1)] + [lambda f=f: f(p, bits, many) for f in kernels.values()]
        times = interleaved_medians(*[lambda f=f: [f() for _ in range(5)] for f in calls], repeats=15, clock="cpu")
        print(f"| {n} | {k} | " + " | ".join(f"{t / 5 * 1e3:.2f} ms" for t in times) + " |", flush=True)


if __name__ == "__main__":
    main()
