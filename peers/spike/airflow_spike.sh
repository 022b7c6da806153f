#!/usr/bin/env bash
# Fresh lab Airflow with the OpenLineage receiver, then the REST v2 spike; recordings to test/fixtures/peers/airflow/spike.
#   bash peers/spike/airflow_spike.sh [out_dir]
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${1:-$LAB/../test/fixtures/peers/airflow/spike}" && cd "${1:-$LAB/../test/fixtures/peers/airflow/spike}" && pwd)"
RUN="${REPARO_PEERS_RUN:-/tmp/reparo-peers}"
bash "$LAB/lab.sh" down airflow >/dev/null 2>&1 || true
bash "$LAB/lab.sh" receiver stop >/dev/null 2>&1 || true
rm -f "$RUN/receiver/airflow-events.ndjson" "$RUN/receiver/airflow-events.ndjson.requests" "$OUT"/[0-9][0-9]-*.json
bash "$LAB/lab.sh" receiver start "$RUN/receiver/airflow-events.ndjson"
REPARO_URL=http://127.0.0.1:28999 REPARO_TOKEN=lab-token-123 bash "$LAB/lab.sh" up airflow
python3 "$LAB/spike/airflow_spike.py" --out "$OUT"
sleep 5   # DAG-level COMPLETE events are sent by the scheduler after the last task
cp "$RUN/receiver/airflow-events.ndjson" "$OUT/openlineage-events.ndjson"
cp "$RUN/receiver/airflow-events.ndjson.requests" "$OUT/openlineage-requests.ndjson"
bash "$LAB/lab.sh" receiver stop
echo "recordings in $OUT (airflow is still up: bash $LAB/lab.sh down airflow)"
