"""The committed per-run records (bench/results/) give the numbers of the tables in bench/study.md.

Each test recomputes a table (or its key column) from the compressed records, as the command that wrote the table
does, and compares it with what bench/study.md prints, so a table cannot drift from its records. Cheap: the records
are read, nothing is rerun.
"""
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).parents[1]
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT))

from bench.study import (AUTHORS_SUMMARY, AUTHORS_WINNER_TRUTH, load_real_records, real_study_report,  # noqa: E402
                         replay_report)

STUDY_MD = (ROOT / "bench" / "study.md").read_text()


def test_regenerated_inputs_match_the_authors_summaries():
    "The replayed RandomState(4321) stream gives the authors' stored mean best true AUC to 7 digits (N = 500)."
    checks = pd.read_csv(RESULTS / "replay_checks.csv.gz")
    assert checks.groupby("setting")["run"].nunique().eq(200).all() and checks.setting.nunique() == 16
    best = checks.groupby("setting")["best_truth"].mean()
    for label, values in AUTHORS_SUMMARY.items():
        assert abs(best[label] - values[0]) < 5e-8, (label, best[label], values[0])
    winner = checks.groupby("setting")["winner_truth"].mean()
    assert abs(winner["N=50 C=100 b=0.1 Beta(9,6)"] - AUTHORS_WINNER_TRUTH["N=50 C=100 b=0.1 Beta(9,6)"]) < 1e-12


def test_replay_tables_are_their_records():
    "The replay's tables in bench/study.md are `python bench/study.py --replay-report` of the committed records."
    for line in replay_report(RESULTS).splitlines():
        assert line in STUDY_MD, line


def test_real_data_table_is_its_records():
    "The real-data tables in bench/study.md are `--real-report ... --splits n` of the committed chunks."
    marker = "<!-- real-report: "
    assert marker in STUDY_MD
    folder, splits = STUDY_MD.split(marker, 1)[1].split(" -->", 1)[0].split()
    runs = load_real_records(ROOT / folder)
    assert (runs.groupby("dataset")["run"].nunique() >= int(splits)).all()
    for line in real_study_report(ROOT / folder, splits=int(splits)).splitlines():
        assert line in STUDY_MD, line


def test_simulation_records_give_the_published_cells():
    "Every setting of the simulation rerun whose 200 runs are committed gives the printed per-cell inclusion."
    from bench.study import records_check
    table = records_check(RESULTS)
    assert set(table["mode"]) == {"reference", "default"}, "no complete setting committed in one of the modes"
    assert table["agrees"].all(), table[~table["agrees"]].to_string()


def test_mabt_fallback_counts_are_their_records():
    """MABT on phishing-websites with and without the DeLong fallback: 36 fallback splits, 32 of them degenerate
    (standard error 0, bound 1, all missed) and 4 ordinary (all included); 18/50 with the fallback, 14/14 without,
    18/18 with only the degenerate bounds dropped. Recomputed by hand from the records, then by `fallback_counts`."""
    from ciauto.study import fallback_counts, summarize, without_fallback
    runs = load_real_records(RESULTS / "real_reference_81c")
    mabt = runs[(runs.dataset == "phishing-websites") & (runs.method == "MABT")]
    fell = mabt.reason.fillna("").str.startswith("fallback")
    degenerate = fell & (mabt.bound >= 1)
    assert (fell.sum(), degenerate.sum(), (fell & ~degenerate & mabt.included).sum()) == (36, 32, 4)
    assert not mabt[degenerate].included.any()
    counts = fallback_counts(runs, "MABT", by="dataset").set_index("dataset").loc["phishing-websites"]
    assert (counts.n_fallback, counts.n_degenerate, counts.n_fallback_included) == (36, 32, 4)
    assert (counts.included_with, counts.n_with, counts.included_without, counts.n_without) == (18, 50, 14, 14)
    assert (counts.included_ordinary, counts.n_ordinary) == (18, 18)
    cells = summarize(without_fallback(runs, "MABT")).set_index(["setting", "method"])
    assert cells.loc[("phishing-websites", "MABT (no fallback)"), ["n_included", "n_missing"]].tolist() == [14, 36]
    assert "in 18 of 50 phishing splits with the fallback (0.36), in **14 of 14** without it" in " ".join(STUDY_MD.split())


def test_fresh_seed_bbcf_table_is_its_records():
    "The (24, 6), N = 50, C = 100, balanced BBC-F table of bench/study.md is `--fresh-seeds-report` of the records."
    from bench.study_checks import fresh_seeds_report
    fresh = pd.read_csv(RESULTS / "bbcf_fresh_seeds.csv.gz")
    assert fresh.groupby("generator_seed")["run"].nunique().eq(200).all() and fresh.generator_seed.nunique() == 5
    assert (fresh.included == (fresh.truth >= fresh.bound)).all()
    for line in fresh_seeds_report(RESULTS).splitlines():
        assert line in STUDY_MD, line


def test_selection_replay_table_is_its_records():
    """The learn/eval check of bench/study.md is `--selection-report` of its records: 200 runs x 5 draws x the seven
    split methods and MABT without the fallback, on the authors' regenerated (9, 6), N = 500, C = 100, b = 0.1 inputs."""
    from bench.study_checks import _selection_path, selection_report
    runs = pd.read_csv(_selection_path("N=500 C=100 b=0.1 Beta(9,6)", RESULTS))
    assert runs.groupby("method").size().eq(1000).all() and runs.method.nunique() == 8
    assert runs.groupby("draw")["run"].nunique().eq(200).all()
    best = runs.drop_duplicates(["run", "draw"])
    assert (runs[runs.method == "DL"].truth.to_numpy() == best.best_truth.to_numpy()).all()
    for line in selection_report(RESULTS).splitlines():
        assert line in STUDY_MD, line


def test_small_n_tables_are_their_records():
    """The BBC-F-at-small-N tables of bench/study.md are `--small-n-report` of the committed real-data records, the
    matched simulation and the rerun phoneme splits; every rerun split holds 81 configurations and one winner."""
    from bench.study_checks import load_small_n, small_n_report
    table = load_small_n(RESULTS / "small_n")
    assert not table.empty and table.groupby("split").size().eq(81).all()
    assert table.groupby("split")["winner"].sum().eq(1).all()
    for line in small_n_report(RESULTS).splitlines():
        assert line in STUDY_MD, line
