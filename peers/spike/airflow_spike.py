"""Drive the lab Airflow through REST API v2 and record every request + answer.

    python3 peers/spike/airflow_spike.py [--out test/fixtures/peers/airflow/spike] [--base http://127.0.0.1:28080]

Needs `bash peers/lab.sh up airflow` first. Standard library only. Each call is written to
OUT/NN-name.json as {"request": {...}, "response": {"status", "body"}}; the JWT is shortened and long
lists are cut to their first items (the total is kept) so the files stay readable.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request

DAG = "reparo_spike"
SQL_DAG = "reparo_spike_sql"


class Lab:
    def __init__(self, base: str, out: str, user: str, password: str) -> None:
        self.base, self.out, self.user, self.password = base.rstrip("/"), out, user, password
        self.token: str | None = None
        self.n = 0
        os.makedirs(out, exist_ok=True)

    def call(self, method: str, path: str, body=None, name: str | None = None, auth=True, record=True):
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if auth and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        ms = round((time.monotonic() - t0) * 1000)
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode("utf-8", "replace")
        if record and name:
            self.n += 1
            rec_headers = dict(headers)
            if "Authorization" in rec_headers:
                rec_headers["Authorization"] = "Bearer <jwt>"
            doc = {
                "request": {"method": method, "path": path, "headers": rec_headers, "body": body},
                "response": {"status": status, "elapsed_ms": ms,
                             "body": parsed if name.startswith("task-log") else trim(parsed)},
            }
            fn = os.path.join(self.out, f"{self.n:02d}-{name}.json")
            with open(fn, "w") as f:
                json.dump(doc, f, indent=2)
                f.write("\n")
            print(f"{method} {path} -> {status} ({ms} ms)  [{os.path.basename(fn)}]")
        return status, parsed

    def login(self, record=True) -> None:
        status, body = self.call("POST", "/auth/token", {"username": self.user, "password": self.password},
                                 name="auth-token" if record else None, auth=False, record=record)
        assert status in (200, 201), (status, body)
        self.token = body["access_token"]

    def wait(self, what: str, fn, timeout=240, every=2.0):
        t0 = time.monotonic()
        while True:
            v = fn()
            if v:
                print(f"  {what}: {round(time.monotonic() - t0, 1)} s")
                return v
            if time.monotonic() - t0 > timeout:
                raise SystemExit(f"timeout waiting for {what}")
            time.sleep(every)


def trim(v, depth=0):
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if k in ("access_token",) and isinstance(x, str):
                out[k] = x[:24] + "...(jwt, %d chars)" % len(x)
            else:
                out[k] = trim(x, depth + 1)
        return out
    if isinstance(v, list):
        if len(v) > 4:
            return [trim(x, depth + 1) for x in v[:3]] + [f"...({len(v) - 3} more items cut)"]
        return [trim(x, depth + 1) for x in v]
    if isinstance(v, str) and len(v) > 2000:
        return v[:2000] + f"...({len(v) - 2000} chars cut)"
    return v


def run_state(lab: Lab, dag: str, run_id: str) -> str:
    _, b = lab.call("GET", f"/api/v2/dags/{dag}/dagRuns/{run_id}", record=False)
    return b.get("state") if isinstance(b, dict) else None


def ti(lab: Lab, dag: str, run_id: str, task: str) -> dict:
    _, b = lab.call("GET", f"/api/v2/dags/{dag}/dagRuns/{run_id}/taskInstances/{task}", record=False)
    return b


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="http://127.0.0.1:28080")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "peers", "airflow", "spike"))
    ap.add_argument("--user", default="reparo")
    ap.add_argument("--password", default=os.environ.get("REPARO_AIRFLOW_PASSWORD", "reparo-lab"))
    args = ap.parse_args()
    lab = Lab(args.base, os.path.abspath(args.out), args.user, args.password)

    lab.call("GET", "/api/v2/version", name="version-without-token", auth=False)
    lab.call("POST", "/auth/token", {"username": args.user, "password": "wrong"}, name="auth-token-wrong-password",
             auth=False)
    lab.login()
    lab.call("GET", "/api/v2/version", name="version")
    lab.call("GET", "/api/v2/monitor/health", name="health", auth=False)

    # The dag-processor must have parsed the file first.
    lab.wait("DAG parsed", lambda: lab.call("GET", f"/api/v2/dags/{DAG}", record=False)[0] == 200, every=1)
    lab.call("GET", f"/api/v2/dags/{DAG}", name="get-dag")
    lab.call("PATCH", f"/api/v2/dags/{DAG}", {"is_paused": False}, name="unpause-dag")

    # 1) a run that succeeds
    run_ok = "reparo_spike_ok_2026-08-01"
    t0 = time.monotonic()
    lab.call("POST", f"/api/v2/dags/{DAG}/dagRuns",
             {"dag_run_id": run_ok, "logical_date": "2026-08-01T00:00:00Z", "conf": {}, "note": "reparo lab"},
             name="trigger-dag-run")
    lab.wait("run succeeded", lambda: run_state(lab, DAG, run_ok) in ("success", "failed"))
    print(f"  trigger -> success: {round(time.monotonic() - t0, 1)} s")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_ok}", name="get-dag-run-success")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_ok}/taskInstances", name="list-task-instances")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_ok}/taskInstances/load", name="get-task-instance-load-try1")

    # clear one task instance: dry run, then for real
    clear = {"dag_run_id": run_ok, "task_ids": ["load"], "only_failed": False, "reset_dag_runs": True,
             "include_downstream": False, "include_upstream": False}
    lab.call("POST", f"/api/v2/dags/{DAG}/clearTaskInstances", {**clear, "dry_run": True}, name="clear-dry-run")
    t0 = time.monotonic()
    lab.call("POST", f"/api/v2/dags/{DAG}/clearTaskInstances", {**clear, "dry_run": False}, name="clear")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_ok}/taskInstances/load", name="get-task-instance-after-clear")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_ok}", name="get-dag-run-after-clear")
    lab.wait("cleared task re-ran",
             lambda: (lambda t: t.get("try_number") == 2 and t.get("state") == "success")(ti(lab, DAG, run_ok, "load")))
    print(f"  clear -> success: {round(time.monotonic() - t0, 1)} s")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_ok}/taskInstances/load", name="get-task-instance-try2")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_ok}/taskInstances/load/tries", name="list-task-instance-tries")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_ok}", name="get-dag-run-after-rerun")

    # 2) a run whose `load` fails on its first try, repaired with clear(only_failed)
    run_bad = "reparo_spike_fail_2026-08-02"
    lab.call("POST", f"/api/v2/dags/{DAG}/dagRuns",
             {"dag_run_id": run_bad, "logical_date": "2026-08-02T00:00:00Z", "conf": {"fail_load": True}},
             name="trigger-dag-run-that-fails")
    lab.wait("run failed", lambda: run_state(lab, DAG, run_bad) in ("success", "failed"))
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_bad}", name="get-dag-run-failed")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_bad}/taskInstances", name="list-task-instances-failed")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_bad}/taskInstances/load/logs/1?full_content=true",
             name="task-log-failed-try")
    repair = {"dag_run_id": run_bad, "only_failed": True, "reset_dag_runs": True}
    lab.call("POST", f"/api/v2/dags/{DAG}/clearTaskInstances", {**repair, "dry_run": True},
             name="clear-only-failed-dry-run")
    lab.call("POST", f"/api/v2/dags/{DAG}/clearTaskInstances", {**repair, "dry_run": False}, name="clear-only-failed")
    lab.wait("repaired run succeeded", lambda: run_state(lab, DAG, run_bad) == "success")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_bad}", name="get-dag-run-repaired")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns/{run_bad}/taskInstances", name="list-task-instances-repaired")
    lab.call("GET", f"/api/v2/dags/{DAG}/dagRuns?order_by=-logical_date", name="list-dag-runs")

    # 3) the SQL DAG (OpenLineage datasets come from SQLExecuteQueryOperator's extractor)
    lab.wait("SQL DAG parsed", lambda: lab.call("GET", f"/api/v2/dags/{SQL_DAG}", record=False)[0] == 200, every=1)
    lab.call("PATCH", f"/api/v2/dags/{SQL_DAG}", {"is_paused": False}, name="unpause-sql-dag")
    run_sql = "reparo_spike_sql_2026-08-01"
    lab.call("POST", f"/api/v2/dags/{SQL_DAG}/dagRuns",
             {"dag_run_id": run_sql, "logical_date": "2026-08-01T00:00:00Z"}, name="trigger-sql-dag-run")
    lab.wait("SQL run finished", lambda: run_state(lab, SQL_DAG, run_sql) in ("success", "failed"))
    lab.call("GET", f"/api/v2/dags/{SQL_DAG}/dagRuns/{run_sql}/taskInstances", name="list-task-instances-sql")

    # pause both again so the scheduler stops creating runs
    lab.call("PATCH", f"/api/v2/dags/{DAG}", {"is_paused": True}, name="pause-dag")
    lab.call("PATCH", f"/api/v2/dags/{SQL_DAG}", {"is_paused": True}, record=False)
    print("done")


if __name__ == "__main__":
    sys.exit(main())
