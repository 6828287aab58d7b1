"""The compressed set kernel (`_aps_sets(..., compress=True)`) against `aps_scores` on 900 random cases (K 2-1 001, K < 8,
ties, u = 0 / random), and its assembly: run with NUMBA_CPU_NAME=generic and a fresh NUMBA_CACHE_DIR to check the
scalarised compress (0 vpcompress), and without to check the AVX-512 one. From the checkout root:
    NUMBA_CPU_NAME=generic NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=$PWD python bench/results/limits/aps_compress_generic.py
"""
import re, numpy as np
import ciauto.prediction_sets as ps
rng = np.random.default_rng(3)
bad = 0
for trial in range(300):
    k = int(rng.choice([1, 2, 3, 7, 8, 9, 17, 256, 263, 1000, 1001])) if trial % 2 else int(rng.integers(2, 300))
    k = max(k, 2)
    n = int(rng.integers(1, 30))
    p = rng.dirichlet(np.full(k, rng.choice([0.05, 0.3, 1.0])), n)
    if trial % 3 == 0: p = np.round(p * 8) / 8
    u = rng.random(n) if trial % 2 else np.zeros(n)
    full = ps.aps_scores(p, u)
    for q in np.quantile(full, [0.1, 0.5, 0.9]):
        a = ps._aps_sets(p, p.view(np.uint64), u, q, 0.0, 0, np.zeros(p.shape, bool), True)[0]
        bad += not np.array_equal(a, full <= q)
sig = [s for s in ps._aps_sets.signatures if str(s[-1]) != "none"][0]
asm = ps._aps_sets.inspect_asm(sig)
print("AVX512:", ps._AVX512, "vpcompress:", len(re.findall("vpcompress", asm)), "zmm:", len(re.findall("zmm", asm)), "mismatches:", bad, "of 900")
