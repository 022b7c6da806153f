#!/usr/bin/env bash
# Fresh lab Dagster, then the GraphQL backfill spike; recordings to test/fixtures/peers/dagster/spike.
#   bash peers/spike/dagster_spike.sh [out_dir]
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${1:-$LAB/../test/fixtures/peers/dagster/spike}" && cd "${1:-$LAB/../test/fixtures/peers/dagster/spike}" && pwd)"
RUN="${REPARO_PEERS_RUN:-/tmp/reparo-peers}"
bash "$LAB/lab.sh" down dagster >/dev/null 2>&1 || true
rm -f "$OUT"/[0-9][0-9]-*.json
# the spike code location (workspace.yaml holds the lab pipeline, which also has an asset raw_orders)
REPARO_DAGSTER_WORKSPACE="$LAB/dagster/workspace-spike.yaml" bash "$LAB/lab.sh" up dagster
python3 "$LAB/spike/dagster_spike.py" --out "$OUT" --fail-marker "$RUN/dagster/fail-partitions"
echo "recordings in $OUT (dagster is still up: bash $LAB/lab.sh down dagster)"
