"""Running sweep jobs on Dask distributed: a LocalCluster on this machine, or the cluster at a scheduler address.

Each job is one Dask task. Only this process writes the table, from results as they arrive, so a row is
written once: a job whose worker dies is run again by the scheduler on another worker (up to
`distributed.scheduler.allowed-failures` times; then its rows say `error`), and its rows still arrive here
once.

A count's tasks (`tasks(per_core=True)`) run no more at once than the cluster has cores (`DaskEngine.slots`:
per host, its workers' threads or its processors, whichever are fewer): a stock `dask worker` runs a thread
per core, so two of them on one machine run two tasks per core, and the counts' sweeps, which release the
GIL, then cost each other about half as much CPU again (a core's caches shared by two). Where the workers
have more threads than that when the count starts, each worker runs its tasks in turns, no more at once than
its share of its host's cores (`in_turn`, `CoreShares`), and the client keeps one task more sent than the
cores per worker that has a thread to spare (as counted at the last poll: a worker that joins takes tasks
from then on; one that leaves gives its tasks back to the scheduler, which runs them elsewhere): a worker
starts its next task the moment one ends, while the client sends the one after (a round trip through the
scheduler). To a host with more workers than cores the client sends only as many tasks as the cores, the
turns being of no use there. Else the client sends them all at once, as Dask does. A sweep's jobs are all
sent at once: most hold the GIL (two in one worker take turns), and each job's wait on the client (a round
trip through the scheduler) made a sweep of the NYT archive's 3 ms counts on two stock workers take twice as
long.

Ctrl-C: while the engine runs, SIGINT only sets a flag, which `results` turns into a KeyboardInterrupt between
polls. Raised at an arbitrary bytecode inside Dask's client code, a KeyboardInterrupt can leave a lock held that
the event-loop thread shares (as_completed's queue, the Event of every synchronous call); that thread runs the
client, the scheduler and the nannies of a LocalCluster, so it freezes, and the cancel and close that follow
wait forever. LocalCluster workers are started with Ctrl-C blocked: this process handles it, and kills them
(their unfinished jobs are of no use, and a graceful close would wait for them). The LocalCluster is started
by a thread that blocks SIGINT, so that the event-loop thread it starts, and the worker processes that
thread spawns, inherit the blocked signal, while the main thread keeps taking Ctrl-C; a Ctrl-C during the
start (a few seconds) kills the processes started so far and ends the sweep at once. A --scheduler's workers
are not this process's to kill, and Dask cannot stop a running task: a count's task, cancelled, stops itself at
its counter's next progress report (`stop_if_cancelled`); a sweep's job runs to its end.

Workers may be Dask's defaults, daemonic processes: a job with a time limit, and the SAT backends with one, run
in a process forked with `os.fork` (`pipscover.runtime.stoppable`), which multiprocessing's refusal of children
to daemonic processes does not touch.

Imported only when a sweep runs on Dask, so that `pipscover --help` does not pay for Dask.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager, suppress
from functools import partial
from itertools import islice
from multiprocessing import resource_tracker
from types import FrameType
from typing import Any, NamedTuple

import dask
from distributed import Client, Future, LocalCluster, as_completed, get_worker
from distributed.comm import get_address_host

from pipscover.errors import PipsError
from pipscover.runtime.deadlines import SearchTimeout, has_passed
from pipscover.sweep.address import address_parts
from pipscover.sweep.jobs import Job, Row, Settings, run_job, stubs

CONNECT_SECONDS = 10  # how long to try to reach a --scheduler
# How long a --scheduler that refuses the connection (nothing listens on its port) is tried again: a stock `dask
# scheduler` just started listens within half a second (0.37 s measured, idle), and a closed port (a typo, a
# scheduler not started) was tried for all of CONNECT_SECONDS.
REFUSED_SECONDS = 3
HANDSHAKE_SECONDS = 5  # and then how long to wait for its first answer
ABORT_SECONDS = 10  # how long a LocalCluster interrupted while it starts may take to fail
POLL_SECONDS = 0.5  # how often the running tasks and the workers are counted for the progress bar


class LostScheduler(PipsError):
    """The connection to the Dask scheduler broke while tasks ran."""


def run_on_worker(job: Job, settings: Settings) -> list[Row]:
    """The rows of one job, marked with the worker that ran it (what each Dask task runs)."""
    worker = get_worker().address
    return [{**row, "worker": worker} for row in run_job(job, settings)]


class Turns:
    """A worker's turns at its count's tasks: no more at once than its share of its host's cores, the others
    waiting (in the worker's threads) for one to end."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._taken = 0

    @contextmanager
    def one(self, share: int) -> Iterator[None]:
        """A turn, once fewer than `share` are taken."""
        with self._changed:
            self._changed.wait_for(lambda: self._taken < share)
            self._taken += 1
        try:
            yield
        finally:
            with self._changed:
                self._taken -= 1
                self._changed.notify_all()


_turns = Turns()  # on a worker: its count's tasks


def in_turn(function: Callable[..., Any], shares: dict[str, int], *arguments: Any, **common: Any) -> Any:
    """What a count's task runs on a worker with more threads than its share of the cores (`shares`, by worker;
    1 for a worker not counted yet): `function(*arguments, **common)` in its turn, or nothing if the count
    cancelled it meanwhile (Ctrl-C, the deadline: a task that waited is not run then)."""
    with _turns.one(shares.get(get_worker().address, 1)):
        if cancelled_here():
            return None
        return function(*arguments, **common)


class TaskCancelled(Exception):
    """Raised in a running task that its count cancelled (`stop_if_cancelled`); nobody reads its result."""


def cancelled_here() -> bool:
    """Whether the count cancelled the task this thread runs (Ctrl-C, the deadline, a worker past its memory
    cap, the client gone), as its worker was told: read on the worker, no message sent. False off a worker (a
    task function called in this process: nothing cancels it)."""
    try:
        worker = get_worker()
    except ValueError:
        return False
    task = worker.state.tasks.get(worker.get_current_task())
    return task is None or task.state == "cancelled"


def stop_if_cancelled(found: int = 0, share: float | None = None) -> None:
    """A count's task's progress callback, which its counter calls a few times a second: `TaskCancelled` once
    the count cancelled it. Dask cannot stop a running task: after Ctrl-C, a chunk of planted 6 x 8's sweep
    went on 32-56 s on a stock worker, which said it ran nothing, and its core was not free for the next count."""
    if cancelled_here():
        raise TaskCancelled


def worker_cores() -> list[int]:
    """The processors a worker may run on (asked of every worker: they bound the tasks sent at once)."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def worker_version() -> str:
    """The pipscover a worker runs (asked of a --scheduler's workers)."""
    from pipscover.version import __version__

    return __version__


class DaskEngine:
    """Jobs as Dask tasks on the cluster at `scheduler`, or on a LocalCluster of `workers` processes."""

    def __init__(self, scheduler: str | None, workers: int, deadline: float | None = None) -> None:
        self.scheduler, self.n_workers = scheduler, workers
        self.deadline = deadline  # a LocalCluster still starting then is given up (`SearchTimeout`)
        self.running, self.workers = 0, 0
        self.threads, self.slots = 0, 1  # the workers' threads, the tasks to run at once (`_count`)
        self.shares: dict[str, int] = {}  # each worker's share of `slots`, by address (`_count`)
        self.sent_at_once = 1  # the tasks of a count sent at a time (`_count`)
        self._cores: dict[str, list[int]] = {}  # each worker's, by address
        self._cluster: LocalCluster | None = None
        self._client: Client | None = None
        self._config: dask.config.set | None = None
        self._log_levels: dict[str, int] = {}
        self._previous_handler: Callable[[int, FrameType | None], Any] | int | None = None
        self._interrupted = False

    def __enter__(self) -> DaskEngine:
        self._log_levels = _silence_logs()
        self._previous_handler = signal.signal(signal.SIGINT, self._interrupt)
        try:
            self._start()
        except BaseException as error:
            self.__exit__(type(error))
            raise
        return self

    def _start(self) -> None:
        if self.scheduler is None:
            # For as long as the cluster lives: its nannies read it whenever they (re)start a worker. (No
            # profiler: it samples every worker thread every 10 ms, for a dashboard that is not there.)
            self._config = dask.config.set({"distributed.worker.profile.enabled": False})
            self._cluster = self._local_cluster()
            self._client = Client(self._cluster, set_as_default=False)
        else:
            self._client = _connect(self.scheduler)
        self._count()

    def _local_cluster(self) -> LocalCluster:
        """A LocalCluster started by a thread that blocks SIGINT (see the top); Ctrl-C meanwhile kills every
        process started so far and raises KeyboardInterrupt, and the deadline passed meanwhile `SearchTimeout`
        (its start, a second or two, ran past a --timeout that landed in it, and the first poll then said so)."""
        started: list[LocalCluster | BaseException] = []

        def start() -> None:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                # No dashboard; the scheduler's HTTP server (health, metrics), which this Dask always starts, on
                # a free port of this machine rather than 8787, so that a cluster already there is no matter.
                started.append(LocalCluster(n_workers=self.n_workers, threads_per_worker=1, processes=True,
                                            dashboard_address=None, silence_logs=logging.CRITICAL,
                                            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}))
            except BaseException as error:  # noqa: BLE001 - raised in the main thread
                started.append(error)

        # multiprocessing starts its resource tracker at the first spawn and then unblocks SIGINT in the
        # spawning thread; started here first, it leaves the starter's mask alone.
        resource_tracker.ensure_running()
        starter = threading.Thread(target=start, name="start LocalCluster", daemon=True)
        starter.start()
        while starter.is_alive():
            starter.join(0.05)
            if self._interrupted or has_passed(self.deadline):
                _kill_children()
                # Its workers dead, the start soon fails; a cluster left half-started would be closed (with a
                # traceback) by Dask's exit handler, one that started after all is closed by __exit__.
                starter.join(ABORT_SECONDS)
                if started and not isinstance(started[0], BaseException):
                    self._cluster = started[0]
                raise KeyboardInterrupt if self._interrupted else SearchTimeout()
        if isinstance(started[0], BaseException):
            raise started[0]
        return started[0]

    def __exit__(self, error_type: type | None, *exc: object) -> None:
        if self._cluster is not None and error_type is not None:  # Ctrl-C, or an error: stop the jobs at once
            for nanny in self._cluster.workers.values():
                nanny.close_gracefully()  # do not restart it
                if nanny.pid:
                    os.kill(nanny.pid, signal.SIGKILL)
        if self._client is not None:  # before its scheduler: closed after it, it logged the comm closed late
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        if self._config is not None:
            self._config.__exit__(None, None, None)
        for name, level in self._log_levels.items():
            logging.getLogger(name).setLevel(level)
        signal.signal(signal.SIGINT, self._previous_handler)

    def _interrupt(self, signum: int, frame: object) -> None:
        """The SIGINT handler while the engine runs: only a flag (no lock may be taken here, nor an exception
        raised into Dask's code)."""
        self._interrupted = True

    def results(self, jobs: Sequence[Job], settings: Settings) -> Iterator[list[Row] | None]:
        """The rows of each job as it finishes, and None every POLL_SECONDS for the progress bar."""
        labels = [f"{index}-{_label(job)}" for index, job in enumerate(jobs)]
        try:
            for finished in self.tasks("sweep", run_on_worker, [(job,) for job in jobs], labels, settings=settings):
                yield None if finished is None else _rows(*finished[1:], jobs[finished[0]], settings)
        except LostScheduler as lost:
            raise PipsError(f"{lost}; the rows written stay, and a rerun resumes") from None

    def tasks(self, name: str, function: Callable[..., Any], arguments: Sequence[tuple], labels: Sequence[str],
              per_core: bool = False, **common: Any) -> Iterator[tuple[int, str, Any] | None]:
        """`function(*arguments[i], **common)` for each i as one Dask task, keyed `name-RUN-labels[i]`: (i, the
        future's status, its result or error) as each finishes, once, and None every POLL_SECONDS (the running
        tasks, the workers and the cores are counted then). Sent in order; `per_core`, when the workers have
        more threads than the cluster has cores: each run in its worker's turns (`in_turn`), as many sent at a
        time as the cores and one more per worker with a thread to spare (`_room`), else all at once (the
        workers run no more than their threads, and start the next as soon as one ends). Ctrl-C raises
        KeyboardInterrupt here; the tasks not finished are cancelled on any exit (those not sent never exist),
        so a --scheduler's cluster is left as it was."""
        client = self._client
        assert client is not None  # connected by __enter__
        run = uuid.uuid4().hex[:8]  # task keys are unique to this run, readable on a dashboard
        unsent = iter(range(len(arguments)))
        futures: dict[Future, int] = {}
        # Results are gathered on the client's event loop as they come, and dropped (so is the future: the
        # worker may forget it) once handed over.
        finished = as_completed(loop=client.loop, with_results=True, raise_errors=False)
        ended = threading.Event()  # set (from Dask's threads) as a task ends, before its result is here
        # Decided once, at the start: tasks sent all at once cannot be taken back when the cluster later has more
        # threads than cores (a worker joins), nor held back then without a wait on the client between tasks.
        held = per_core and self.slots < self.threads

        def send() -> None:
            batch = list(islice(unsent, self._room(futures) if held else len(arguments)))
            if not batch:
                return
            run_it = partial(in_turn, function, dict(self.shares)) if held else function
            sent = client.map(run_it, *zip(*(arguments[index] for index in batch)), **common, pure=False,
                              key=[f"{name}-{run}-{labels[index]}" for index in batch])
            for index, future in zip(batch, sent, strict=True):
                future.add_done_callback(lambda _: ended.set())
                futures[future] = index
            finished.update(sent)

        polled = time.monotonic()
        try:
            while True:
                ended.clear()
                send()
                if not futures:
                    break
                if self._interrupted:
                    raise KeyboardInterrupt
                ready = finished.next_batch(block=False)
                for future, result in ready:
                    if future in futures:
                        yield (futures.pop(future), *outcome(result))
                if time.monotonic() - polled >= POLL_SECONDS:
                    polled = time.monotonic()
                    self._count()
                    yield None
                if not ready:
                    ended.wait(0.02)
        except (OSError, TimeoutError) as error:  # Dask's comm errors are OSErrors
            raise LostScheduler(f"lost the Dask scheduler ({error})") from None
        finally:
            with suppress(OSError, TimeoutError):
                client.cancel(list(futures))

    def _room(self, futures: dict[Future, int]) -> int:
        """How many more tasks may be sent now (`sent_at_once`: the cluster's cores, and one waiting its turn
        per worker that can hold one); a task counts until it ends (the next is sent then, before its result
        comes)."""
        return max(self.sent_at_once - sum(not future.done() for future in futures), 0)

    def scatter(self, value: Any) -> Future:
        """`value` sent once to every worker: the tasks given the future it returns get `value` there. A worker
        restarted (or joining) fetches it from another; the client's close releases it."""
        assert self._client is not None  # connected by __enter__
        return self._client.scatter(value, broadcast=True, hash=False)

    def backend(self) -> str:
        """How a count's answer names this engine."""
        return f"dask, {max(self.workers, 1)} workers"

    def run_on_workers(self, function: Callable[[], Any]) -> None:
        """`function()` on every worker now, outside the task graph (to drop what tasks kept); a worker that
        cannot be reached is left alone."""
        assert self._client is not None  # connected by __enter__
        with suppress(OSError, TimeoutError):
            self._client.run(function)

    def _count(self) -> None:
        """The workers, the tasks they run, their threads, and how a count's tasks are held to the cores
        (`CoreShares`). A worker's cores are asked of it once."""
        client = self._client
        assert client is not None  # connected by __enter__
        processing = client.processing()
        self.workers = len(processing)
        self.running = sum(len(keys) for keys in processing.values())
        threads = client.nthreads()
        unasked = [address for address in threads if address not in self._cores]
        if unasked:  # a worker that cannot answer now (gone, or not yet up) is asked again at the next poll
            self._cores.update(client.run(worker_cores, workers=unasked, on_error="ignore"))
        self.threads = sum(threads.values())
        held = CoreShares.of(threads, self._cores)
        self.slots, self.shares, self.sent_at_once = held.slots, held.shares, held.sent_at_once


class CoreShares(NamedTuple):
    """How a count's tasks are held to the cluster's cores (see the top)."""

    slots: int  # the tasks that run at once: per host, its workers' threads or its cores if fewer, summed (>= 1)
    shares: dict[str, int]  # each worker's share of its host's slots (`in_turn`), by address
    sent_at_once: int  # the tasks sent at a time: the slots, and one waiting its turn per worker that can hold one

    @classmethod
    def of(cls, threads: dict[str, int], cores: dict[str, list[int]]) -> CoreShares:
        """From each worker's threads and cores, by address. A host's slots are shared among its workers as
        evenly as they go, at most a worker's threads; where a host has more workers than slots (each gets
        one), the turns cannot hold them to the cores: the client sends only as many tasks as the slots."""
        workers_of: dict[str, list[str]] = defaultdict(list)
        for address in sorted(threads):
            workers_of[get_address_host(address)].append(address)
        shares: dict[str, int] = {}
        slots = 0
        for workers in workers_of.values():
            host_slots = min(sum(threads[address] for address in workers),
                             len({core for address in workers for core in cores.get(address, ())}))
            slots += host_slots
            for index, address in enumerate(workers):
                even = host_slots // len(workers) + (index < host_slots % len(workers))
                shares[address] = min(threads[address], max(even, 1))
        slots = max(slots, 1)
        if sum(shares.values()) > slots:
            return cls(slots, shares, slots)
        return cls(slots, shares, slots + sum(threads[address] > share for address, share in shares.items()))


def _listening(address: str) -> None:
    """`PipsError` once a tcp:// `address` has refused the connection for `REFUSED_SECONDS` (nothing listens on
    its port), or did not answer within `CONNECT_SECONDS`, or cannot be reached at all (a name that does not
    resolve, no route): Dask's connect tries again for all of CONNECT_SECONDS whatever the error. Another scheme
    (tls://) is left to Dask."""
    scheme, host, port = address_parts(address)
    if scheme not in ("", "tcp"):
        return
    refused_until = time.monotonic() + REFUSED_SECONDS
    while True:
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
            return
        except ConnectionRefusedError:
            if time.monotonic() >= refused_until:
                raise PipsError(f"--scheduler {address}: cannot connect: nothing listens there (connection refused "
                                f"for {REFUSED_SECONDS} s); start the scheduler first") from None
            time.sleep(0.1)
        except TimeoutError:  # (an OSError too, so first)
            raise PipsError(f"--scheduler {address}: no answer within {CONNECT_SECONDS} s") from None
        except OSError as error:
            raise PipsError(f"--scheduler {address}: cannot connect ({error})") from None


def _handshake(address: str) -> None:
    """Dask's handshake with `address`, bounded, or `PipsError`. Dask's client bounds the connection alone: it
    waited for ever on a server that takes the connection and says nothing (a web server waiting for a line),
    and read whatever another server said as Dask's (an HTTP answer's first bytes as a length, 3 EiB: a
    MemoryError's traceback)."""
    from distributed.comm import connect

    async def shake() -> None:
        comm = await connect(address, timeout=CONNECT_SECONDS)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(shake(), CONNECT_SECONDS + HANDSHAKE_SECONDS))
    except TimeoutError:  # (an OSError too, so first)
        raise PipsError(f"--scheduler {address}: no answer from a Dask scheduler within "
                        f"{CONNECT_SECONDS + HANDSHAKE_SECONDS} s") from None
    except (OSError, ValueError) as error:
        raise PipsError(f"--scheduler {address}: cannot connect ({error})") from None
    except Exception:  # noqa: BLE001 - whatever a server that is not Dask's makes the reader raise
        raise PipsError(f"--scheduler {address}: what answers there is not a Dask scheduler") from None


def _connect(address: str) -> Client:
    """A client of the scheduler at `address`, whose workers run this pipscover."""
    _listening(address)
    _handshake(address)
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise PipsError(f"--scheduler {address}: cannot connect ({error})") from None
    from pipscover.version import __version__

    try:
        versions = set(client.run(worker_version).values())
        if versions - {__version__}:
            raise PipsError(f"its workers run pipscover {sorted(versions)}, not {__version__}")
    except Exception as error:  # noqa: BLE001 - any failure here means the workers cannot run the jobs
        client.close()
        reason = error if isinstance(error, PipsError) else f"its workers cannot run pipscover: {error!r}"
        raise PipsError(f"--scheduler {address}: {reason}") from None
    return client


def outcome(result: Any) -> tuple[str, Any]:
    """A task's status and result from what `as_completed` gave: a cancelled task's CancelledError, a failed
    one's (type, exception, traceback), else its result. Not from the future's status, which may have moved
    on since: a task whose worker died after it finished is "lost" or "pending" again (Dask would compute it
    again), and its result stands (a split count once failed on "a task failed on the cluster: [0]")."""
    if isinstance(result, CancelledError):
        return "cancelled", result
    if isinstance(result, tuple) and len(result) == 3 and isinstance(result[1], BaseException):
        return "error", result[1]
    return "finished", result


def _rows(status: str, result: Any, job: Job, settings: Settings) -> list[Row]:
    """The rows a task returned; if it failed on Dask's side (its workers kept dying), rows saying so."""
    if status == "finished":
        return result
    if status == "cancelled":  # by the scheduler, when it is lost: the job never ran, no row to write
        raise PipsError("lost the Dask scheduler (it cancelled the jobs); the rows written stay, and a rerun resumes")
    error = result
    return [{**stub, "status": "error", "error": repr(error)} for stub in stubs(job, settings)]


def _label(job: Job) -> str:
    return f"seed {job.seed}" if job.puzzle is None else job.puzzle.describe()


def _silence_logs() -> dict[str, int]:
    """Quiet Dask's and tornado's loggers (their errors reach the user as rows or a PipsError instead); the
    levels they had, to restore."""
    names = ["distributed", "tornado", *(name for name in logging.root.manager.loggerDict
                                         if name.startswith(("distributed.", "tornado.")))]
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    return levels


def _kill_children() -> None:
    """Kill every process this one started, and theirs (a LocalCluster interrupted while it starts), but
    multiprocessing's resource tracker, which ends with this process and, killed, is started again only to
    complain about the semaphores it no longer knows."""
    import psutil  # a dependency of distributed

    for child in psutil.Process().children(recursive=True):
        with suppress(psutil.Error):
            if "resource_tracker" not in " ".join(child.cmdline()):
                child.kill()
