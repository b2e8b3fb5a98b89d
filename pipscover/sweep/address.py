"""A Dask scheduler's address, checked before any work: the command line's `--scheduler` and the library's
`scheduler=` (`sweep`, `split_count.count_on_cluster`) refuse the same addresses in the same words."""

from __future__ import annotations

from pipscover.errors import PipsError, is_written_whole_number

PORTS = range(1, 2**16)
SCHEDULER_EXAMPLE = "as in tcp://10.0.0.5:8786"


def scheduler_problem(address: str) -> str | None:
    """Why `address` is no HOST:PORT after its scheme, or None: Dask's own reading said "invalid literal for
    int()" of a port that is no number, and dialled port 99999 or no host for ten seconds. A scheme Dask does
    not know is left to it: its refusal lists those it does.

    >>> scheduler_problem("tcp://10.0.0.5:8786") is None
    True
    >>> scheduler_problem("tcp://x:notaport")
    'must end in :PORT, a port from 1 to 65535, as in tcp://10.0.0.5:8786'
    """
    _, host, port = address_parts(address)
    if not is_written_whole_number(port) or int(port) not in PORTS:
        return f"must end in :PORT, a port from {PORTS[0]} to {PORTS[-1]}, {SCHEDULER_EXAMPLE}"
    if not host or (":" in host and not (host.startswith("[") and host.endswith("]"))):
        return f"must name a host before :PORT (an IPv6 one in brackets), {SCHEDULER_EXAMPLE} or tcp://[::1]:8786"
    return None


def address_parts(address: str) -> tuple[str, str, str]:
    """An address's scheme, host and port as written, unchecked (`scheduler_problem` checks them): the scheme
    empty when none is written, the port when no colon is.

    >>> address_parts("tcp://[::1]:8786"), address_parts("10.0.0.5")
    (('tcp', '[::1]', '8786'), ('', '', ''))
    """
    scheme, _, rest = address.rpartition("://")
    host, colon, port = rest.rpartition(":")
    return scheme, host, port if colon else ""


def check_scheduler(address: str | None) -> None:
    """`PipsError` for an `address` that `scheduler_problem` refuses, in the words the command line says it."""
    problem = None if address is None else scheduler_problem(address)
    if problem is not None:
        raise PipsError(f"--scheduler {address}: {problem}")
