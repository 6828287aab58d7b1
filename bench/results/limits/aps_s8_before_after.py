"""APS sets before/after in one process (round four, eighth session; `aps_before_after.py` with this session's
kernels: the threshold and the sets in one call, `_aps_calibrated`, timed here as its two passes apart: the
true-class scores `_aps_true` (approximate where the threshold does not need them) and the set kernel `_aps_sets`,
which zeroes its own rows and asks for the next row while it gathers). A `prediction_sets.py` of another commit
(--before) is loaded beside this checkout's, on bench/limits.py's APS inputs; equal sets and thresholds first, then
interleaved CPU-time medians of both whole `conformal_sets` calls, the read-once floor (numpy's row maxima of both
matrices) and the two passes. Run from the checkout's root:
    git -C /work/main show 8378836:ciauto/prediction_sets.py > /tmp/before_ps.py
    PYTHONPATH=$PWD:$PWD/bench nice -n 5 python bench/results/limits/aps_s8_before_after.py --before /tmp/before_ps.py
"""
from threadpoolctl import threadpool_limits

from aps_before_after import main  # this script's folder: the loader, inputs, checks, table and this session's passes

if __name__ == "__main__":
    with threadpool_limits(1):
        main()
