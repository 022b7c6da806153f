"""Drive the lab Dagster through its GraphQL API and record every request + answer.

    python3 peers/spike/dagster_spike.py [--out test/fixtures/peers/dagster/spike] [--base http://127.0.0.1:23070]

Needs `bash peers/lab.sh up dagster` first. Standard library only.
1. `{ version }`, the code location, the asset nodes;
2. launchPartitionBackfill for 2 partitions (2026-08-03, 2026-08-04) -> the daemon runs it to COMPLETED;
3. a backfill of 2026-08-01..02 where daily_orders fails for 2026-08-02 (marker file read by the asset),
   then reexecutePartitionBackfill(strategy: FROM_FAILURE) after the marker is removed.
Each call is written to OUT/NN-name.json as {"request": {query, variables}, "response": {...}}.
"""
from __future__ import annotations

import argparse
import json
import os
import time
import urllib.error
import urllib.request

BACKFILL_FIELDS = """
  __typename
  ... on PartitionBackfill {
    id status runStatus numPartitions partitionNames isAssetBackfill fromFailure title
    timestamp endTimestamp
    assetSelection { path }
    partitionStatusCounts { runStatus count }
    assetBackfillData {
      rootTargetedPartitions { partitionKeys ranges { start end } }
      assetBackfillStatuses {
        __typename
        ... on AssetPartitionsStatusCounts {
          assetKey { path } numPartitionsTargeted numPartitionsInProgress numPartitionsMaterialized
          numPartitionsFailed
        }
      }
    }
    runs { runId status startTime endTime tags { key value } }
    error { message }
  }
  ... on BackfillNotFoundError { message backfillId }
  ... on PythonError { message stack }
"""

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
    partitionKeysByDimension { name partitionKeys }
    assetPartitionStatuses {
      __typename
      ... on TimePartitionStatuses { ranges { status startKey endKey startTime endTime } }
      ... on DefaultPartitionStatuses { materializedPartitions failedPartitions materializingPartitions unmaterializedPartitions }
    }
  }
}"""


class Lab:
    def __init__(self, base: str, out: str) -> None:
        self.url = base.rstrip("/") + "/graphql"
        self.out = out
        self.n = 0
        os.makedirs(out, exist_ok=True)

    def gql(self, query: str, variables: dict | None = None, name: str | None = None) -> dict:
        body = {"query": query, "variables": variables or {}}
        req = urllib.request.Request(self.url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        ms = round((time.monotonic() - t0) * 1000)
        parsed = json.loads(raw)
        if name:
            self.n += 1
            fn = os.path.join(self.out, f"{self.n:02d}-{name}.json")
            with open(fn, "w") as f:
                json.dump({"request": {"method": "POST", "path": "/graphql", "body": body},
                           "response": {"status": status, "elapsed_ms": ms, "body": parsed}}, f, indent=2)
                f.write("\n")
            print(f"{name} -> {status} ({ms} ms) [{os.path.basename(fn)}]")
        if parsed.get("errors"):
            raise SystemExit(f"GraphQL errors in {name}: {json.dumps(parsed['errors'])[:2000]}")
        return parsed["data"]

    def backfill(self, backfill_id: str, name: str | None = None) -> dict:
        q = "query Backfill($id: String!) { partitionBackfillOrError(backfillId: $id) {" + BACKFILL_FIELDS + "} }"
        return self.gql(q, {"id": backfill_id}, name)["partitionBackfillOrError"]

    def wait_backfill(self, backfill_id: str, timeout=300) -> dict:
        t0 = time.monotonic()
        while True:
            b = self.backfill(backfill_id)
            if b.get("status") not in ("REQUESTED", "CANCELING", "FAILING"):
                print(f"  backfill {backfill_id} -> {b.get('status')} in {round(time.monotonic() - t0, 1)} s")
                return b
            if time.monotonic() - t0 > timeout:
                raise SystemExit(f"timeout waiting for backfill {backfill_id}: {json.dumps(b)[:1000]}")
            time.sleep(1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="http://127.0.0.1:23070")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "peers", "dagster", "spike"))
    ap.add_argument("--fail-marker", default=os.environ.get("REPARO_DAGSTER_FAIL_MARKER",
                                                            "/tmp/reparo-peers/dagster/fail-partitions"))
    args = ap.parse_args()
    lab = Lab(args.base, os.path.abspath(args.out))
    assets = [{"path": ["raw_orders"]}, {"path": ["daily_orders"]}]

    lab.gql("{ version }", name="version")
    lab.gql("""{ repositoriesOrError { __typename ... on RepositoryConnection { nodes { name
        location { name } pipelines { name } partitionSets { name pipelineName } } } } }""", name="repositories")
    lab.gql("""{ assetNodes { assetKey { path } groupName isPartitioned
        partitionDefinition { type description name } dependencyKeys { path } } }""", name="asset-nodes")

    # 1) a clean backfill of 2 partitions
    if os.path.exists(args.fail_marker):
        os.remove(args.fail_marker)
    t0 = time.monotonic()
    d = lab.gql(LAUNCH, {"params": {"partitionNames": ["2026-08-03", "2026-08-04"], "assetSelection": assets,
                                    "title": "reparo spike ok"}}, name="launch-backfill")
    bid = d["launchPartitionBackfill"]["backfillId"]
    lab.backfill(bid, name="backfill-just-launched")
    lab.wait_backfill(bid)
    print(f"  launch -> completed: {round(time.monotonic() - t0, 1)} s")
    lab.backfill(bid, name="backfill-completed")
    lab.gql("""query Runs($f: RunsFilter) { runsOrError(filter: $f) { __typename ... on Runs { results {
        runId status jobName startTime endTime assetSelection { path } tags { key value } } } } }""",
            {"f": {"tags": [{"key": "dagster/backfill", "value": bid}]}}, name="runs-of-backfill")

    # 2) a backfill where daily_orders fails for 2026-08-02, then re-executed from failure
    with open(args.fail_marker, "w") as f:
        f.write("2026-08-02")
    d = lab.gql(LAUNCH, {"params": {"partitionNames": ["2026-08-01", "2026-08-02"], "assetSelection": assets,
                                    "title": "reparo spike partial failure"}}, name="launch-backfill-that-fails")
    bad = d["launchPartitionBackfill"]["backfillId"]
    lab.wait_backfill(bad)
    lab.backfill(bad, name="backfill-partially-failed")
    lab.gql(STATUSES, {"keys": assets}, name="asset-partition-statuses-after-failure")
    os.remove(args.fail_marker)
    d = lab.gql("""mutation Reexecute($p: ReexecutionParams) { reexecutePartitionBackfill(reexecutionParams: $p) {
        __typename ... on LaunchBackfillSuccess { backfillId launchedRunIds }
        ... on PythonError { message stack } ... on UnauthorizedError { message } } }""",
                {"p": {"parentRunId": bad, "strategy": "FROM_FAILURE"}}, name="reexecute-backfill-from-failure")
    again = d["reexecutePartitionBackfill"]["backfillId"]
    lab.wait_backfill(again)
    lab.backfill(again, name="backfill-reexecuted")
    lab.gql(STATUSES, {"keys": assets}, name="asset-partition-statuses-after-repair")
    lab.gql("""{ partitionBackfillsOrError(limit: 10) { __typename ... on PartitionBackfills { results {
        id status numPartitions fromFailure title partitionNames } } } }""", name="list-backfills")
    print("done")


if __name__ == "__main__":
    main()
