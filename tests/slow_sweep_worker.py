"""A Dask worker preload for the sweep tests: every sweep job starts DELAY seconds late, so that a test can
kill a worker while it holds a job. The job itself runs the real code (`pipscover.sweep.jobs.run_job`)."""

import time

from pipscover.sweep import cluster

DELAY = 0.4
_run_job = cluster.run_job


def _late_run_job(job, settings):
    time.sleep(DELAY)
    return _run_job(job, settings)


def dask_setup(worker) -> None:
    cluster.run_job = _late_run_job
