"""Running sweep jobs one after another in this process (`--jobs 1`): no Dask, nothing to start."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pipscover.sweep.jobs import Job, Row, Settings, run_job

WORKER = "in-process"


class InProcess:
    """The engine of `--jobs 1`: the same jobs and rows as on Dask, run here, in order."""

    workers = 1

    def __init__(self) -> None:
        self.running = 0

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def results(self, jobs: Sequence[Job], settings: Settings) -> Iterator[list[Row] | None]:
        """The rows of each job as it finishes."""
        for job in jobs:
            self.running = 1
            yield None  # shows the job as running
            rows = run_job(job, settings)
            self.running = 0
            yield [{**row, "worker": WORKER} for row in rows]
