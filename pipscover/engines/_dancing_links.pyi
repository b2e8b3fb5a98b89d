"""Types of the compiled core (_dancing_links.c); pipscover.engines.dancing_links documents it."""

from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any

source_digest: str  # the SHA-256 of the _dancing_links.c it was built from

class Search(Iterator[list[int]]):
    def __init__(
        self, problem: Any, arrays: Sequence[Any], propagator: Any, tables: tuple[Any, ...] | None,
        deadline: float | None, restart_unit: float | None, reshuffle: Callable[[], None] | None, use_heap: bool,
        timeout_error: type[Exception], budget_error: type[Exception],
    ) -> None: ...
    def __next__(self) -> list[int]: ...
    def skip(self, most: int, /) -> int: ...

def links(item_count: int, options: Sequence[Sequence[int]], /) -> tuple[array[int], ...]: ...
