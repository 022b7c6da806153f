#!/usr/bin/env bash
# npm run test:peers — the closed loops against the REAL peers of the lab (docs/peers-lab.md):
# builds the console into .next-peers when its sources changed, runs the specs of e2e/peers/ with
# playwright.peers.config.ts (its own console on 127.0.0.1:3300, fresh data/peers.db; each spec
# brings its peer up with peers/lab.sh), always takes its peers down (those of the specs named in
# the arguments, else all three), prints the time of each
# stage and, as its LAST line, one JSON object merging the per-peer results
# (test-results/peers/<peer>.json; a peer without one yet is left out):
#
#   {"airflow": {"version": "3.3.2", "pairsPlanned": 21, "pairsRerun": 21, "extraRerun": 0, "validated": true}, …}
#
# Arguments go to Playwright (e.g. -g "declaration"). REPARO_PEERS_REBUILD=1 builds anyway.
# Exit code: Playwright's.
set -uo pipefail
export NEXT_TELEMETRY_DISABLED=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1

DIST=.next-peers
RESULTS=test-results/peers
PEERS=(airflow dagster dbt)
STAGES=()

now() { date +%s.%N; }
stage_done() {  # stage_done <name> <start>
  local s; s="$(awk -v a="$2" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')"
  STAGES+=("$1 ${s} s")
  printf '[test-peers] %s: %s s\n' "$1" "$s" >&2
}

# The peers whose specs run: those named in the arguments (e2e/peers/<peer>.spec.ts), else all. Only
# they are taken down: a peer someone else has up on this machine (another loop, a walk-through) stays.
RUNNING=()
for a in "$@"; do
  for p in "${PEERS[@]}"; do [[ "$a" == *"$p.spec"* ]] && RUNNING+=("$p"); done
done
[[ ${#RUNNING[@]} -gt 0 ]] || RUNNING=("${PEERS[@]}")

peers_down() {
  local t p; t="$(now)"
  for p in "${RUNNING[@]}"; do bash peers/lab.sh down "$p" >&2 || true; done
  stage_done "peers down" "$t"
}
# Whatever happens (a failed build, Ctrl-C), no peer is left running.
trap 'peers_down' EXIT
trap 'exit 130' INT TERM

T_ALL="$(now)"

# ---------------------------------------------------------------- build (when needed)
needs_build() {
  [[ "${REPARO_PEERS_REBUILD:-0}" == 1 ]] && return 0
  [[ -f "$DIST/BUILD_ID" ]] || return 0
  # Any source the build reads, newer than the last build (tests do not count).
  [[ -n "$(find app components lib prisma public proxy.ts instrumentation.ts next.config.js package-lock.json \
      -type f -newer "$DIST/BUILD_ID" ! -name '*.test.ts' ! -name '*.test.tsx' -print -quit 2>/dev/null)" ]]
}
T="$(now)"
if needs_build; then
  # next build adds its output folder's types to tsconfig.json's "include": this build's folder is
  # for this script only, so the file is put back as it was.
  tsconfig="$(mktemp)"
  cp tsconfig.json "$tsconfig"
  NEXT_DIST_DIR="$DIST" npx next build >&2
  rc_build=$?
  cmp -s tsconfig.json "$tsconfig" || cp "$tsconfig" tsconfig.json
  rm -f "$tsconfig"
  stage_done "build ($DIST)" "$T"
  if [[ $rc_build -ne 0 ]]; then
    echo "[test-peers] next build failed (exit $rc_build)" >&2
    echo "{}"
    exit "$rc_build"
  fi
else
  stage_done "build ($DIST up to date)" "$T"
fi

# ---------------------------------------------------------------- the specs
ARTIFACTS=test-results-peers   # traces, screenshots, command logs, each spec's stage times
mkdir -p "$RESULTS"
for p in "${PEERS[@]}"; do rm -f "$RESULTS/$p.json" "$ARTIFACTS/$p-seconds.json"; done
T="$(now)"
npx playwright test -c playwright.peers.config.ts "$@" >&2
rc=$?
stage_done "playwright (e2e/peers)" "$T"
# Each spec's own stages (peer up, schedule, declarations, repair in the peer, journey).
for p in "${PEERS[@]}"; do
  [[ -f "$ARTIFACTS/$p-seconds.json" ]] || continue
  # shellcheck disable=SC2016 # JavaScript, not shell, in single quotes
  printf '[test-peers]   %s: %s\n' "$p" "$(node -e 'const t = require(process.argv[1]); console.log(Object.entries(t).map(([k, v]) => `${k} ${v} s`).join(", "))' "$ROOT/$ARTIFACTS/$p-seconds.json")" >&2
done

# ---------------------------------------------------------------- down, times, the merged result
trap - EXIT
peers_down
stage_done "total" "$T_ALL"
printf '[test-peers] stages: %s\n' "$(IFS=';'; echo "${STAGES[*]}")" >&2
# shellcheck disable=SC2016 # JavaScript, not shell, in single quotes
node -e '
  const fs = require("fs");
  const out = {};
  for (const peer of process.argv.slice(1)) {
    const file = `test-results/peers/${peer}.json`;
    if (fs.existsSync(file)) Object.assign(out, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  console.log(JSON.stringify(out));
' "${PEERS[@]}"
exit "$rc"
