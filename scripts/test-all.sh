#!/usr/bin/env bash
# Command 2 of the README: install what the tests need and run every test — lint, typecheck,
# unit tests, repository tests on SQLite and on PostgreSQL, the production build, Playwright e2e,
# and last the closed loops against the real peers of the lab (npm run test:peers: Airflow and
# dbt, their Python venvs installed from hashed locks, cached outside the clone by lock hash).
# Prints the time of each stage at the end, whether it passed or not.
source "$(dirname "$0")/lib.sh"

STAGE_NAMES=()
STAGE_SECONDS=()
CURRENT=""
T_STAGE=$SECONDS
stage_end() {
  [[ -n "$CURRENT" ]] || return 0
  STAGE_NAMES+=("$CURRENT")
  STAGE_SECONDS+=($((SECONDS - T_STAGE)))
  CURRENT=""
}
stage() {  # stage <name>: the previous stage ends (its time kept), this one starts
  stage_end
  CURRENT="$*"
  T_STAGE=$SECONDS
  step "$@"
}
print_stages() {
  local rc=$? i
  stage_end
  printf '\n== time per stage%s\n' "$([[ $rc -eq 0 ]] || echo " (stopped: exit $rc)")"
  for i in "${!STAGE_NAMES[@]}"; do printf '%6d s  %s\n' "${STAGE_SECONDS[$i]}" "${STAGE_NAMES[$i]}"; done
  printf '%6d s  total\n' "$SECONDS"
}
trap print_stages EXIT

stage "setup: node_modules, Prisma clients, Chromium, PostgreSQL, HAProxy"
ensure_node_modules
ensure_prisma_clients
ensure_chromium
ensure_postgres
ensure_haproxy
export REPARO_TEST_PG_URL="${REPARO_TEST_PG_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"

stage "schemas in sync with prisma/models.prisma"
node scripts/prisma-schemas.mjs --check
stage "migrations reproduce the schemas (prisma migrate diff --exit-code, SQLite and PostgreSQL)"
node scripts/prisma-check-migrations.mjs
stage "lint"
npx eslint . --max-warnings=0
stage "format (Prettier)"
npx prettier --check . --log-level warn
stage "typecheck"
npx next typegen >/dev/null
npx tsc --noEmit
stage "unit and component tests"
npx vitest run --project unit --project component
stage "repository tests (SQLite and PostgreSQL)"
npx vitest run --project repo
stage "production build"
npx next build
stage "e2e (Playwright, Debian Chromium)"
npx playwright test
stage "three consoles on one PostgreSQL behind HAProxy: no duplicate effect, takeover, one audit chain"
npx tsx bench/instances-bench.ts --check --batches 60 --days 20
stage "the peers lab: closed loops against the real Airflow 3.3, Dagster 1.13 and dbt 1.12 (npm run test:peers)"
npm run test:peers
