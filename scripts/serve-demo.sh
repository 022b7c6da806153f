#!/usr/bin/env bash
# Command 1 of the README: install, migrate the embedded SQLite database (./data/reparo.db, or
# DATABASE_URL), load the demo incident, build, and serve the console on http://localhost:3000.
source "$(dirname "$0")/lib.sh"
ensure_node_modules
ensure_prisma_clients
# The demo load (database) and the production build (CPU) are independent: run them side by side.
step "migrate and load the demo world, while the console builds"
( npx tsx scripts/db-migrate.ts && npx tsx scripts/demo-load.ts ) > data-load.log 2>&1 &
loader=$!
npx next build
if ! wait "$loader"; then cat data-load.log >&2; exit 1; fi
cat data-load.log && rm -f data-load.log
step "serve on http://localhost:${PORT:-3000}"
# Demo mode: the demo's people are who you are (the commander by default); never in production.
export REPARO_DEMO=1
# Bound to this machine only unless HOST says otherwise (HOST=0.0.0.0 to reach it from elsewhere).
exec npx next start -H "${HOST:-127.0.0.1}" -p "${PORT:-3000}"
