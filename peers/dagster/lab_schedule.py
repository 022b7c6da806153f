"""The lab's month on Dagster: one run of the six assets per day, in day order, in this one process.

    source /tmp/reparo-peers/dagster/env.sh && python peers/dagster/lab_schedule.py 2026-08-01 2026-08-31
    (what `bash peers/lab.sh schedule dagster` runs by default; REPARO_DAGSTER_SCHEDULE_MODE=backfill for the
    month as one backfill through the daemon, peers/drivers/dagster_month.py)

Each day is a real run of the code location's asset job (`__ASSET_JOB`, tagged `dagster/partition`) in the lab
instance (DAGSTER_HOME: its PostgreSQL run and event storage), executed in this process with
`execute_in_process` — as a daily schedule's runs, one after the other. What the lab saves is the process a
run launcher starts per run (measured at 12-25 s each on the 2-core lab machine: docs/peers-lab.md); what Dagster
stores (runs, step stats, materializations, failures with their cause) is the same, and Reparo's Dagster source
reads it through the webserver's GraphQL API like any run's. A schedule does not wait for a partition's own
past: running_balance of a day after a failed one runs on what is there.
"""

import sys
import time

import dagster as dg

sys.path.insert(0, __import__("os").path.dirname(__file__))
import lab_orders  # noqa: E402  (the code location's module, from this folder)


def days(first: str, last: str) -> list[str]:
    import datetime as dt

    d, end, out = dt.date.fromisoformat(first), dt.date.fromisoformat(last), []
    while d <= end:
        out.append(d.isoformat())
        d += dt.timedelta(days=1)
    return out


def main() -> None:
    first, last = (sys.argv[1:3] + ["2026-08-01", "2026-08-31"][len(sys.argv[1:3]):])[:2]
    job = lab_orders.defs.resolve_implicit_global_asset_job_def()
    t0 = time.monotonic()
    outcome: dict[str, int] = {}
    with dg.DagsterInstance.get() as instance:
        for day in days(first, last):
            t = time.monotonic()
            result = job.execute_in_process(instance=instance, partition_key=day, raise_on_error=False)
            status = "SUCCESS" if result.success else "FAILURE"
            outcome[status] = outcome.get(status, 0) + 1
            print(f"[dagster] {time.monotonic() - t0:6.1f} s {day} run {result.run_id} {status} "
                  f"({time.monotonic() - t:.1f} s)", flush=True)
    print(f"[dagster] runs: {sum(outcome.values())} {outcome}", flush=True)


if __name__ == "__main__":
    main()
