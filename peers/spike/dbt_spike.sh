#!/usr/bin/env bash
# Run the dbt spike project with dbt-ol against the lab OpenLineage receiver and record what arrives.
#   bash peers/spike/dbt_spike.sh [out_dir]     (default test/fixtures/peers/dbt/spike)
# 1) dbt-ol run (table + incremental, first build)  2) dbt-ol run again (incremental merge)
# 3) dbt-ol run --vars '{fail: true}' (daily_orders fails: division by zero)
# 4) dbt-ol run --consume-structured-logs (events while dbt runs, one per SQL statement)
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${1:-$LAB/../test/fixtures/peers/dbt/spike}" && cd "${1:-$LAB/../test/fixtures/peers/dbt/spike}" && pwd)"
RUN="${REPARO_PEERS_RUN:-/tmp/reparo-peers}"
bash "$LAB/lab.sh" receiver stop >/dev/null 2>&1 || true
rm -f "$RUN/receiver/dbt-events.ndjson" "$RUN/receiver/dbt-events.ndjson.requests"
bash "$LAB/lab.sh" receiver start "$RUN/receiver/dbt-events.ndjson"
REPARO_URL=http://127.0.0.1:28999 REPARO_TOKEN=lab-dbt-token bash "$LAB/lab.sh" up dbt
# shellcheck disable=SC1091
source "$RUN/dbt/env.sh"
export DBT_PROFILES_DIR="$LAB/dbt/spike_project"   # env.sh points at the lab project's profile
cd "$LAB/dbt/spike_project"
count() { if [[ -f "$RUN/receiver/dbt-events.ndjson" ]]; then wc -l < "$RUN/receiver/dbt-events.ndjson"; else echo 0; fi; }
step() {  # step <name> <args...>
  local name="$1" before t0 rc=0; shift
  before="$(count)"; t0="$(date +%s.%N)"
  dbt-ol "$@" > "$RUN/dbt/$name.log" 2>&1 || rc=$?
  sleep 0.5
  echo "dbt-ol $* -> exit $rc in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s, $(( $(count) - before )) events"
  cp target/run_results.json "$OUT/run_results-$name.json"
  sed -n "$((before + 1)),\$p" "$RUN/receiver/dbt-events.ndjson" > "$OUT/events-$name.ndjson"
}
step 1-first-run run
step 2-incremental-run run
step 3-failing-run run --vars '{fail: true}'
step 4-structured-logs run --consume-structured-logs
cat "$OUT"/events-1-*.ndjson "$OUT"/events-2-*.ndjson "$OUT"/events-3-*.ndjson > "$OUT/openlineage-events.ndjson"
mv "$OUT/events-4-structured-logs.ndjson" "$OUT/openlineage-events-structured-logs.ndjson"
rm -f "$OUT"/events-*.ndjson
cp "$RUN/receiver/dbt-events.ndjson.requests" "$OUT/openlineage-requests.ndjson"
# --consume-structured-logs leaves a dbt-logs-<uuid>/ folder in the working directory
rm -rf target logs dbt-logs-*
bash "$LAB/lab.sh" receiver stop
