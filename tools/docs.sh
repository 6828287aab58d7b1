#!/usr/bin/env bash
# Build the documentation site into _docs/ from the notebooks, offline: `bash tools/docs.sh`, then open
# _docs/index.html in a browser. Needs the dev install (pip install -e ".[dev]"). Library notebooks are shown
# from the test run's executed copies (_executed/) or executed here when those are missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python tools/build_docs.py --clean "$@"
