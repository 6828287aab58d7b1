"""The benchmarks' one timing helper: seconds of a block or a call on one of two clocks, and summaries of repeats.

Every bench script times through this module, so "seconds" means the same everywhere: `"wall"` is
`time.perf_counter` (elapsed time, what a user waits), `"cpu"` is `time.process_time` (CPU time of this process,
all its threads; not that of worker processes).
"""
import random
import statistics
import sys
import time

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


class Stopwatch:
    "Wall and CPU seconds of a block: `with Stopwatch() as watch: ...`, then `watch.wall`, `watch.cpu`."

    def __enter__(self):
        self._start = {name: clock() for name, clock in CLOCKS.items()}
        self.wall = self.cpu = None
        return self

    def lap(self, clock="wall"):
        "Seconds on `clock` since the block began (while it runs)."
        return CLOCKS[clock]() - self._start[clock]

    def __exit__(self, *exc):
        self.wall, self.cpu = self.lap("wall"), self.lap("cpu")
        return False


# A `--quick` smoke run checks that every path runs and prints its table, not how fast: each measurement is one call
SMOKE = "--quick" in sys.argv[1:]


def timed(fn, *args, **kwargs):
    "`(fn(*args, **kwargs), watch)`: one call, no warm-up; its seconds are `watch.wall` and `watch.cpu`."
    with Stopwatch() as watch:
        out = fn(*args, **kwargs)
    return out, watch


def repeat_seconds(fn, repeats, *, clock="wall"):
    "Seconds of each of `repeats` calls of `fn()` on `clock`, no warm-up."
    repeats = 1 if SMOKE else repeats
    tick = CLOCKS[clock]
    times = []
    for _ in range(repeats):
        start = tick()
        fn()
        times.append(tick() - start)
    return times


def best_seconds(fn, repeats=3, *, clock="wall"):
    "The fastest of `repeats` calls of `fn()`, no warm-up."
    return min(repeat_seconds(fn, repeats, clock=clock))


def quartile_seconds(fn, repeats, *, clock="wall"):
    "(median, first quartile, third quartile) of `repeats` calls of `fn()`, no warm-up (numpy's linear quartiles)."
    times = repeat_seconds(fn, repeats, clock=clock)
    if len(times) == 1:
        return times[0], times[0], times[0]
    q1, q2, q3 = statistics.quantiles(times, n=4, method="inclusive")
    return q2, q1, q3


def median_seconds(fn, *, repeats=5, min_total=0.2, warmup=True, clock="wall"):
    """Median seconds of `fn()` over at least `repeats` calls (more, up to 200, until they add up to `min_total`),
    after one warm-up call unless `warmup=False`."""
    if SMOKE:
        repeats, min_total, warmup = 1, 0.0, False
    if warmup:
        fn()
    tick = CLOCKS[clock]
    times = []
    while len(times) < repeats or (sum(times) < min_total and len(times) < 200):
        start = tick()
        fn()
        times.append(tick() - start)
    return statistics.median(times)


def interleaved_medians(*fns, repeats, warmup=True, clock="wall"):
    """Median seconds of each of `fns`, their calls interleaved (one of each per round, `repeats` rounds) so that load
    spikes on a shared machine hit all of them alike; one warm-up call of each first unless `warmup=False`. Each
    round calls them in a new order (a seeded shuffle): in a fixed order a call always finds the caches its
    predecessor left, which favoured one side by 10-30 % when two calls read the same large arrays (round four)."""
    if warmup and not SMOKE:
        for fn in fns:
            fn()
    times = [[] for _ in fns]
    order = list(range(len(fns)))
    shuffle = random.Random(0).shuffle
    for _ in range(1 if SMOKE else repeats):
        shuffle(order)
        for index in order:
            times[index].extend(repeat_seconds(fns[index], 1, clock=clock))
    return [statistics.median(seconds) for seconds in times]
