"""Run the lab DAG `lab_orders` over a range of days on the lab Airflow (REST API v2) and wait.

    python3 peers/drivers/airflow_month.py [--first 2026-08-01] [--last 2026-08-31] [--mode runs|backfill]

Needs `bash peers/lab.sh up airflow`. Standard library only. Called by `bash peers/lab.sh schedule airflow`.

--mode runs (default): while the DAG is still paused, POST /api/v2/dags/lab_orders/dagRuns once per day with
  `logical_date` (run_type manual), then unpause. The DAG's end_date (2026-08-31) is in the past, so unpausing
  creates no `scheduled` run for "today".
--mode backfill: POST /api/v2/backfills (run_type backfill). depends_on_past=True forces
  reprocess_behavior "failed" or "completed" (Airflow refuses "none").

Waits until every run is terminal, or until the only unfinished task instances are ones that wait on
depends_on_past behind a failed day (Airflow leaves those runs `running` for ever: its deadlock check
skips depends_on_past tasks) and nothing changed for --settle seconds. Prints per-state counts and times.
"""
from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import sys
import time
import urllib.error
import urllib.request

BASE = "http://127.0.0.1:28080"
DAG = "lab_orders"
ACTIVE_TI = {"queued", "scheduled", "running", "up_for_retry", "up_for_reschedule", "deferred", "restarting"}


class Api:
    def __init__(self, base: str, user: str, password: str) -> None:
        self.base = base.rstrip("/")
        self.user, self.password = user, password
        self.token = ""
        self.login()

    def login(self) -> None:
        self.token = self._call("POST", "/auth/token", {"username": self.user, "password": self.password},
                                auth=False)["access_token"]

    def _call(self, method: str, path: str, body: dict | None = None, auth: bool = True) -> dict:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if auth:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.base + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path} -> {e.code}: {e.read().decode()[:2000]}") from None

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        return self._call(method, path, body)

    def paged(self, path: str, key: str) -> list[dict]:
        out, offset = [], 0
        while True:
            sep = "&" if "?" in path else "?"
            page = self.call("GET", f"{path}{sep}limit=100&offset={offset}")
            out += page[key]
            offset += len(page[key])
            if not page[key] or offset >= page.get("total_entries", 0):
                return out


def days(first: str, last: str) -> list[str]:
    d, end, out = dt.date.fromisoformat(first), dt.date.fromisoformat(last), []
    while d <= end:
        out.append(d.isoformat())
        d += dt.timedelta(days=1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", default="2026-08-01")
    ap.add_argument("--last", default="2026-08-31")
    ap.add_argument("--mode", choices=["runs", "backfill"], default="runs")
    ap.add_argument("--user", default="reparo")
    ap.add_argument("--password", default="reparo-lab")
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--settle", type=float, default=30, help="seconds without change before 'blocked' counts as done")
    ap.add_argument("--base", default=BASE)
    a = ap.parse_args()
    api = Api(a.base, a.user, a.password)
    t0 = time.monotonic()

    # 1. the DAG must be parsed (the dag-processor refreshes every 5 s in the lab)
    while True:
        try:
            dag = api.call("GET", f"/api/v2/dags/{DAG}")
            break
        except RuntimeError as e:
            if "404" not in str(e):
                raise
            errs = api.call("GET", "/api/v2/importErrors")
            if errs.get("import_errors"):
                sys.exit(f"DAG import errors: {json.dumps(errs['import_errors'])[:3000]}")
            if time.monotonic() - t0 > 120:
                sys.exit(f"DAG {DAG} not parsed within 120 s")
            time.sleep(1)
    print(f"[airflow] DAG {DAG} parsed after {time.monotonic() - t0:.1f} s: is_paused={dag['is_paused']} "
          f"next_dagrun_logical_date={dag.get('next_dagrun_logical_date')} "
          f"next_dagrun_run_after={dag.get('next_dagrun_run_after')}", flush=True)

    wanted = days(a.first, a.last)
    t_submit = time.monotonic()
    if a.mode == "runs":
        for d in wanted:
            r = api.call("POST", f"/api/v2/dags/{DAG}/dagRuns", {"logical_date": f"{d}T00:00:00Z"})
            print(f"[airflow] created {r['dag_run_id']} state={r['state']} run_type={r['run_type']}", flush=True)
        api.call("PATCH", f"/api/v2/dags/{DAG}", {"is_paused": False})
        print(f"[airflow] {len(wanted)} runs created while paused, then unpaused", flush=True)
    else:
        api.call("PATCH", f"/api/v2/dags/{DAG}", {"is_paused": False})
        b = api.call("POST", "/api/v2/backfills", {
            "dag_id": DAG, "from_date": f"{a.first}T00:00:00Z", "to_date": f"{a.last}T00:00:00Z",
            "reprocess_behavior": "failed", "max_active_runs": 31})
        print(f"[airflow] backfill {b.get('id')} created: {json.dumps(b)[:600]}", flush=True)

    # 2. wait
    last_sig, last_change = None, time.monotonic()
    while True:
        try:
            runs = api.paged(f"/api/v2/dags/{DAG}/dagRuns?order_by=logical_date", "dag_runs")
            tis = api.paged(f"/api/v2/dags/{DAG}/dagRuns/~/taskInstances", "task_instances")
        except RuntimeError as e:
            if "401" in str(e):
                api.login()
                continue
            raise
        run_states = collections.Counter(r["state"] for r in runs)
        ti_states = collections.Counter(t["state"] or "none" for t in tis)
        sig = json.dumps([sorted(run_states.items()), sorted(ti_states.items())])
        if sig != last_sig:
            last_sig, last_change = sig, time.monotonic()
            print(f"[airflow] {time.monotonic() - t_submit:6.1f} s runs {dict(run_states)} tis {dict(ti_states)}",
                  flush=True)
        ours = [r for r in runs if r["logical_date"][:10] in wanted]
        all_terminal = len(ours) >= len(wanted) and all(r["state"] in ("success", "failed") for r in ours)
        active = sum(ti_states[s] for s in ACTIVE_TI)
        blocked = (len(ours) >= len(wanted) and active == 0
                   and time.monotonic() - last_change >= a.settle and run_states.get("queued", 0) == 0)
        if all_terminal or blocked:
            break
        if time.monotonic() - t0 > a.timeout:
            sys.exit(f"timeout after {a.timeout} s: runs {dict(run_states)} tis {dict(ti_states)}")
        time.sleep(2)
    wall = last_change - t_submit  # the moment the last state change was seen (2 s polling)

    # 3. report
    by_run = collections.defaultdict(dict)
    for t in tis:
        by_run[t["dag_run_id"]][t["task_id"]] = t["state"] or "none"
    print("[airflow] per day:")
    for r in runs:
        states = by_run.get(r["dag_run_id"], {})
        waiting = [k for k, v in states.items() if v == "none"]
        note = f"  (waiting: {','.join(waiting)} - depends_on_past)" if waiting and r["state"] == "running" else ""
        bad = {k: v for k, v in states.items() if v not in ("success", "none")}
        print(f"  {r['logical_date'][:10]} {r['run_type']:9} {r['state']:8} {json.dumps(bad) if bad else ''}{note}")
    print(f"[airflow] runs by state: {dict(collections.Counter(r['state'] for r in runs))}")
    print(f"[airflow] task instances by state: {dict(ti_states)}")
    print(f"[airflow] run types: {dict(collections.Counter(r['run_type'] for r in runs))}")
    print(f"[airflow] wall time from the first submit to the last state change: {wall:.1f} s"
          + ("" if all_terminal else f" (then {a.settle:.0f} s without change: the rest waits on depends_on_past)"))


if __name__ == "__main__":
    main()
