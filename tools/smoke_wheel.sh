#!/usr/bin/env bash
# Smoke-test a built wheel as a user would install it: a fresh venv (no system site-packages), the wheel and
# its dependencies from the package index, then, from an empty folder (so nothing is imported from a checkout):
# `ciauto --version`, the packaged data, and a small `ciauto bbc` on out-of-fold predictions written here.
#     bash tools/smoke_wheel.sh dist/ciauto-0.1.0-py3-none-any.whl [python3.13]
# Used by .github/workflows/release.yaml; exits non-zero on the first failure.
set -euo pipefail
wheel=$(realpath "$1")
python=${2:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/ciauto-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$python" -m venv "$work/venv"
. "$work/venv/bin/activate"
export PIP_DISABLE_PIP_VERSION_CHECK=1 MPLBACKEND=Agg NUMBA_CACHE_DIR="$work/numba_cache"
pip install -q "$wheel"
cd "$work"
python --version
version=$(python -c "import ciauto; print(ciauto.__version__)")
ciauto --version | tee version.txt
grep -qx "ciauto $version" version.txt
python - <<'PY'
from ciauto.datasets import load_dataset
X, y = load_dataset("credit-g")[:2]
assert len(y) == 1000, len(y)
print(f"packaged data: credit-g, {X.shape[0]} rows x {X.shape[1]} columns")
import numpy as np, pandas as pd
rng = np.random.default_rng(0)  # 120 samples, 5 folds, 8 configurations of increasing skill
y = rng.integers(0, 2, 120)
cols = {f"c{j}": y * 0.15 * j + rng.normal(size=120) for j in range(8)}
pd.DataFrame({"y": y, "fold": np.arange(120) % 5, **cols}).to_csv("oof.csv", index=False)
PY
ciauto bbc --predictions oof.csv --bootstraps 200 --seed 0 --quiet --output bbc.json
python -c "import json; r = json.load(open('bbc.json')); print('winner', r['winner'], {k: round(v['estimate'], 4) for k, v in r['bbc'].items()})"
echo "smoke test passed: $(python --version) with $(basename "$wheel")"
