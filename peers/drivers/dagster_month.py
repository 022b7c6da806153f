"""Run the lab assets (location reparo_lab_orders) over a range of days on the lab Dagster, and record.

    python3 peers/drivers/dagster_month.py [--first 2026-08-01] [--last 2026-08-31] [--mode runs|backfill]
    python3 peers/drivers/dagster_month.py --record-only BACKFILL_ID --record DIR

Needs `bash peers/lab.sh up dagster`. Standard library only. Called by `bash peers/lab.sh schedule dagster`.
--mode runs (default): one run of the six assets per day, in day order, each launched when the one before
has ended — what a daily schedule of the asset job does (`launchRun` of `__ASSET_JOB` tagged
`dagster/partition`, as the schedule daemon or the UI's "Materialize" of a partition launches it), through the
instance's run queue and run launcher; the runs execute their steps in one process (run config
`execution: {config: {in_process: {}}}`, an option of Dagster's default executor). A schedule does not wait
for a partition's own past: running_balance of a day after a failed one runs on what is there.
--mode backfill: launchPartitionBackfill of the whole graph (6 assets) over the days; the backfill id is
written to --id-file. Either way the driver waits until nothing runs any more and prints the per-partition
status of every asset (assetPartitionStatuses) and the wall time.

--record DIR writes what a Reparo poller would read, as {"request": {query, variables}, "response": {...}}:
  lab-backfill.json                 partitionBackfillOrError (status, per-asset counts, runs)
  lab-runs.json                     runsOrError for the backfill (status, tags incl. dagster/partition, assets)
  lab-asset-nodes.json              assetNodes: owners, kinds, tags, metadata, dependencies, assetPartitionStatuses
  lab-materializations-<asset>.json assetMaterializations with metadata (dagster/row_count, ...)
  lab-run-failures.json             logsForRun of each failed run: the step failure's error (message, stack)
"""
import argparse
import collections
import datetime as dt
import json
import os
import sys
import time
import urllib.error
import urllib.request

LOCATION = "reparo_lab_orders"
ASSETS = ["raw_orders", "stg_orders", "fct_orders", "revenue_daily", "finance_export", "running_balance"]

METADATA = """
  label description __typename
  ... on IntMetadataEntry { intValue }
  ... on FloatMetadataEntry { floatValue }
  ... on TextMetadataEntry { text }
  ... on BoolMetadataEntry { boolValue }
  ... on JsonMetadataEntry { jsonString }
  ... on PathMetadataEntry { path }
  ... on UrlMetadataEntry { url }
  ... on TimestampMetadataEntry { timestamp }
"""

BACKFILL = """
query Backfill($id: String!) {
  partitionBackfillOrError(backfillId: $id) {
    __typename
    ... on PartitionBackfill {
      id status numPartitions partitionNames isAssetBackfill fromFailure title timestamp endTimestamp
      assetSelection { path }
      assetBackfillData {
        assetBackfillStatuses {
          __typename
          ... on AssetPartitionsStatusCounts {
            assetKey { path } numPartitionsTargeted numPartitionsInProgress numPartitionsMaterialized
            numPartitionsFailed
          }
        }
      }
      error { message }
    }
    ... on BackfillNotFoundError { message }
    ... on PythonError { message stack }
  }
}"""

LAUNCH = """
mutation Launch($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename
    ... on LaunchBackfillSuccess { backfillId launchedRunIds }
    ... on PartitionKeysNotFoundError { message partitionKeys }
    ... on PythonError { message stack }
    ... on UnauthorizedError { message }
    ... on InvalidStepError { invalidStepKey }
    ... on RunConflict { message }
  }
}"""

STATUSES = """
query Statuses($keys: [AssetKeyInput!]) {
  assetNodes(assetKeys: $keys) {
    assetKey { path }
    assetPartitionStatuses {
      __typename
      ... on TimePartitionStatuses { ranges { status startKey endKey startTime endTime } }
    }
  }
}"""

ASSET_NODES = """
query AssetNodes($keys: [AssetKeyInput!]) {
  assetNodes(assetKeys: $keys) {
    id assetKey { path } groupName description kinds isPartitioned
    owners { __typename ... on TeamAssetOwner { team } ... on UserAssetOwner { email } }
    tags { key value }
    metadataEntries { %s }
    dependencyKeys { path }
    dependedByKeys { path }
    dependencies { asset { assetKey { path } } partitionMapping { className description } }
    partitionDefinition { type description name fmt dimensionTypes { name type } }
    repository { name location { name } }
    assetPartitionStatuses {
      __typename
      ... on TimePartitionStatuses { ranges { status startKey endKey startTime endTime } }
    }
  }
}""" % METADATA

RUNS = """
query Runs($filter: RunsFilter, $limit: Int) {
  runsOrError(filter: $filter, limit: $limit) {
    __typename
    ... on Runs {
      results {
        runId status jobName startTime endTime creationTime
        tags { key value }
        assetSelection { path }
        stepKeysToExecute
      }
    }
    ... on PythonError { message }
  }
}"""

MATERIALIZATIONS = """
query Materializations($key: AssetKeyInput!, $limit: Int) {
  assetOrError(assetKey: $key) {
    __typename
    ... on Asset {
      key { path }
      assetMaterializations(limit: $limit) {
        partition runId timestamp stepKey message
        tags { key value }
        metadataEntries { %s }
      }
    }
  }
}""" % METADATA

LOGS = """
query Logs($runId: ID!) {
  logsForRun(runId: $runId, limit: 1000) {
    __typename
    ... on EventConnection {
      events {
        __typename
        ... on ExecutionStepFailureEvent {
          runId stepKey message timestamp errorSource
          error { message className stack cause { message className } }
        }
        ... on RunFailureEvent { runId message timestamp error { message className } }
      }
    }
    ... on PythonError { message }
  }
}"""


LAUNCH_RUN = """
mutation LaunchRun($params: ExecutionParams!) {
  launchRun(executionParams: $params) {
    __typename
    ... on LaunchRunSuccess { run { runId status } }
    ... on PythonError { message stack }
    ... on Error { message }
  }
}"""

RUN_STATUS = """
query RunStatus($runId: ID!) {
  runOrError(runId: $runId) { __typename ... on Run { runId status } ... on PythonError { message } }
}"""

RUN_DONE = {"SUCCESS", "FAILURE", "CANCELED"}


class Gql:
    def __init__(self, base: str) -> None:
        self.url = base.rstrip("/") + "/graphql"

    def raw(self, query: str, variables: dict | None = None) -> dict:
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        req = urllib.request.Request(self.url, data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read() or b"{}") | {"_http_status": e.code}

    def __call__(self, query: str, variables: dict | None = None) -> dict:
        parsed = self.raw(query, variables)
        if parsed.get("errors") or "data" not in parsed:
            raise SystemExit(f"GraphQL errors: {json.dumps(parsed)[:3000]}")
        return parsed["data"]


def days(first: str, last: str) -> list[str]:
    d, end, out = dt.date.fromisoformat(first), dt.date.fromisoformat(last), []
    while d <= end:
        out.append(d.isoformat())
        d += dt.timedelta(days=1)
    return out


def keys() -> list[dict]:
    return [{"path": [a]} for a in ASSETS]


def wait_location(gql: Gql, timeout: float = 120) -> None:
    q = """{ workspaceOrError { __typename ... on Workspace { locationEntries { name loadStatus
      locationOrLoadError { __typename ... on PythonError { message } } } } } }"""
    t0 = time.monotonic()
    while True:
        entries = gql(q)["workspaceOrError"]["locationEntries"]
        e = next((x for x in entries if x["name"] == LOCATION), None)
        if e and e["loadStatus"] == "LOADED":
            if e["locationOrLoadError"]["__typename"] == "PythonError":
                raise SystemExit(f"code location {LOCATION} failed to load: {e['locationOrLoadError']['message']}")
            return
        if time.monotonic() - t0 > timeout:
            raise SystemExit(f"code location {LOCATION} not loaded within {timeout} s: {entries}")
        time.sleep(1)


def per_partition(gql: Gql, wanted: list[str]) -> dict[str, dict[str, str]]:
    """{day: {asset: MATERIALIZED|FAILED|MATERIALIZING|-}} from assetPartitionStatuses."""
    out: dict[str, dict[str, str]] = {d: {} for d in wanted}
    for node in gql(STATUSES, {"keys": keys()})["assetNodes"]:
        name = node["assetKey"]["path"][-1]
        for r in node["assetPartitionStatuses"].get("ranges") or []:
            for d in days(r["startKey"], r["endKey"]):
                if d in out:
                    out[d][name] = r["status"]
    return out


def print_partitions(gql: Gql, wanted: list[str]) -> None:
    status = per_partition(gql, wanted)
    short = {"MATERIALIZED": "ok", "FAILED": "FAILED", "MATERIALIZING": "running"}
    print("[dagster] per partition (" + " ".join(ASSETS) + "):")
    for d in wanted:
        print(f"  {d} " + " ".join(f"{short.get(status[d].get(x), '-'):>7}" for x in ASSETS), flush=True)


def schedule_runs(gql: Gql, wanted: list[str], timeout: float) -> None:
    """One run of the six assets per day, in day order, each launched once the one before has ended."""
    statuses = collections.Counter()
    t0 = time.monotonic()
    for day in wanted:
        res = gql(LAUNCH_RUN, {"params": {
            "selector": {"repositoryLocationName": LOCATION, "repositoryName": "__repository__",
                         "jobName": "__ASSET_JOB", "assetSelection": keys()},
            "runConfigData": {"execution": {"config": {"in_process": {}}}},
            "executionMetadata": {"tags": [{"key": "dagster/partition", "value": day}]},
        }})["launchRun"]
        if res["__typename"] != "LaunchRunSuccess":
            raise SystemExit(f"launchRun for {day} failed: {json.dumps(res)[:3000]}")
        run_id = res["run"]["runId"]
        t_day = time.monotonic()
        while True:
            status = gql(RUN_STATUS, {"runId": run_id})["runOrError"]["status"]
            if status in RUN_DONE:
                break
            if time.monotonic() - t0 > timeout:
                raise SystemExit(f"timeout: run {run_id} of {day} still {status}")
            time.sleep(0.5)
        statuses[status] += 1
        print(f"[dagster] {time.monotonic() - t0:6.1f} s {day} run {run_id} {status} "
              f"({time.monotonic() - t_day:.1f} s)", flush=True)
    print(f"[dagster] runs: {len(wanted)} {dict(statuses)}", flush=True)


def record(gql: Gql, backfill_id: str, out: str) -> None:
    os.makedirs(out, exist_ok=True)

    def save(name: str, query: str, variables: dict) -> dict:
        resp = gql.raw(query, variables)
        with open(os.path.join(out, name), "w") as f:
            json.dump({"request": {"method": "POST", "path": "/graphql", "body": {"query": query, "variables": variables}},
                       "response": resp}, f, indent=1)
            f.write("\n")
        print(f"[dagster] recorded {name} ({os.path.getsize(os.path.join(out, name))} bytes)", flush=True)
        if resp.get("errors"):
            raise SystemExit(f"GraphQL errors in {name}: {json.dumps(resp['errors'])[:2000]}")
        return resp["data"]

    save("lab-backfill.json", BACKFILL, {"id": backfill_id})
    runs = save("lab-runs.json", RUNS, {"filter": {"tags": [{"key": "dagster/backfill", "value": backfill_id}]},
                                        "limit": 500})["runsOrError"]["results"]
    save("lab-asset-nodes.json", ASSET_NODES, {"keys": keys()})
    for a in ASSETS:
        save(f"lab-materializations-{a}.json", MATERIALIZATIONS, {"key": {"path": [a]}, "limit": 200})
    failed = [r["runId"] for r in runs if r["status"] == "FAILURE"]
    answers = []
    for run_id in failed:
        resp = gql.raw(LOGS, {"runId": run_id})
        events = resp.get("data", {}).get("logsForRun", {}).get("events", [])
        # keep only the failure events (the query's fragments select nothing from the other event types)
        resp["data"]["logsForRun"]["events"] = [
            e for e in events if e.get("__typename") in ("ExecutionStepFailureEvent", "RunFailureEvent")]
        answers.append({"request": {"method": "POST", "path": "/graphql",
                                    "body": {"query": LOGS, "variables": {"runId": run_id}}},
                        "response": resp})
    with open(os.path.join(out, "lab-run-failures.json"), "w") as f:
        json.dump(answers, f, indent=1)
        f.write("\n")
    print(f"[dagster] recorded lab-run-failures.json ({len(failed)} failed runs)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", default="2026-08-01")
    ap.add_argument("--last", default="2026-08-31")
    ap.add_argument("--base", default="http://127.0.0.1:23070")
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--id-file", default=os.path.join(os.environ.get("REPARO_PEERS_RUN", "/tmp/reparo-peers"),
                                                       "dagster", "lab-backfill-id"))
    ap.add_argument("--mode", choices=["runs", "backfill"], default="runs")
    ap.add_argument("--record", help="directory for the GraphQL recordings")
    ap.add_argument("--record-only", metavar="BACKFILL_ID")
    a = ap.parse_args()
    gql = Gql(a.base)
    if a.record_only:
        record(gql, a.record_only, a.record or ".")
        return

    t0 = time.monotonic()
    wait_location(gql)
    wanted = days(a.first, a.last)
    if a.mode == "runs":
        schedule_runs(gql, wanted, a.timeout)
        print_partitions(gql, wanted)
        print(f"[dagster] {len(wanted)} daily runs; wall time from the first launch to the last end: "
              f"{time.monotonic() - t0:.1f} s", flush=True)
        return
    res = gql(LAUNCH, {"params": {"partitionNames": wanted, "assetSelection": keys(),
                                  "title": f"lab month {a.first}..{a.last}"}})["launchPartitionBackfill"]
    if res["__typename"] != "LaunchBackfillSuccess":
        raise SystemExit(f"launchPartitionBackfill failed: {json.dumps(res)[:3000]}")
    bid = res["backfillId"]
    t_launch = time.monotonic()
    os.makedirs(os.path.dirname(a.id_file), exist_ok=True)
    with open(a.id_file, "w") as f:
        f.write(bid + "\n")
    print(f"[dagster] backfill {bid} launched ({len(wanted)} partitions x {len(ASSETS)} assets) "
          f"{t_launch - t0:.1f} s after start", flush=True)

    last = None
    while True:
        b = gql(BACKFILL, {"id": bid})["partitionBackfillOrError"]
        counts = {s["assetKey"]["path"][-1]: (s["numPartitionsMaterialized"], s["numPartitionsFailed"],
                                              s["numPartitionsInProgress"])
                  for s in (b.get("assetBackfillData") or {}).get("assetBackfillStatuses") or []
                  if s.get("assetKey")}
        sig = json.dumps([b.get("status"), counts])
        if sig != last:
            last = sig
            short = " ".join(f"{k}={v[0]}/{v[1]}/{v[2]}" for k, v in counts.items())
            print(f"[dagster] {time.monotonic() - t_launch:6.1f} s {b.get('status')} (materialized/failed/in "
                  f"progress) {short}", flush=True)
        if b.get("status") not in ("REQUESTED", "CANCELING", "FAILING"):
            break
        if time.monotonic() - t0 > a.timeout:
            raise SystemExit(f"timeout: backfill {bid} still {b.get('status')}")
        time.sleep(2)
    wall = time.monotonic() - t_launch

    runs = gql(RUNS, {"filter": {"tags": [{"key": "dagster/backfill", "value": bid}]}, "limit": 500}
               )["runsOrError"]["results"]
    print(f"[dagster] runs of the backfill: {len(runs)} {dict(collections.Counter(r['status'] for r in runs))}")
    print_partitions(gql, wanted)
    print(f"[dagster] backfill {bid} {b.get('status')}; wall time from launch to the end: {wall:.1f} s")
    if a.record:
        record(gql, bid, a.record)


if __name__ == "__main__":
    main()
