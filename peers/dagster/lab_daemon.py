"""The lab's dagster-daemon: Dagster's own `dagster-daemon run`, with the backfill daemon's sleep shortened.

    python peers/dagster/lab_daemon.py run -w peers/dagster/workspace.yaml     (started by `bash peers/lab.sh up dagster`)

The lab's ACCELERATION, nothing of the team's code and nothing of Reparo's: Dagster 1.13.27's backfill daemon
sleeps DEFAULT_DAEMON_INTERVAL_SECONDS (30, dagster/_daemon/controller.py) between iterations, read by
dagster/_daemon/backfill.py when its loop starts; no dagster.yaml setting and no constructor argument controls it
(the `backfills:` settings are use_threads / num_workers / num_submit_workers). An asset that depends on its own
previous partition (the lab's running_balance) advances one partition per iteration, so a repair of 15 of its days
waits 15 x 30 s in a real deployment. The lab sets the constant before the daemon starts
(REPARO_DAGSTER_DAEMON_INTERVAL, default 1 s); every other line that runs is Dagster's: the same backfill
iterations, the same run queue, run launcher and storage. docs/peers-lab.md gives the measurements.
"""

import os
import sys

import dagster._daemon.controller as controller

controller.DEFAULT_DAEMON_INTERVAL_SECONDS = int(os.environ.get("REPARO_DAGSTER_DAEMON_INTERVAL", "1"))

from dagster._daemon.cli import main  # noqa: E402  (after the constant is set)

if __name__ == "__main__":
    sys.exit(main())
