#!/usr/bin/env bash
# Reparo peers lab: install and run the REAL Airflow 3.3, Dagster 1.13 and dbt 1.12 on this machine.
#
#   bash peers/lab.sh install <airflow|dagster|dbt>   venv from <peer>/requirements.lock (--require-hashes),
#                                                     cached outside the clone, keyed by the lock's sha256
#   bash peers/lab.sh up <airflow|dagster|dbt>        install if needed, fresh PostgreSQL database, start
#                                                     headless on 127.0.0.1, wait until it answers
#   bash peers/lab.sh down [peer]                     stop by process group (TERM, then KILL stragglers)
#   bash peers/lab.sh status                          what runs, on which port, pids, RSS
#   bash peers/lab.sh env <peer>                      print the env file to `source` (CLI use)
#   bash peers/lab.sh lock <peer>                     re-resolve requirements.in -> requirements.lock (uv)
#   bash peers/lab.sh receiver start [out] | stop     OpenLineage receiver on 127.0.0.1:28999 (stdlib)
#
# The lab pipelines (airflow/dags/lab_orders.py, dagster/lab_orders.py, dbt/lab_project; docs/peers-lab.md):
#   bash peers/lab.sh warehouse [peer]                fresh database reparo_lab_warehouse (all schemas), or
#                                                     only <peer>_lab (created if missing) + its control rows
#   bash peers/lab.sh control <peer> seed|clear|list|set <task> <day> <half|clean>|unset <task> <day>
#   bash peers/lab.sh schedule <peer> [first] [last]  run the days (default 2026-08-01..31) on a peer that is
#                                                     up, wait, print states + wall time + memory peak
#   bash peers/lab.sh record <peer> [first] [last]    receiver + fresh peer + warehouse + control rows +
#                                                     schedule, save to test/fixtures/peers/<peer>/, stop
#                                                     (dagster: default 2026-08-26..31, the closed loop's days)
#   bash peers/lab.sh record-adapter dagster          fresh Dagster + the loop's days, then Reparo's own adapter
#                                                     repairs two days and meets refusals; each request and
#                                                     Dagster's answer saved to test/fixtures/peers/dagster/adapter/
#                                                     (peers/record-dagster-exchanges.ts), stop
#   (REPARO_AIRFLOW_SCHEDULE_MODE=runs|backfill, REPARO_DBT_OL_MODE=structured-logs|artifacts,
#    REPARO_LAB_FIXTURES=<dir> instead of test/fixtures/peers)
#
# Environment (all optional):
#   REPARO_PEERS_CACHE  venv cache           (default ~/.cache/reparo-peers)
#   REPARO_PEERS_RUN    run folders, logs    (default /tmp/reparo-peers)
#   REPARO_PEERS_PYTHON python for the venvs (default python3; 3.11 is what the locks were made for)
#   REPARO_PG_HOST/REPARO_PG_PORT/REPARO_PG_USER  PostgreSQL with trust auth (127.0.0.1/5432/postgres)
#   REPARO_URL, REPARO_TOKEN   when set, Airflow's OpenLineage provider sends events to
#                              $REPARO_URL/api/v1/lineage with `Authorization: Bearer $REPARO_TOKEN`
#                              (and dbt's env.sh exports OPENLINEAGE_URL / OPENLINEAGE_API_KEY from them)
#   REPARO_AIRFLOW_PASSWORD    lab password of the Airflow user `reparo` (default reparo-lab)
#   REPARO_AIRFLOW_PARALLELISM LocalExecutor parallelism (default 2)
#   REPARO_PEERS_UP_TIMEOUT    seconds to wait for a peer to answer (default 240)
#   REPARO_DAGSTER_DAEMON_INTERVAL  seconds the lab's backfill daemon sleeps between iterations (default 1;
#                              Dagster's own is a hard-coded 30: dagster/lab_daemon.py, docs/peers-lab.md)
#   REPARO_DAGSTER_SCHEDULE_MODE `schedule dagster`: in-process (default: one run per day, in day order, in one
#                              process: dagster/lab_schedule.py) | runs (the same runs launched through the
#                              instance's queue and run launcher) | backfill (one backfill of the whole graph)
#   REPARO_AIRFLOW_SETTLE      `schedule airflow`: seconds without any change before the days that wait on
#                              depends_on_past behind a failed day count as done (default 30)
# All secrets here are throwaway lab values. See docs/peers-lab.md for what was measured.
set -euo pipefail

LAB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${REPARO_PEERS_CACHE:-$HOME/.cache/reparo-peers}"
RUN="${REPARO_PEERS_RUN:-/tmp/reparo-peers}"
PYTHON="${REPARO_PEERS_PYTHON:-python3}"
PG_HOST="${REPARO_PG_HOST:-127.0.0.1}"
PG_PORT="${REPARO_PG_PORT:-5432}"
PG_USER="${REPARO_PG_USER:-postgres}"
UP_TIMEOUT="${REPARO_PEERS_UP_TIMEOUT:-240}"
AIRFLOW_PORT=28080
DAGSTER_PORT=23070
AIRFLOW_USER=reparo
AIRFLOW_PASSWORD="${REPARO_AIRFLOW_PASSWORD:-reparo-lab}"
# One secret shared by api-server, scheduler and dag-processor (lab value, not a real secret).
AIRFLOW_JWT_SECRET="reparo-lab-jwt-secret-not-for-production-0123456789-0123456789-0123456789"
PEERS=(airflow dagster dbt)

log() { printf '[lab] %s\n' "$*" >&2; }
die() { printf '[lab] error: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

check_peer() {
  case "${1:-}" in airflow|dagster|dbt) ;; *) die "unknown peer '${1:-}' (airflow|dagster|dbt)";; esac
}

lock_file() { echo "$LAB_DIR/$1/requirements.lock"; }

venv_dir() {
  local sum
  sum="$(sha256sum "$(lock_file "$1")" | cut -c1-16)"
  echo "$CACHE/$1-$sum"
}

# ---------------------------------------------------------------- install
cmd_install() {
  local peer="$1" venv stamp t0 pyver
  check_peer "$peer"
  venv="$(venv_dir "$peer")"
  stamp="$venv/.reparo-complete"
  pyver="$("$PYTHON" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
  t0="$(now)"
  mkdir -p "$CACHE"
  # One install at a time per venv (two `up`s in parallel must not build the same venv twice).
  exec 9>"$venv.lock"
  flock 9
  if [[ -f "$stamp" ]] && grep -qx "python=$pyver" "$stamp"; then
    log "$peer: cached venv $venv (${pyver}) - $(since "$t0") s"
    flock -u 9
    return 0
  fi
  [[ "$pyver" == 3.11.* ]] || log "warning: the locks were resolved for Python 3.11, this is $pyver"
  log "$peer: installing into $venv (python $pyver) from $(lock_file "$peer")"
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --require-hashes --no-deps --only-binary=:all: \
      -r "$(lock_file "$peer")"
  # dbt-core-experimental-parser is left out of the dbt lock on purpose (see dbt/requirements.in).
  local broken
  broken="$("$venv/bin/python" -m pip check 2>&1 | grep -v -e '^No broken requirements' \
      -e 'requires dbt-core-experimental-parser, which is not installed' || true)"
  [[ -z "$broken" ]] || die "$peer: pip check failed in $venv: $broken"
  # The stamp is written last: a venv without it is incomplete and gets rebuilt.
  { echo "python=$pyver"; echo "lock=$(sha256sum "$(lock_file "$peer")" | cut -d' ' -f1)";
    echo "installed=$(date -u +%FT%TZ)"; } > "$stamp"
  log "$peer: installed in $(since "$t0") s ($(du -sh "$venv" | cut -f1))"
  flock -u 9
}

cmd_lock() {
  local peer="$1" tools="$CACHE/tools"
  check_peer "$peer"
  if [[ ! -x "$tools/bin/uv" ]]; then
    "$PYTHON" -m venv "$tools"
    "$tools/bin/pip" install --quiet uv
  fi
  local extra=()
  [[ "$peer" == dbt ]] && extra=(--no-emit-package dbt-core-experimental-parser)
  "$tools/bin/uv" pip compile --generate-hashes --python-version 3.11 \
      --python-platform x86_64-manylinux_2_28 --index-url https://pypi.org/simple --no-config \
      --no-header "${extra[@]}" -o "$LAB_DIR/$peer/requirements.lock" "$LAB_DIR/$peer/requirements.in"
}

# ---------------------------------------------------------------- processes
pg() { "$@" -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER"; }

fresh_db() {
  local db="$1"
  pg dropdb --if-exists --force "$db"
  pg createdb "$db"
  log "database $db created fresh on $PG_HOST:$PG_PORT"
}

# start <peer> <name> <command...>: own session/process group, pid file, log file.
start_proc() {
  local peer="$1" name="$2"; shift 2
  local dir="$RUN/$peer"
  mkdir -p "$dir/pids" "$dir/logs"
  setsid "$@" >"$dir/logs/$name.log" 2>&1 < /dev/null &
  local pid=$!
  echo "$pid" > "$dir/pids/$name.pid"
  log "$peer: started $name (pid $pid, log $dir/logs/$name.log)"
}

alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

peer_running() {
  local f pid
  for f in "$RUN/$1"/pids/*.pid; do
    [[ -f "$f" ]] || continue
    pid="$(cat "$f")"
    alive "$pid" && return 0
  done
  return 1
}

# Every pid in process group $1 (setsid makes the started pid the group leader).
group_pids() { ps -eo pid=,pgid= | awk -v g="$1" '$2 == g { print $1 }'; }

# Every pid in the process groups $@ plus all their descendants: Airflow's task supervisor puts each task
# process in a process group of its own (os.setpgid(0, 0)), so a group kill alone would miss running tasks.
tree_pids() {
  ps -eo pid=,ppid=,pgid= | awk -v groups="$*" '
    BEGIN { n = split(groups, g, " "); for (i = 1; i <= n; i++) G[g[i]] = 1 }
    { parent[$1] = $2; pgid[$1] = $3; pids[NR] = $1 }
    END {
      for (i in pids) if (pgid[pids[i]] in G) keep[pids[i]] = 1
      changed = 1
      while (changed) { changed = 0
        for (i in pids) { p = pids[i]; if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; changed = 1 } } }
      for (p in keep) print p
    }'
}

port_pids() {
  ss -ltnpH "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u
}

cmd_down_one() {
  local peer="$1" dir="$RUN/$1" f pid pgids=() g port
  [[ -n "$(ls "$dir"/pids/*.pid 2>/dev/null)" ]] || { log "$peer: nothing to stop"; return 0; }
  for f in "$dir"/pids/*.pid; do
    [[ -f "$f" ]] || continue
    pgids+=("$(cat "$f")")
  done
  # Snapshot of the whole tree before the stop: the group leaders plus every descendant.
  local tree left_pids
  tree="$(tree_pids "${pgids[@]}" | tr '\n' ' ')"
  for g in "${pgids[@]}"; do
    kill -TERM -- "-$g" 2>/dev/null || kill -TERM "$g" 2>/dev/null || true
  done
  for _ in $(seq 1 60); do   # up to 30 s for a clean stop
    left_pids=""
    for pid in $tree; do alive "$pid" && left_pids+="$pid "; done
    [[ -z "$left_pids" ]] && break
    sleep 0.5
  done
  if [[ -n "$left_pids" ]]; then
    log "$peer: still running after 30 s, SIGKILL: $left_pids"
    for g in "${pgids[@]}"; do kill -KILL -- "-$g" 2>/dev/null || true; done
    for pid in $left_pids; do kill -KILL "$pid" 2>/dev/null || true; done
  fi
  # Stragglers that left the group but still hold the peer's port (only processes we started run there).
  case "$peer" in airflow) port=$AIRFLOW_PORT;; dagster) port=$DAGSTER_PORT;; receiver) port=28999;; *) port="";; esac
  if [[ -n "$port" ]]; then
    for pid in $(port_pids "$port"); do
      log "$peer: straggler pid $pid still listens on :$port, SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    done
  fi
  rm -f "$dir"/pids/*.pid
  log "$peer: stopped"
}

cmd_down() {
  if [[ -n "${1:-}" ]]; then check_peer "$1"; cmd_down_one "$1"; return; fi
  local p; for p in "${PEERS[@]}" receiver; do cmd_down_one "$p"; done
}

rss_of_peer() {   # "<processes> <RSS MiB> <PSS MiB>" summed over the peer's process trees
  local f pids=() pid kb_r=0 kb_p=0 n=0 r p
  for f in "$RUN/$1"/pids/*.pid; do [[ -f "$f" ]] && pids+=("$(cat "$f")"); done
  [[ ${#pids[@]} -gt 0 ]] || { echo "0 0 0"; return; }
  for pid in $(tree_pids "${pids[@]}"); do
    read -r r p < <(awk '/^Rss:/ { r = $2 } /^Pss:/ { p = $2 } END { print r + 0, p + 0 }' \
      "/proc/$pid/smaps_rollup" 2>/dev/null || echo "0 0")
    kb_r=$((kb_r + r)); kb_p=$((kb_p + p)); n=$((n + 1))
  done
  echo "$n $((kb_r / 1024)) $((kb_p / 1024))"
}

cmd_status() {
  local p f pid name n
  for p in "${PEERS[@]}" receiver; do
    if [[ "$p" == receiver ]]; then peer_running receiver && echo "receiver: up  port 28999"; continue; fi
    if [[ "$p" == dbt ]]; then
      if [[ -f "$(venv_dir dbt)/.reparo-complete" ]]; then echo "dbt: installed (no server) $(venv_dir dbt)"
      else echo "dbt: not installed"; fi
      continue
    fi
    if ! peer_running "$p"; then echo "$p: down"; continue; fi
    local mem; read -r -a mem < <(rss_of_peer "$p")
    echo "$p: up  port $([[ $p == airflow ]] && echo $AIRFLOW_PORT || echo $DAGSTER_PORT)  ${mem[0]} processes  RSS ${mem[1]} MiB  PSS ${mem[2]} MiB  run $RUN/$p"
    for f in "$RUN/$p"/pids/*.pid; do
      name="$(basename "$f" .pid)"; pid="$(cat "$f")"
      n="$(group_pids "$pid" | wc -l)"
      if alive "$pid"; then echo "  $name pid $pid ($n processes in group)"; else echo "  $name pid $pid DEAD"; fi
    done
  done
}

wait_until() {  # wait_until <peer> <description> <probe function>
  local peer="$1" what="$2" probe="$3" t0 f
  t0="$(now)"
  while ! "$probe" >/dev/null 2>&1; do
    for f in "$RUN/$peer"/pids/*.pid; do
      alive "$(cat "$f")" || { log "$peer: $(basename "$f" .pid) died; last log lines:";
        tail -n 30 "$RUN/$peer/logs/$(basename "$f" .pid).log" >&2; return 1; }
    done
    if awk -v a="$t0" -v b="$(now)" -v m="$UP_TIMEOUT" 'BEGIN { exit !(b - a > m) }'; then
      log "$peer: $what did not answer within $UP_TIMEOUT s"; return 1
    fi
    sleep 0.5
  done
}

# ---------------------------------------------------------------- airflow
airflow_env_file() {
  local dir="$RUN/airflow" venv transport=""
  venv="$(venv_dir airflow)"
  mkdir -p "$dir/home"
  printf '{"%s": "%s"}\n' "$AIRFLOW_USER" "$AIRFLOW_PASSWORD" > "$dir/home/passwords.json"
  if [[ -n "${REPARO_URL:-}" ]]; then
    transport="{\"type\": \"http\", \"url\": \"${REPARO_URL%/}\", \"endpoint\": \"api/v1/lineage\""
    if [[ -n "${REPARO_TOKEN:-}" ]]; then
      transport+=", \"auth\": {\"type\": \"api_key\", \"apiKey\": \"$REPARO_TOKEN\"}"
    fi
    transport+="}"
  fi
  cat > "$dir/env.sh" <<EOF
# generated by peers/lab.sh - source it to use the airflow CLI against the lab instance
export PATH="$venv/bin:\$PATH"
export AIRFLOW_HOME="$dir/home"
export AIRFLOW__CORE__DAGS_FOLDER="$LAB_DIR/airflow/dags"
export AIRFLOW__CORE__LOAD_EXAMPLES=False
export AIRFLOW__CORE__EXECUTOR=LocalExecutor
export AIRFLOW__DATABASE__SQL_ALCHEMY_CONN="postgresql+psycopg2://$PG_USER@$PG_HOST:$PG_PORT/reparo_lab_airflow"
export AIRFLOW__CORE__AUTH_MANAGER=airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager
export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS="$AIRFLOW_USER:admin"
export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE="$dir/home/passwords.json"
export AIRFLOW__API_AUTH__JWT_SECRET="$AIRFLOW_JWT_SECRET"
export AIRFLOW__API__HOST=127.0.0.1
export AIRFLOW__API__PORT=$AIRFLOW_PORT
export AIRFLOW__API__BASE_URL="http://127.0.0.1:$AIRFLOW_PORT/"
export AIRFLOW__CORE__EXECUTION_API_SERVER_URL="http://127.0.0.1:$AIRFLOW_PORT/execution/"
export AIRFLOW__CORE__PARALLELISM=${REPARO_AIRFLOW_PARALLELISM:-2}
export AIRFLOW__CORE__FERNET_KEY="rJ7x0fH1o9r8bH3bXQ2v0yqkq3y4k8m5i6Tq7r2s1uE="
export AIRFLOW__SCHEDULER__ENABLE_HEALTH_CHECK=False
export AIRFLOW__DAG_PROCESSOR__REFRESH_INTERVAL=5
export AIRFLOW__LOGGING__BASE_LOG_FOLDER="$dir/home/logs"
export AIRFLOW_CONN_REPARO_LAB_PG="postgres://$PG_USER@$PG_HOST:$PG_PORT/reparo_lab_airflow"
# the lab pipeline lab_orders (dags/lab_orders.py) writes to the shared lab warehouse, schema airflow_lab
export AIRFLOW_CONN_LAB_WAREHOUSE="postgres://$PG_USER@$PG_HOST:$PG_PORT/reparo_lab_warehouse"
export AIRFLOW__OPENLINEAGE__NAMESPACE="\${AIRFLOW__OPENLINEAGE__NAMESPACE:-airflow-lab}"
EOF
  if [[ -n "$transport" ]]; then
    printf "export AIRFLOW__OPENLINEAGE__TRANSPORT='%s'\nexport AIRFLOW__OPENLINEAGE__DISABLED=False\n" "$transport" >> "$dir/env.sh"
  else
    printf 'export AIRFLOW__OPENLINEAGE__DISABLED=True\n' >> "$dir/env.sh"
  fi
}

airflow_token() {
  curl -fsS -m 5 -X POST "http://127.0.0.1:$AIRFLOW_PORT/auth/token" -H 'Content-Type: application/json' \
    -d "{\"username\": \"$AIRFLOW_USER\", \"password\": \"$AIRFLOW_PASSWORD\"}" \
    | "$PYTHON" -c 'import json, sys; print(json.load(sys.stdin)["access_token"])'
}

airflow_probe() {
  local tok
  tok="$(airflow_token)" && [[ -n "$tok" ]] &&
    curl -fsS -m 5 -H "Authorization: Bearer $tok" "http://127.0.0.1:$AIRFLOW_PORT/api/v2/version"
}

up_airflow() {
  local dir="$RUN/airflow" t0 t1
  t0="$(now)"
  cmd_install airflow
  if peer_running airflow; then log "airflow: already up (bash $0 down airflow first)"; return 0; fi
  rm -rf "$dir"; mkdir -p "$dir/logs" "$dir/pids"
  fresh_db reparo_lab_airflow
  airflow_env_file
  # shellcheck disable=SC1091
  source "$dir/env.sh"
  t1="$(now)"
  airflow db migrate > "$dir/logs/db-migrate.log" 2>&1 || { tail -n 40 "$dir/logs/db-migrate.log" >&2; die "airflow db migrate failed"; }
  log "airflow: db migrate on a fresh database took $(since "$t1") s"
  start_proc airflow api-server airflow api-server --host 127.0.0.1 --port "$AIRFLOW_PORT" --workers 1
  # --skip-serve-logs: the log server binds 0.0.0.0:8793 and has no host option; the api-server reads
  # the task logs from the shared local folder anyway.
  start_proc airflow scheduler airflow scheduler --skip-serve-logs
  start_proc airflow dag-processor airflow dag-processor
  wait_until airflow "POST /auth/token + GET /api/v2/version" airflow_probe || die "airflow did not come up"
  log "airflow: answers on http://127.0.0.1:$AIRFLOW_PORT $(airflow_probe 2>/dev/null | tr -d '\n')"
  log "airflow: up in $(since "$t0") s (user $AIRFLOW_USER / $AIRFLOW_PASSWORD; env: source $dir/env.sh)"
}

# ---------------------------------------------------------------- dagster
dagster_env_file() {
  local dir="$RUN/dagster" venv
  venv="$(venv_dir dagster)"
  mkdir -p "$dir/home"
  cat > "$dir/home/dagster.yaml" <<EOF
# generated by peers/lab.sh
storage:
  postgres:
    # +psycopg2: SQLAlchemy 2.1 made psycopg (v3) the default driver of postgresql://, dagster-postgres
    # installs psycopg2 only -> "ModuleNotFoundError: No module named 'psycopg'" without it.
    postgres_url: "postgresql+psycopg2://$PG_USER@$PG_HOST:$PG_PORT/reparo_lab_dagster"
run_coordinator:
  module: dagster._core.run_coordinator
  class: QueuedRunCoordinator
  config:
    max_concurrent_runs: 2
    # Dagster's default is 5 s; the lab's runs are seconds long.
    dequeue_interval_seconds: 1
telemetry:
  enabled: false
nux:
  enabled: false
EOF
  cat > "$dir/env.sh" <<EOF
# generated by peers/lab.sh - source it to use the dagster CLI against the lab instance
export PATH="$venv/bin:\$PATH"
export DAGSTER_HOME="$dir/home"
export DAGSTER_DISABLE_TELEMETRY=1
export REPARO_DAGSTER_WORKSPACE="${REPARO_DAGSTER_WORKSPACE:-$LAB_DIR/dagster/workspace.yaml}"
# the spike asset daily_orders fails for the partitions listed in this file (see dagster/spike_defs.py)
export REPARO_DAGSTER_FAIL_MARKER="$dir/fail-partitions"
# the lab pipeline (dagster/lab_orders.py) writes to the shared lab warehouse, schema dagster_lab
export REPARO_LAB_WAREHOUSE_DSN="host=$PG_HOST port=$PG_PORT user=$PG_USER dbname=reparo_lab_warehouse"
EOF
}

dagster_probe() {
  curl -fsS -m 5 -X POST "http://127.0.0.1:$DAGSTER_PORT/graphql" -H 'Content-Type: application/json' \
    -d '{"query": "{ version }"}' | grep -q '"version"'
}

up_dagster() {
  local dir="$RUN/dagster" t0
  t0="$(now)"
  cmd_install dagster
  if peer_running dagster; then log "dagster: already up (bash $0 down dagster first)"; return 0; fi
  rm -rf "$dir"; mkdir -p "$dir/logs" "$dir/pids"
  fresh_db reparo_lab_dagster
  dagster_env_file
  # shellcheck disable=SC1091
  source "$dir/env.sh"
  start_proc dagster webserver dagster-webserver -h 127.0.0.1 -p "$DAGSTER_PORT" -w "$REPARO_DAGSTER_WORKSPACE"
  # Dagster's own daemon with the backfill daemon's 30-s sleep shortened: the lab's acceleration (lab_daemon.py).
  log "dagster: backfill daemon interval ${REPARO_DAGSTER_DAEMON_INTERVAL:-1} s (Dagster's default: 30 s)"
  start_proc dagster daemon env REPARO_DAGSTER_DAEMON_INTERVAL="${REPARO_DAGSTER_DAEMON_INTERVAL:-1}" \
    python "$LAB_DIR/dagster/lab_daemon.py" run -w "$REPARO_DAGSTER_WORKSPACE"
  wait_until dagster "GraphQL { version }" dagster_probe || die "dagster did not come up"
  log "dagster: answers on http://127.0.0.1:$DAGSTER_PORT/graphql $(curl -sS -X POST "http://127.0.0.1:$DAGSTER_PORT/graphql" -H 'Content-Type: application/json' -d '{"query": "{ version }"}')"
  log "dagster: up in $(since "$t0") s (env: source $dir/env.sh)"
}

# ---------------------------------------------------------------- dbt
dbt_env_file() {
  local dir="$RUN/dbt" venv
  venv="$(venv_dir dbt)"
  mkdir -p "$dir"
  cat > "$dir/env.sh" <<EOF
# generated by peers/lab.sh - source it, then: cd peers/dbt/lab_project && dbt-ol build --consume-structured-logs
export PATH="$venv/bin:\$PATH"
export DBT_PROFILES_DIR="$LAB_DIR/dbt/lab_project"
export REPARO_LAB_PG_HOST="$PG_HOST" REPARO_LAB_PG_PORT="$PG_PORT" REPARO_LAB_PG_USER="$PG_USER"
export DBT_SEND_ANONYMOUS_USAGE_STATS=False
export OPENLINEAGE_NAMESPACE="\${OPENLINEAGE_NAMESPACE:-dbt-lab}"
EOF
  if [[ -n "${REPARO_URL:-}" ]]; then
    echo "export OPENLINEAGE_URL=\"${REPARO_URL%/}\"" >> "$dir/env.sh"
    echo 'export OPENLINEAGE_ENDPOINT="api/v1/lineage"' >> "$dir/env.sh"
    [[ -n "${REPARO_TOKEN:-}" ]] && echo "export OPENLINEAGE_API_KEY=\"$REPARO_TOKEN\"" >> "$dir/env.sh"
  fi
  return 0
}

up_dbt() {
  local t0; t0="$(now)"
  cmd_install dbt
  fresh_db reparo_lab_dbt
  dbt_env_file
  # shellcheck disable=SC1091
  source "$RUN/dbt/env.sh"
  dbt --version >&2
  # dbt-ol passes --version to dbt, then reads the project's artifacts: outside a dbt project it dies with
  # "FileNotFoundError: ... './dbt_project.yml'", so run it inside the spike project.
  (cd "$LAB_DIR/dbt/spike_project" && dbt-ol --version 2>&1 | grep -E 'wrapper version') >&2 \
    || die "dbt-ol does not start"
  log "dbt: ready in $(since "$t0") s (no server; env: source $RUN/dbt/env.sh)"
}

# ---------------------------------------------------------------- OpenLineage receiver
# receiver start [out.ndjson]: a stdlib HTTP server on 127.0.0.1:28999 appending each POSTed event.
cmd_receiver() {
  local action="${1:-}" out="${2:-$RUN/receiver/events.ndjson}"
  case "$action" in
    start)
      if peer_running receiver; then log "receiver: already up"; return 0; fi
      mkdir -p "$RUN/receiver" "$(dirname "$out")"
      start_proc receiver receiver "$PYTHON" "$LAB_DIR/spike/ol_receiver.py" "$out" --port 28999
      local _; for _ in $(seq 1 40); do curl -fsS -m 1 http://127.0.0.1:28999/ >/dev/null 2>&1 && break; sleep 0.25; done
      log "receiver: http://127.0.0.1:28999 -> $out (use REPARO_URL=http://127.0.0.1:28999)" ;;
    stop) cmd_down_one receiver ;;
    *) die "receiver start [out.ndjson] | receiver stop" ;;
  esac
}

# ---------------------------------------------------------------- lab warehouse + pipelines
# The lab pipelines (airflow/dags/lab_orders.py, dagster/lab_orders.py, dbt/lab_project) all write to ONE
# database, one schema per peer: airflow_lab, dagster_lab, dbt_lab; public.lab_control drives the failures.
WAREHOUSE_DB=reparo_lab_warehouse
FIRST_DAY=2026-08-01
LAST_DAY=2026-08-31
DAGSTER_FIRST_DAY=2026-08-26
DAGSTER_HALF_DAY=2026-08-29
DAGSTER_CLEAN_DAY=2026-08-30

psql_wh() { PGOPTIONS="-c client_min_messages=warning" pg psql -X -q -v ON_ERROR_STOP=1 -d "$WAREHOUSE_DB" "$@"; }

warehouse_exists() {
  [[ "$(pg psql -X -tA -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$WAREHOUSE_DB'")" == 1 ]]
}

warehouse_schema() {  # (re)create one peer's schema, empty, and forget its control rows
  local peer="$1"
  case "$peer" in
    airflow|dagster) psql_wh -v schema="${peer}_lab" -f "$LAB_DIR/warehouse/peer_tables.sql" ;;
    dbt) psql_wh -c 'DROP SCHEMA IF EXISTS dbt_lab CASCADE; CREATE SCHEMA dbt_lab;' ;;
  esac
  psql_wh -c "DELETE FROM public.lab_control WHERE peer = '$peer'"
}

# warehouse          drop + create reparo_lab_warehouse with every peer's schema
# warehouse <peer>   create the database if missing, then drop + create only that peer's schema
cmd_warehouse() {
  local p
  if [[ -z "${1:-}" ]]; then
    fresh_db "$WAREHOUSE_DB"
    psql_wh -f "$LAB_DIR/warehouse/base.sql"
    for p in "${PEERS[@]}"; do warehouse_schema "$p"; done
    log "warehouse: $WAREHOUSE_DB with schemas airflow_lab, dagster_lab, dbt_lab (empty) + public.lab_control"
    return
  fi
  check_peer "$1"
  warehouse_exists || { pg createdb "$WAREHOUSE_DB"; log "database $WAREHOUSE_DB created"; }
  psql_wh -f "$LAB_DIR/warehouse/base.sql"
  warehouse_schema "$1"
  log "warehouse: schema ${1}_lab of $WAREHOUSE_DB recreated empty, control rows of '$1' cleared"
}

# The failures of the recorded month. Airflow and Dagster: stg_orders 2026-08-17 half, 2026-08-23 clean.
# dbt: the same days on revenue_daily (the microbatch model). dbt runs stg_orders ONCE for the whole range,
# in one statement: a failing day there fails the whole model (and skips everything downstream for all days).
default_control_rows() {
  case "$1" in
    airflow) printf '%s\n' "stg_orders 2026-08-17 half" "stg_orders 2026-08-23 clean" ;;
    # Dagster's days are the closed loop's (e2e/peers/dagster.spec.ts): a backfill advances running_balance
    # one partition per daemon iteration, so the month would take a quarter of an hour.
    dagster) printf '%s\n' "stg_orders $DAGSTER_HALF_DAY half" "stg_orders $DAGSTER_CLEAN_DAY clean" ;;
    dbt) printf '%s\n' "revenue_daily 2026-08-17 clean" "revenue_daily 2026-08-23 clean" ;;
  esac
}

# control <peer> seed | clear | list | set <task> <day> <half|clean> | unset <task> <day>
cmd_control() {
  local peer="${1:-}" action="${2:-list}" task day mode
  check_peer "$peer"
  case "$action" in
    seed)
      psql_wh -c "DELETE FROM public.lab_control WHERE peer = '$peer'"
      while read -r task day mode; do
        psql_wh -c "INSERT INTO public.lab_control VALUES ('$peer', '$task', '$day', '$mode')"
      done < <(default_control_rows "$peer") ;;
    clear) psql_wh -c "DELETE FROM public.lab_control WHERE peer = '$peer'" ;;
    set)
      [[ $# -eq 5 ]] || die "control <peer> set <task> <day> <half|clean>"
      psql_wh -c "INSERT INTO public.lab_control VALUES ('$peer', '$3', '$4', '$5')
                  ON CONFLICT (peer, task, day) DO UPDATE SET mode = EXCLUDED.mode" ;;
    unset)
      [[ $# -eq 4 ]] || die "control <peer> unset <task> <day>"
      psql_wh -c "DELETE FROM public.lab_control WHERE peer = '$peer' AND task = '$3' AND day = '$4'" ;;
    list) ;;
    *) die "control <peer> seed|clear|list|set <task> <day> <mode>|unset <task> <day>" ;;
  esac
  psql_wh -c "SELECT * FROM public.lab_control WHERE peer = '$peer' ORDER BY day, task" >&2
}

# Memory sampler: every second, the peer's process trees (servers + tasks) -> "max processes, max RSS, max PSS".
mem_sampler_start() {  # mem_sampler_start <peer> <out file>
  local peer="$1" out="$2"
  echo "0 0 0" > "$out"
  (
    mp=0 mr=0 mpss=0
    while true; do
      read -r n r p < <(rss_of_peer "$peer")
      (( n > mp )) && mp=$n; (( r > mr )) && mr=$r; (( p > mpss )) && mpss=$p
      echo "$mp $mr $mpss" > "$out.tmp" && mv "$out.tmp" "$out"
      sleep 1
    done
  ) >/dev/null 2>&1 &   # own stdout: $(mem_sampler_start ...) must not wait for the loop
  echo $!
}

# schedule <peer> [first] [last]: run the lab pipeline over the days and wait for it (peer up).
cmd_schedule() {
  local peer="${1:-}" first="${2:-$FIRST_DAY}" last="${3:-$LAST_DAY}" t0 sampler mem rc=0
  check_peer "$peer"
  if [[ "$peer" != dbt ]] && ! { warehouse_exists &&
      [[ "$(psql_wh -tA -c "SELECT to_regclass('${peer}_lab.stg_orders') IS NOT NULL")" == t ]]; }; then
    die "no schema ${peer}_lab in $WAREHOUSE_DB (bash $0 warehouse $peer; then bash $0 control $peer seed)"
  fi
  t0="$(now)"
  case "$peer" in
    airflow)
      peer_running airflow || die "airflow is down (bash $0 up airflow)"
      sampler="$(mem_sampler_start airflow "$RUN/airflow/mem-peak")"
      "$PYTHON" "$LAB_DIR/drivers/airflow_month.py" --first "$first" --last "$last" \
        --mode "${REPARO_AIRFLOW_SCHEDULE_MODE:-runs}" --settle "${REPARO_AIRFLOW_SETTLE:-30}" \
        --user "$AIRFLOW_USER" --password "$AIRFLOW_PASSWORD" || rc=$?
      kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
      read -r -a mem < "$RUN/airflow/mem-peak"
      log "airflow: memory peak during the schedule: ${mem[0]} processes, RSS ${mem[1]} MiB, PSS ${mem[2]} MiB" ;;
    dagster)
      peer_running dagster || die "dagster is down (bash $0 up dagster)"
      sampler="$(mem_sampler_start dagster "$RUN/dagster/mem-peak")"
      if [[ "${REPARO_DAGSTER_SCHEDULE_MODE:-in-process}" == in-process ]]; then
        # shellcheck disable=SC1091
        ( source "$RUN/dagster/env.sh" && python "$LAB_DIR/dagster/lab_schedule.py" "$first" "$last" ) \
          > "$RUN/dagster/lab-schedule.log" 2>&1 || rc=$?
        grep '^\[dagster\]' "$RUN/dagster/lab-schedule.log" >&2 || true
      else
        "$PYTHON" "$LAB_DIR/drivers/dagster_month.py" --first "$first" --last "$last" \
          --mode "$REPARO_DAGSTER_SCHEDULE_MODE" --id-file "$RUN/dagster/lab-backfill-id" || rc=$?
      fi
      kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
      read -r -a mem < "$RUN/dagster/mem-peak"
      log "dagster: memory peak during the schedule: ${mem[0]} processes, RSS ${mem[1]} MiB, PSS ${mem[2]} MiB" ;;
    dbt)
      [[ -f "$RUN/dbt/env.sh" ]] || die "dbt is not set up (bash $0 up dbt)"
      schedule_dbt "$first" "$last" || rc=$? ;;
  esac
  log "$peer: schedule $first..$last took $(since "$t0") s (exit $rc)"
  return 0
}

schedule_dbt() {
  local first="$1" last="$2" end rc=0
  end="$(date -u -d "$last + 1 day" +%F)"   # --event-time-end is exclusive
  (
    # shellcheck disable=SC1091
    source "$RUN/dbt/env.sh"
    export DBT_PROFILES_DIR="$LAB_DIR/dbt/lab_project"
    cd "$LAB_DIR/dbt/lab_project"
    rm -rf target logs
    # No --full-refresh: on a fresh schema (lab.sh warehouse dbt) every model is a first build anyway, and a
    # full refresh of the microbatch model would ignore nothing but rebuild from `begin`.
    # REPARO_DBT_OL_MODE=structured-logs (default): dbt-ol --consume-structured-logs sends events while dbt
    # runs. =artifacts: dbt-ol's default mode (events from run_results.json after dbt exits), which sends
    # NOTHING for a run with a microbatch partial success (openlineage-dbt 1.54.0: "ValueError: Run status
    # was partial success, should be in ['success', 'skipped', 'error']").
    local ol=(--consume-structured-logs)
    [[ "${REPARO_DBT_OL_MODE:-structured-logs}" == artifacts ]] && ol=()
    /usr/bin/time -f '%e s wall, max RSS %M KiB (largest process)' -o "$RUN/dbt/time-build.txt" \
      dbt-ol build "${ol[@]}" --event-time-start "$first" --event-time-end "$end" \
      > "$RUN/dbt/build.log" 2>&1 || rc=$?
    rm -rf dbt-logs-*   # left behind by --consume-structured-logs
    grep -v -e '^\s*$' -e 'Batch .* of 31 ' "$RUN/dbt/build.log" | tail -n 25 >&2
    log "dbt: dbt-ol build ${ol[*]} exit $rc, $(tail -n 1 "$RUN/dbt/time-build.txt")"
    "$PYTHON" - target/run_results.json <<'PY' >&2
import collections, json, sys
r = json.load(open(sys.argv[1]))
print("[lab] dbt run_results: elapsed_time %.1f s" % r["elapsed_time"])
print("[lab] dbt statuses:", dict(collections.Counter(x["status"] for x in r["results"])))
for x in r["results"]:
    b = x.get("batch_results") or {}
    extra = ""
    if b.get("successful") or b.get("failed"):
        extra = " batches ok %d failed %s" % (len(b.get("successful") or []),
                                                [f[0][:10] for f in b.get("failed") or []])
    msg = (x.get("message") or "").replace("\n", " ")[:160]
    print("  %-45s %-16s %6.2f s  %s%s" % (x["unique_id"], x["status"], x["execution_time"], msg, extra))
PY
    exit "$rc"
  )
}

# record <peer>: receiver + fresh peer (REPARO_URL -> receiver) + fresh schema + control rows + the month,
# then save what arrived to test/fixtures/peers/<peer>/ (see test/fixtures/peers/README.md), then stop.
cmd_record() {
  local peer="${1:-}" first="${2:-}" last="${3:-$LAST_DAY}" fix ev t0 t_up t_sched n prev
  check_peer "$peer"
  [[ -n "$first" ]] || { [[ "$peer" == dagster ]] && first="$DAGSTER_FIRST_DAY" || first="$FIRST_DAY"; }
  fix="${REPARO_LAB_FIXTURES:-$(cd "$LAB_DIR/.." && pwd)/test/fixtures/peers}/$peer"
  mkdir -p "$fix" "$RUN/receiver"
  ev="$RUN/receiver/$peer-lab-events.ndjson"
  cmd_down_one receiver
  rm -f "$ev" "$ev.requests"
  cmd_receiver start "$ev"
  export REPARO_URL=http://127.0.0.1:28999 REPARO_TOKEN="lab-$peer-token"
  [[ "$peer" == dbt ]] || cmd_down_one "$peer"
  t0="$(now)"
  "up_$peer"
  t_up="$(since "$t0")"
  cmd_warehouse "$peer"
  cmd_control "$peer" seed
  # The recordings are of the backfill (its id names what is recorded).
  [[ "$peer" == dagster ]] && export REPARO_DAGSTER_SCHEDULE_MODE="${REPARO_DAGSTER_SCHEDULE_MODE:-backfill}"
  t0="$(now)"
  cmd_schedule "$peer" "$first" "$last" 2>&1 | tee "$RUN/$peer/schedule.log" >&2
  t_sched="$(since "$t0")"
  # OpenLineage events may still be on their way (Airflow emits DAG-run events from the scheduler)
  prev=-1; n=0
  while true; do
    n=0; [[ -f "$ev" ]] && n="$(wc -l < "$ev")"
    [[ "$n" == "$prev" ]] && break
    prev="$n"; sleep 5
  done
  log "$peer: $n OpenLineage events received"
  case "$peer" in
    airflow)
      "$PYTHON" "$LAB_DIR/drivers/slim_events.py" "$ev" "$fix/openlineage-events.ndjson" --strip-repeats ;;
    dbt)
      # manifest.json is ~0.6 MB, 0.53 MB of it dbt's own macros: only the project's macros are kept
      "$PYTHON" - "$LAB_DIR/dbt/lab_project/target/manifest.json" "$fix/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
n = len(m["macros"])
m["macros"] = {k: v for k, v in m["macros"].items() if v.get("package_name") == "reparo_lab_orders"}
json.dump(m, open(sys.argv[2], "w"), indent=1)
print(f"[lab] manifest.json: kept {len(m['macros'])} of {n} macros (the project's own)", file=sys.stderr)
PY
      cp "$LAB_DIR/dbt/lab_project/target/run_results.json" "$fix/run_results.json"
      record_dbt_repair "$fix" "$ev" ;;
    dagster)
      [[ -n "$(ls "$ev" 2>/dev/null)" && -s "$ev" ]] && log "dagster: unexpected OpenLineage events in $ev"
      rm -f "$fix"/lab-*.json
      "$PYTHON" "$LAB_DIR/drivers/dagster_month.py" --record-only "$(cat "$RUN/dagster/lab-backfill-id")" \
        --record "$fix" ;;
  esac
  cp "$RUN/$peer/schedule.log" "$fix/lab-month.log"
  {
    echo "peer=$peer days=$first..$last recorded=$(date -u +%FT%TZ)"
    echo "up_seconds=$t_up schedule_seconds=$t_sched openlineage_events=$n"
  } > "$fix/lab-month.txt"
  log "$peer: up $t_up s, schedule $t_sched s, $n OpenLineage events; fixtures in $fix"
  [[ "$peer" == dbt ]] || cmd_down_one "$peer"
  cmd_down_one receiver
}

# record-adapter dagster: what the real Dagster answers to Reparo's own adapter (peers/record-dagster-exchanges.ts).
cmd_record_adapter() {
  [[ "${1:-}" == dagster ]] || die "record-adapter dagster (only Dagster's exchanges are recorded this way)"
  cmd_down_one dagster
  up_dagster
  cmd_warehouse dagster
  cmd_control dagster set stg_orders "$DAGSTER_CLEAN_DAY" clean
  cmd_schedule dagster "$DAGSTER_FIRST_DAY" "$LAST_DAY"
  ( cd "$LAB_DIR/.." && npx tsx peers/record-dagster-exchanges.ts "${REPARO_LAB_FIXTURES:-test/fixtures/peers}/dagster/adapter" ) || {
    cmd_down_one dagster; die "recording the adapter's exchanges failed"; }
  cmd_down_one dagster
}

# The single-batch repair of the dbt month: remove the control row of 2026-08-17, re-run that batch only.
record_dbt_repair() {
  local fix="$1" ev="$2" before=0 rc=0
  [[ -f "$ev" ]] || : > "$ev"
  before="$(wc -l < "$ev")"
  cmd_control dbt unset revenue_daily 2026-08-17
  (
    # shellcheck disable=SC1091
    source "$RUN/dbt/env.sh"
    export DBT_PROFILES_DIR="$LAB_DIR/dbt/lab_project"
    cd "$LAB_DIR/dbt/lab_project"
    cp target/run_results.json "$RUN/dbt/run_results-month.json"
    dbt-ol run --select revenue_daily --event-time-start 2026-08-17 --event-time-end 2026-08-18 \
      > "$RUN/dbt/repair.log" 2>&1 || rc=$?
    log "dbt: repair 'dbt-ol run --select revenue_daily --event-time-start 2026-08-17 --event-time-end 2026-08-18' exit $rc"
    grep -E 'Batch|PARTIAL|OK created|ERROR|Done\.' "$RUN/dbt/repair.log" >&2 || true
    cp target/run_results.json "$fix/run_results-repair-revenue_daily-2026-08-17.json"
  )
  sleep 2
  sed -n "$((before + 1)),\$p" "$ev" > "$RUN/dbt/repair-events.ndjson"
  "$PYTHON" "$LAB_DIR/drivers/slim_events.py" "$RUN/dbt/repair-events.ndjson" \
    "$fix/openlineage-events-repair-revenue_daily-2026-08-17.ndjson"
  # the month's events only in openlineage-events.ndjson
  head -n "$before" "$ev" > "$RUN/dbt/month-events.ndjson"
  "$PYTHON" "$LAB_DIR/drivers/slim_events.py" "$RUN/dbt/month-events.ndjson" "$fix/openlineage-events.ndjson"
  psql_wh -c "SELECT count(*) AS revenue_rows, count(DISTINCT order_day) AS days FROM dbt_lab.revenue_daily" >&2
}

# ---------------------------------------------------------------- main
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

main() {
  local cmd="${1:-}"; shift || true
  case "$cmd" in
    install) check_peer "${1:-}"; cmd_install "$1" ;;
    up)      check_peer "${1:-}"; "up_$1" ;;
    down)    if [[ "${1:-}" == receiver ]]; then cmd_down_one receiver; else cmd_down "${1:-}"; fi ;;
    receiver) cmd_receiver "$@" ;;
    status)  cmd_status ;;
    env)     check_peer "${1:-}"; cat "$RUN/$1/env.sh" ;;
    lock)    check_peer "${1:-}"; cmd_lock "$1" ;;
    warehouse) cmd_warehouse "$@" ;;
    control) cmd_control "$@" ;;
    schedule) cmd_schedule "$@" ;;
    record)  cmd_record "$@" ;;
    record-adapter) cmd_record_adapter "$@" ;;
    -h|--help|help|"") usage ;;
    *) usage; exit 2 ;;
  esac
}

main "$@"
