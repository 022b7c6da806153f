#!/usr/bin/env bash
# Command 2 of the README: install what the tests need and run every test — lint, typecheck,
# unit tests, repository tests on SQLite and on PostgreSQL, the production build, Playwright e2e.
source "$(dirname "$0")/lib.sh"
ensure_node_modules
ensure_prisma_clients
ensure_chromium
ensure_postgres
ensure_haproxy
export REPARO_TEST_PG_URL="${REPARO_TEST_PG_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"

step "schemas in sync with prisma/models.prisma"
node scripts/prisma-schemas.mjs --check
step "migrations reproduce the schemas (prisma migrate diff --exit-code, SQLite and PostgreSQL)"
node scripts/prisma-check-migrations.mjs
step "lint"
npx eslint . --max-warnings=0
step "format (Prettier)"
npx prettier --check . --log-level warn
step "typecheck"
npx next typegen >/dev/null
npx tsc --noEmit
step "unit and component tests"
npx vitest run --project unit --project component
step "repository tests (SQLite and PostgreSQL)"
npx vitest run --project repo
step "production build"
npx next build
step "e2e (Playwright, Debian Chromium)"
npx playwright test
step "three consoles on one PostgreSQL behind HAProxy: no duplicate effect, takeover, one audit chain"
npx tsx bench/instances-bench.ts --check --batches 60 --days 20
