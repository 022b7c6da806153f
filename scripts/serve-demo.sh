#!/usr/bin/env bash
# Command 1 of the README: install, migrate the embedded SQLite database (./data/reparo.db, or
# DATABASE_URL), load the demo incident, build, and serve the console on http://localhost:3000.
source "$(dirname "$0")/lib.sh"
ensure_node_modules
ensure_prisma_clients
step "migrate"
npx tsx scripts/db-migrate.ts
step "load the demo world"
npx tsx scripts/demo-load.ts
step "build the console"
npx next build
step "serve on http://localhost:${PORT:-3000}"
exec npx next start -p "${PORT:-3000}"
