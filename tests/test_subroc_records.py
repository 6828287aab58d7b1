"""The SubROC Adult records (bench/results/subroc_adult_paper_order.csv) give the counts printed in bench/subgroups.md.

Cheap: the records are read, nothing is rerun.
"""
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).parents[1]
RECORDS = pd.read_csv(ROOT / "bench" / "results" / "subroc_adult_paper_order.csv")
SECTION = (ROOT / "bench" / "subgroups.md").read_text().split("### Adult in the paper's row order", 1)[1]
SECTION = SECTION.split("\n## ", 1)[0]


def cell(row, setting):
    "How the section prints a setting's counts over the seeds of one record: 'a ×3' or 'a · b · c'."
    counts = [row[f"{setting}_counts_seed{s}"] for s in range(3) if pd.notna(row.get(f"{setting}_counts_seed{s}"))]
    return f"{counts[0]} ×3" if len(counts) == 3 and len(set(counts)) == 1 else " · ".join(counts)


def test_records_are_the_papers_search_part():
    "Every record searched the paper's part: 11 305 rows with 24.82 % negatives (adult.test rows first)."
    assert (RECORDS["rows_search"] == 11305).all()
    assert (RECORDS["ncr_search"].round(4) == 0.2482).all()
    assert set(RECORDS["versions"].str.split(",").str[0]) == {"xgboost 3.2.0", "xgboost 2.1.4"}


def test_printed_counts_are_their_records():
    "The counts table of the section holds each record's counts, per XGBoost version, metric and setting."
    short = {"roc_auc": "ROC", "pr_auc": "PR", "average_ranking_loss": "ARL"}
    names = {"b": "basic", "f": "full", "t6": "Table 6"}
    lines = SECTION.splitlines()
    for _, row in RECORDS.iterrows():
        column = 2 if row["versions"].startswith("xgboost 3.2") else 3
        for setting in ("b", "f", "t6"):
            if pd.isna(row.get(f"{setting}_counts_seed0")):
                continue
            printed = [line.split("|")[column + 1] for line in lines
                       if line.startswith(f"| {short[row['metric']]} | {names[setting]}")]
            assert len(printed) == 1, (row["metric"], setting)
            assert cell(row, setting) in printed[0].replace("*", ""), (row["metric"], setting, printed[0])
