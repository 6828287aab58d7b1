"""Shared timing helper for the benchmarks: the median of repeated wall-clock runs."""
import statistics
import time


def median_seconds(fn, *, repeats=5, min_total=0.2):
    "Median wall time of `fn()` over at least `repeats` runs (more for very fast calls), after one warm-up call."
    fn()
    times = []
    while len(times) < repeats or (sum(times) < min_total and len(times) < 200):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
