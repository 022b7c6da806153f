"""Peers-lab spike code location (Dagster 1.13): a daily-partitioned asset pair.

`raw_orders` -> `daily_orders`, partitions from 2026-08-01. `daily_orders` fails on purpose for the
partitions listed in the env var REPARO_DAGSTER_FAIL_PARTITIONS (comma separated), so a backfill ends
with a partial failure that `reexecutePartitionBackfill(FROM_FAILURE)` can repair after the variable is
cleared (the daemon reloads nothing by itself: restart or set it only for the first launch).
The marker file REPARO_DAGSTER_FAIL_MARKER (if set and present) has the same effect and can be removed
between the failed run and its re-execution without a restart.
"""
import os

import dagster as dg

partitions = dg.DailyPartitionsDefinition(start_date="2026-08-01", end_date="2026-09-01")


def _should_fail(partition_key: str) -> bool:
    wanted = {p.strip() for p in os.environ.get("REPARO_DAGSTER_FAIL_PARTITIONS", "").split(",") if p.strip()}
    marker = os.environ.get("REPARO_DAGSTER_FAIL_MARKER")
    if marker and os.path.exists(marker):
        wanted |= {p.strip() for p in open(marker).read().split(",") if p.strip()}
    return partition_key in wanted


@dg.asset(partitions_def=partitions, group_name="reparo_lab")
def raw_orders(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    context.log.info(f"raw_orders for {context.partition_key}")
    return dg.MaterializeResult(metadata={"rows": 3, "partition": context.partition_key})


@dg.asset(partitions_def=partitions, deps=[raw_orders], group_name="reparo_lab")
def daily_orders(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    if _should_fail(context.partition_key):
        raise RuntimeError(f"reparo spike: daily_orders fails for partition {context.partition_key}")
    return dg.MaterializeResult(metadata={"rows": 1, "partition": context.partition_key})


spike_job = dg.define_asset_job("reparo_spike_job", selection=[raw_orders, daily_orders], partitions_def=partitions)

defs = dg.Definitions(assets=[raw_orders, daily_orders], jobs=[spike_job])
