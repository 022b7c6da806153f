# Shared by scripts/serve-demo.sh and scripts/test-all.sh.
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
export PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# Install exactly what package-lock.json pins, unless node_modules already matches it.
ensure_node_modules() {
  local stamp=node_modules/.reparo-lock-hash want
  want=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  step "npm ci"
  npm ci --no-audit --no-fund
  echo "$want" > "$stamp"
}

ensure_prisma_clients() {
  step "prisma generate (offline)"
  node scripts/prisma-generate.mjs
}

# Debian's Chromium for Playwright: browser downloads are not reachable from these machines.
ensure_chromium() {
  if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then return 0; fi
  step "apt-get install chromium"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
}

# The local PostgreSQL server this machine kind provides (127.0.0.1:5432, trust auth).
# HAProxy (Debian's package) for the three-consoles-behind-a-balancer check.
ensure_haproxy() {
  if command -v haproxy >/dev/null; then return 0; fi
  step "install haproxy (Debian package)"
  if [ "$(id -u)" = 0 ]; then apt-get install -y -q haproxy >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q haproxy >/dev/null; }
  else sudo apt-get install -y -q haproxy >/dev/null; fi
}

ensure_postgres() {
  if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then return 0; fi
  step "start PostgreSQL"
  if command -v pg_ctlcluster >/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && return 0; sleep 1; done
  echo "PostgreSQL is not reachable on 127.0.0.1:5432" >&2
  return 1
}
