"""Random `conformal_sets` calls, this checkout's module against another commit's (--before), on
aps_compress_equal.py's cases: identical sets and errors; thresholds equal to the bit, except that a zero threshold is
now +0.0 where the other commit's selection could meet a -0.0 score (the same number; those calls are counted, and
their reprs compared with the sign of zero set aside). Round four, eighth session. Run from the checkout's root:
    git -C /work/main show HEAD:ciauto/prediction_sets.py > /tmp/main_ps.py
    PYTHONPATH=$PWD nice -n 5 python bench/results/limits/aps_s8_equal.py --before /tmp/main_ps.py
"""
import numpy as np

import ciauto.prediction_sets as after
from aps_compress_equal import arguments, case


def outcome(module, cal, y, test, options):
    try:
        r = module.conformal_sets(cal, y, test, **options)
        return r.sets.tobytes(), np.float64(r.threshold), repr(r)
    except (ValueError, TypeError) as error:
        return type(error).__name__, str(error)


def main():
    args, before, rng = arguments(__doc__.splitlines()[0])
    errors = signed_zero = 0
    for trial in range(args.calls):
        cal, y, test, options = case(rng, trial)
        old, new = outcome(before, cal, y, test, options), outcome(after, cal, y, test, options)
        if len(old) == 2 or len(new) == 2:
            errors += 1
            same = old == new
        elif old[1].tobytes() == new[1].tobytes():  # NaN (Mondrian) too
            same = (old[0], old[2]) == (new[0], new[2])
        else:  # only a zero's sign may differ, and the new one is +0.0
            same = old[0] == new[0] and old[1] == new[1] == 0 and not np.signbit(new[1])
            signed_zero += 1
            same = same and old[2].replace("-0.0", "0.0").replace("-0,", "0,") == new[2]
        if not same:
            raise AssertionError(f"call {trial} {options} K={cal.shape[1]}: the versions differ")
    print(f"{args.calls} of {args.calls} calls the same ({errors} of them the same error; {signed_zero} thresholds "
          "-0.0 before, +0.0 now)")


if __name__ == "__main__":
    main()
