"""APS sets before/after in one process (round four, seventh session; `aps_before_after.py` with the kernels of this
session: the true-class scores approximate where the threshold does not need them, `exact=False`, and the APS
kernels without the RAPS penalty, `lam=None`). A `prediction_sets.py` of another commit (--before) is loaded beside
this checkout's, on bench/limits.py's APS inputs; equal sets and thresholds first, then interleaved CPU-time medians of
both whole `conformal_sets` calls, the read-once floor (numpy's row maxima of both matrices) and the after-version's
two kernels alone. Run from the checkout's root:
    git show c1e5e7c:ciauto/prediction_sets.py > /tmp/before_ps.py
    PYTHONPATH=$PWD:$PWD/bench nice -n 5 python bench/results/limits/aps_s7_before_after.py --before /tmp/before_ps.py
"""
from threadpoolctl import threadpool_limits

import ciauto.prediction_sets as after
from aps_before_after import main  # this script's folder: the same loader, inputs, checks and table

if __name__ == "__main__":
    with threadpool_limits(1):
        main(true_kernel=lambda cal, y, u: after._aps_true_scores(cal, y, u, exact=False))
