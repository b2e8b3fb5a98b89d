"""Dancing Links: Knuth's Algorithm M (exact cover with item multiplicities), iterative, with a pruning hook.

The engine knows nothing about Pips. It covers items 0..n-1 (item i exactly `multiplicity[i]` times) with
options (tuples of item numbers) and lets a `Propagator` veto a partial solution or hide options that can no
longer be used, so the remaining-values count it branches on is the true one.

Node layout (as in Knuth's dlx1, in flat lists of ints rather than objects, because that is what is fast in
Python). Nodes 1..n are the item headers (item i is node i+1); node 0 is the root of the circular list of the
items still to cover, linked by `left`/`right`. Every option node follows, one per (option, item); `up`/`down`
link the nodes of one item into a circular list through its header, `top` names a node's header, and
`length[header]` counts the nodes in its list. Instead of Knuth's spacer nodes, `members[option]` lists the
nodes of each option and `option_of[node]` names a node's option: a tuple walk is the fast loop in Python.

The order of the dance. cover(i) unlinks i from the item list and, going down i's list, hides every option
there: its other nodes leave their items' lists (top to bottom, so each option's nodes are unlinked before the
next option's). uncover(i) does exactly the reverse: up i's list, unhide each option, then relink i. Every
removal keeps the removed node's own links, so restoring in the reverse order puts each node back in place.
Choosing an option uses each of its other items once and covers an item when its multiplicity is used up;
undoing walks the same items backwards. Options hidden by the propagator are unlinked from all of their items
after that, and relinked before it, so all changes to every list stay last-in first-out.

Restarts (optional, `restart_seed`): a search that has found nothing after a budget of search nodes goes back
to the root (undoing every level as backtracking would) and starts again with each item's options and the
items themselves in a new random order, from `random.Random(restart_seed)`, keeping the failure weights. The
budgets follow Luby's sequence (1, 1, 2, 1, 1, 2, 4, ...) times `RESTART_UNIT` search nodes per item. The
first run keeps the given order. Once a run finds a cover it runs to its end without a budget, and a run
that ends within its budget is a complete search too, so every cover is still found exactly once. (Measured on
planted boards: the time to a first cover is heavy-tailed in the order of the options, the usual case for
restarts; see encodings/exact-cover.md.)

Item choice: minimum remaining values, where an item's count is its options minus the uses it still needs,
plus one (a count of 0 means a dead end, 1 a forced move, taken at once). Among the others the engine takes
the smallest count divided by a failure weight (dom/wdeg, Boussemart et al. 2004): an item's weight grows
each time it is found empty or a choice on it is vetoed, and the item branched on just before a dead end is
blamed too, so the search turns to the items that keep failing. (Measured: generated puzzles on which plain
MRV thrashed for seconds solve in tens of milliseconds, and the NYT puzzles get a little faster.) Any choice
of item is correct. Branching on an item still needed `m > 1` times tries each option in turn and then hides
it for the later branches (Knuth's MCC "tweak"), so every solution is found exactly once.

Finding that item by a scan of the items left costs a step per item at every search node, so on a long board
(a 2 x 100,000 strip: 200,001 items, 100,000 nodes) the scan alone was quadratic. Above `SCAN_LIMIT` items
the search keeps the items in a heap instead, keyed by (count / weight, place in the item list), and updates
it lazily: cover, uncover, hide and the weight and multiplicity changes only log what they touched (one
append per call, not per node unlinked); at the next choice the items whose count may have fallen get a
fresh entry, and an entry found out of date when it comes to the top is replaced or, for a covered item,
dropped. Both ways choose the same item (ties go to the item earlier in the list), so they visit the same
nodes; below the limit the scan is the cheaper.

The steps follow Knuth's Algorithm M (TAOCP 7.2.2.1, exact covering with multiplicities, here without
colours) and carry its labels M1-M9 (see `_Search`); what Algorithm M does not have (the propagator, the
failure weights, restarts, the deadline and the node budget) is named for what it is and has no M-number.
The compiled core (`_dancing_links.c`, built by `pip install`) runs this same search in C, step for step and
with the same labels, over these lists turned into shared arrays of C ints, with the region pruner inside
it: it is the default, about ten times faster, and finds the same covers in the same order with the same
node counts; this module's search is its twin and its fallback, and the tests run both
(encodings/exact-cover.md says why C).
"""

from __future__ import annotations

import heapq
import random
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from functools import cached_property, partial
from itertools import islice
from typing import TYPE_CHECKING, Any, Protocol

from pipscover.runtime.cores import compiled_by_default as cores_by_default
from pipscover.runtime.cores import load_core
from pipscover.runtime.deadlines import SearchTimeout, has_passed

if TYPE_CHECKING:
    from pipscover.engines._dancing_links import Search

CompiledSearch: type[Search] | None
compiled_links: Callable[[int, Sequence[Sequence[int]]], tuple[array, ...]] | None
# The compiled core (_dancing_links.c), built by `pip install`; the Python search below is its twin.
_core = load_core("pipscover.engines._dancing_links", "the Python search (about ten times slower)")
CompiledSearch, compiled_links = (_core.Search, _core.links) if _core is not None else (None, None)

# Search nodes between two looks at the clock and the node budget (the first node looks too): cheap, and a
# few ms apart at most.
DEADLINE_CHECK_INTERVAL = 256
# With restarts, run i of a search may visit luby(i) * RESTART_UNIT * (number of items) search nodes.
RESTART_UNIT = 2
# Items above which the search chooses its item from a heap rather than by a scan (see the top). Where the
# heap pays depends on the work per node (CPU, first cover): on the NYT hard puzzles (under 100 items) and
# planted 12 x 12 to 20 x 20 boards (200 to 450 items), whose placements hide many options, the heap is 1.5 to
# 1.8 times slower than the scan; on 2 x N open strips, whose nodes are cheap, 4.6 times faster at 1,001
# items (5 ms against 23 ms) and 12 times at 4,001.
SCAN_LIMIT = 1_000


class NodeBudgetExceeded(Exception):
    """A search passed its `node_limit` (a count of search nodes, so where it stops does not depend on time)."""


class Propagator(Protocol):
    """Problem-specific pruning, told of every option the search chooses and un-chooses (last-in first-out)."""

    def choose(self, option: int) -> Sequence[int] | None:
        """Record `option` as chosen; return the options that can no longer be used (some may already be gone),
        or None when no solution extends the partial one. `unchoose(option)` follows in both cases."""

    def unchoose(self, option: int) -> None:
        """Forget the most recent `choose(option)`."""


def compiled_by_default() -> bool:
    """Whether searches run in the compiled core: when it is built, unless `PIPSCOVER_PURE_PYTHON` is set."""
    return CompiledSearch is not None and cores_by_default()


def luby(index: int) -> int:
    """The `index`-th term (from 1) of Luby's restart sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    >>> [luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    while True:
        power = 1
        while power * 2 - 1 < index:
            power *= 2
        if index == power * 2 - 1:
            return power
        index -= power - 1


def covers(
    item_count: int,
    options: Sequence[Sequence[int]],
    multiplicity: Sequence[int] | None = None,
    propagator: Propagator | None = None,
    deadline: float | None = None,
) -> Iterator[list[int]]:
    """Every exact cover of items 0..item_count-1 by `options`, lazily (see `ExactCoverProblem.search`).

    >>> sorted(sorted(cover) for cover in covers(3, [(0, 1), (2,), (1, 2), (0,)]))
    [[0, 1], [2, 3]]
    >>> sorted(sorted(cover) for cover in covers(1, [(0,), (0,), (0,)], multiplicity=[2]))
    [[0, 1], [0, 2], [1, 2]]
    """
    return ExactCoverProblem(item_count, options, multiplicity).search(propagator, deadline)


def skip(covers: Iterator[list[int]], most: int) -> int:
    """Search on past up to `most` of a search's covers without handing them over; how many it passed (fewer
    when the search ended). A count that needs only the number spends no time on the covers; when a limit
    stops it midway, its problem's `found` says how many there were.

    >>> search = ExactCoverProblem(1, [(0,)] * 5).search()
    >>> skip(search, 3), skip(search, 3)
    (3, 2)
    """
    passing = getattr(covers, "skip", None)  # the compiled search skips in C
    return passing(most) if passing else sum(1 for _ in islice(covers, most))


def python_links(item_count: int, options: Sequence[Sequence[int]]) -> tuple[list[int], ...]:
    """The lists of a new problem (see the top: left, right, top, up, down, length, option_of): the item
    headers, then each option's nodes appended at the bottom of their items' lists, option by option.

    >>> python_links(2, [(0, 1), (1,)])[2:5]  # top, up, down
    ([0, 1, 2, 1, 2, 2], [0, 3, 5, 1, 2, 4], [0, 3, 4, 1, 5, 2])
    """
    headers = item_count + 1
    left = [i - 1 for i in range(headers)]
    right = [i + 1 for i in range(headers)]
    left[0], right[-1] = item_count, 0
    top = list(range(headers))
    up = list(range(headers))
    down = list(range(headers))
    length = [0] * headers
    option_of = [-1] * headers
    node = headers
    for index, items in enumerate(options):
        for item in items:
            header = item + 1
            top.append(header)
            option_of.append(index)
            up.append(up[header])
            down.append(header)
            down[up[header]] = node
            up[header] = node
            length[header] += 1
            node += 1
    return left, right, top, up, down, length, option_of


class ExactCoverProblem:
    """The linked lists of one exact cover problem; `search` them once (an abandoned search leaves them
    as they were at that moment, so a second search raises `RuntimeError`).

    `options[i]` lists distinct item numbers; `multiplicity[j]` >= 1 (default 1) is how many chosen options
    must contain item j.
    """

    # Lists, or arrays of C ints when the compiled core built them (the same values).
    left: MutableSequence[int]
    right: MutableSequence[int]
    top: MutableSequence[int]
    up: MutableSequence[int]
    down: MutableSequence[int]
    length: MutableSequence[int]
    option_of: MutableSequence[int]

    def __init__(
        self,
        item_count: int,
        options: Sequence[Sequence[int]],
        multiplicity: Sequence[int] | None = None,
    ) -> None:
        self.options = options
        # The compiled core builds the same lists as `python_links`, as the arrays its search dances on.
        build = compiled_links if compiled_links is not None and compiled_by_default() else python_links
        self.left, self.right, self.top, self.up, self.down, self.length, self.option_of = build(item_count, options)
        # An item's uses still needed, by header; and whether each option is out of the lists.
        self.needed = [0, *(multiplicity or [1] * item_count)]
        if len(self.needed) != item_count + 1 or min(self.needed[1:], default=1) < 1:
            raise ValueError("give every item a multiplicity of at least 1")
        self.gone = [False] * len(options)
        self.searched = False
        self.nodes = 0
        self.found = 0
        self.node_limit: int | None = None

    @cached_property
    def members(self) -> list[tuple[int, ...]]:
        """The nodes of each option, in order (the Python search walks them; the compiled one needs none)."""
        members: list[list[int]] = [[] for _ in self.options]
        for node in range(len(self.left), len(self.top)):
            members[self.option_of[node]].append(node)
        return [tuple(nodes) for nodes in members]

    def sanity(self) -> list[str]:
        """Knuth's sanity(): what is wrong with the lists of the items still to cover (empty when nothing).

        The item list and each such item's node list must be circular doubly linked lists, every node must
        name its list's header and belong to an option still in play, and each header must count its nodes.
        Covered items' lists are left as they were when covered, as the dance wants, and are not checked.
        The tests call it during and after searches; it is the first thing to run when changing the dance.
        """
        left, right, up, down, top, length = self.left, self.right, self.up, self.down, self.top, self.length
        found = []
        item = right[0]
        while item != 0:
            if left[right[item]] != item or right[left[item]] != item:
                found.append(f"item {item - 1}: its neighbours in the item list do not point back to it")
            nodes, node = 0, down[item]
            while node != item:
                if up[down[node]] != node or down[up[node]] != node:
                    found.append(f"item {item - 1}: node {node}'s neighbours do not point back to it")
                if top[node] != item:
                    found.append(f"item {item - 1}: node {node} names item {top[node] - 1}")
                if self.gone[self.option_of[node]]:
                    found.append(
                        f"item {item - 1}: node {node} belongs to option {self.option_of[node]}, which is hidden"
                    )
                nodes += 1
                node = down[node]
                if nodes > len(top):
                    found.append(f"item {item - 1}: its node list does not come back to the header")
                    break
            if nodes != length[item]:
                found.append(f"item {item - 1}: the header counts {length[item]} nodes, the list has {nodes}")
            item = right[item]
        return found

    def search(
        self,
        propagator: Propagator | None = None,
        deadline: float | None = None,
        node_limit: int | None = None,
        restart_seed: int | None = None,
        item_heap: bool | None = None,
        compiled: bool | None = None,
    ) -> Iterator[list[int]]:
        """Every exact cover, as the list of its option numbers in the order they were chosen, lazily.

        With `restart_seed`, the search restarts in a new random order (drawn from that seed) after Luby
        budgets of search nodes until it finds a cover; the covers, and `nodes`, stay deterministic.

        Raises `SearchTimeout` once `time.monotonic()` passes `deadline`, and `NodeBudgetExceeded` once more
        than `node_limit` search nodes were visited (both checked every `DEADLINE_CHECK_INTERVAL` nodes, so
        a search may pass its node limit by that many). `self.nodes` holds the search nodes visited so far
        (brought up to date at every cover found and when the search ends or stops): a search node is the
        root or a partial cover the propagator accepted, i.e. one per option tried and not vetoed, plus one.
        It depends only on the problem, never on the clock, so it measures how hard the search was.
        `self.found` counts the covers found so far, kept up to date as `nodes` is (see `skip`).
        `self.node_limit` may be lifted (set to None) while the search runs, e.g. once a first cover is found.
        `item_heap` chooses items from a heap (True) or by a scan (False); by default, the heap above
        `SCAN_LIMIT` items. Both choose the same items.

        `compiled` runs the search in the compiled core (default: `compiled_by_default()`), which visits the
        same nodes and finds the same covers in the same order. A propagator with `compiled_tables()` (the
        region pruner) then runs inside it too; any other is called back.
        """
        if self.searched:
            raise RuntimeError("an ExactCoverProblem can be searched once; build a new one")
        self.searched = True
        self.node_limit = node_limit
        use_heap = len(self.left) - 1 > SCAN_LIMIT if item_heap is None else item_heap
        if compiled_by_default() if compiled is None else compiled:
            return self._compiled_search(propagator, deadline, restart_seed, use_heap)
        return self._search(propagator, deadline, restart_seed, use_heap)

    def _compiled_search(self, propagator: Propagator | None, deadline: float | None, restart_seed: int | None,
                         use_heap: bool) -> Iterator[list[int]]:
        """The search in the compiled core, over the problem's lists turned into arrays of C ints (which it
        shares: `sanity()` and the restarts' shuffle read and write them as it runs)."""
        if CompiledSearch is None:
            raise RuntimeError("the compiled Dancing Links core is not built (pip install -e . builds it)")
        for name in ("left", "right", "top", "up", "down", "length", "option_of", "needed", "gone"):
            if not isinstance(getattr(self, name), array):
                setattr(self, name, array("i", getattr(self, name)))
        tables = getattr(propagator, "compiled_tables", lambda: None)()
        reshuffle = None if restart_seed is None else partial(_shuffle, self, random.Random(restart_seed))
        return CompiledSearch(
            self, (self.left, self.right, self.top, self.up, self.down, self.length, self.option_of, self.needed,
                   self.gone),
            propagator, tables, deadline, None if reshuffle is None else float(RESTART_UNIT),
            reshuffle, use_heap, SearchTimeout, NodeBudgetExceeded,
        )

    def _search(self, propagator: Propagator | None, deadline: float | None, restart_seed: int | None,
                use_heap: bool) -> Iterator[list[int]]:
        """The search in Python: `_Search`, the compiled core's twin."""
        return _Search(self, propagator, deadline, restart_seed, use_heap).covers()


class _Search:
    """One search in Python, step for step the compiled core's, its steps named and labelled after Knuth's
    Algorithm M as there:

    - M1 initialise: `__init__`;
    - M2 enter a level (a search node; a cover when no item is left): the loop of `covers`;
    - M3 choose an item: `_ItemScan.choice` or `_ItemHeap.choice`; an item with no option left ends the level
      (`dead_end`, then M9);
    - M4 prepare to branch on it: `enter_level`;
    - M5 possibly tweak (hide an option of an item needed more than once for the later branches) and
      M6 try the option (`use_others`): `try_option`, reached through `next_option`;
    - M7 try again: `retract`, then `next_option` goes on to the next option;
    - M8 restore the item: `leave`; M9 leave the level: `next_option` pops it, and `covers` ends at the root.

    What Algorithm M does not have is named for what it is and has no M-number: the propagator (`propagate`,
    and its undoing in `retract`), the failure weights (`blame`, `dead_end`: dom/wdeg), randomised restarts
    (`restart`, `unwind`) and the limits (`check_limits`: the deadline and the node budget). Under the steps,
    the dance: `cover`, `uncover`, `hide`, `unhide_since`, `use_others`, `unuse_others`.

    `frames` has one per level: [item branched on, node of the option being tried, trail length before the
    propagator's hidden options, and the options tried so far when the item was needed more than once (they
    stay hidden for the later branches) or None]. `trail` lists the options the propagator hid and `weight`
    each item's failures (dom/wdeg).
    """

    def __init__(self, problem: ExactCoverProblem, propagator: Propagator | None, deadline: float | None,
                 restart_seed: int | None, use_heap: bool) -> None:
        """M1: set up over the problem's lists (which `python_links` or the core's `links` built)."""
        self.problem = problem
        self.left, self.right, self.top, self.up = problem.left, problem.right, problem.top, problem.up
        self.down, self.length, self.option_of = problem.down, problem.length, problem.option_of
        self.members, self.needed, self.gone = problem.members, problem.needed, problem.gone
        self.links = (self.up, self.down, self.length, self.top)  # what the dance unlinks and relinks
        self.choose = None if propagator is None else propagator.choose
        self.unchoose = None if propagator is None else propagator.unchoose
        self.deadline = deadline
        self.rng = None if restart_seed is None else random.Random(restart_seed)
        self.runs = 1
        self.weight = [1] * len(self.left)
        self.frames: list[list[Any]] = []
        self.trail: list[int] = []
        # What changed since the last item choice, for the heap: the items covered (the other items of their
        # options lost a node), the options hidden (their items lost one), and the items uncovered, reweighted
        # or needed once more. The scan reads none of it, so its logs are deques of length 0, which drop what
        # is appended, at the cost of a list's append.
        log: Callable[[], MutableSequence[int]] = list if use_heap else partial(deque, maxlen=0)
        self.covered_log: MutableSequence[int] = log()
        self.hidden_log: MutableSequence[int] = log()
        self.changed_log: MutableSequence[int] = log()
        self.items: _ItemHeap | _ItemScan = _ItemHeap(self) if use_heap else _ItemScan(self)

    def covers(self) -> Iterator[list[int]]:
        """Every cover, as the options chosen in order. The loop is M2 (and M9 at the root) and calls the
        other steps; what it alone changes (the search nodes so far, the run's node budget, whether the last
        step reached a new node) it keeps in local variables, the fast place in Python."""
        problem, frames, right, option_of = self.problem, self.frames, self.right, self.option_of
        choose_item, enter_level, next_option = self.items.choice, self.enter_level, self.next_option
        watched = self.deadline is not None or problem.node_limit is not None
        run_limit = None if self.rng is None else RESTART_UNIT * (len(right) - 1)
        nodes, descend = 0, True
        while True:
            if descend:
                nodes += 1  # M2: a new search node
                if run_limit is not None and nodes > run_limit:
                    run_limit = self.restart(nodes)
                if watched and nodes % DEADLINE_CHECK_INTERVAL == 1:
                    self.check_limits(nodes)
                if right[0] == 0:  # M2: no item left, a cover (then M9, as after a dead end)
                    problem.nodes, problem.found = nodes, problem.found + 1
                    run_limit = None  # this run is now the complete search
                    yield [option_of[frame[1]] for frame in frames]
                else:
                    enter_level(choose_item())  # M3, M4
            if not frames:  # M9 at the root: the run searched every branch within its budget
                problem.nodes = nodes
                return
            descend = next_option()  # M7, then M5 and M6 (or M8 and M9)

    # ---------------------------------------------------------------- the steps

    def enter_level(self, item: int) -> None:
        """M4: prepare to branch on `item`, the item M3 chose: cover it when it is needed once more only, or
        branch on its uses when it is needed more than once. With no option left, M3 ends the level instead
        (`dead_end`, then M9)."""
        needed = self.needed[item]
        if self.length[item] - needed + 1 <= 0:
            self.dead_end(item)
            return
        if needed == 1:
            self.cover(item)
        self.frames.append([item, item, len(self.trail), [] if needed > 1 else None])

    def dead_end(self, item: int) -> None:
        """M3 met `item` with no option left (the level ends, M9); and, not in Algorithm M, blame it and the
        choice that led here (dom/wdeg)."""
        self.blame(item)
        if self.frames:
            self.blame(self.frames[-1][0])

    def blame(self, item: int) -> None:
        """One more failure for `item`: the item choice (M3) turns to it sooner (dom/wdeg, not in Algorithm M)."""
        self.weight[item] += 1
        self.changed_log.append(item)

    def next_option(self) -> bool:
        """M7 at the deepest level (undo the option tried last, `retract`) and on to its item's next option
        (the first one, on a level M4 just entered): M5 and M6 on it (`try_option`); M8 and M9 when none is
        left. Whether it reached a new search node."""
        frame = self.frames[-1]
        item, node, mark, tried = frame
        if node != item:
            self.retract(item, node, mark, tried)
        node = frame[1] = self.down[node]
        if node == item:
            self.leave(item, tried)
            self.frames.pop()
            return False
        return self.try_option(item, node, tried)

    def try_option(self, item: int, node: int, tried: list[int] | None) -> bool:
        """M5: when `item` is needed more than once, hide the option of `node` for the later branches (Knuth's
        tweak) and count one use of `item`; M6: use the option's other items. Then, not in Algorithm M, ask
        the propagator, whose veto blames `item`. Whether the option holds (the search then enters M2)."""
        option = self.option_of[node]
        if tried is not None:
            self.hide((option,), tried)
            self.needed[item] -= 1
        self.use_others(node)
        if self.propagate(option):
            return True
        self.blame(item)
        return False

    def propagate(self, option: int) -> bool:
        """Not in Algorithm M: whether the propagator accepts `option`; the options it rules out are hidden
        (those still in play, kept on the trail for `retract`)."""
        if self.choose is None:
            return True
        hidden = self.choose(option)
        if hidden is None:
            return False
        self.hide(hidden, self.trail)
        return True

    def retract(self, item: int, node: int, mark: int, tried: list[int] | None) -> None:
        """M7, its undoing: the option of `node`, tried last at the level that branched on `item`, taken
        back (the propagator's hidden options and its record first, then M6 and M5 backwards)."""
        self.unhide_since(self.trail, mark)
        if self.unchoose is not None:
            self.unchoose(self.option_of[node])
        self.unuse_others(node)
        if tried is not None:
            self.needed[item] += 1
            self.changed_log.append(item)

    def leave(self, item: int, tried: list[int] | None) -> None:
        """M8: restore `item` once every option of it was tried: uncover it, or bring back the options
        tried (Knuth's untweak)."""
        if tried is not None:
            self.unhide_since(tried, 0)
        else:
            self.uncover(item)

    def restart(self, nodes: int) -> int:
        """A randomised restart (not in Algorithm M): after a run's budget, back to the root and a new random
        order; the next run's node budget (a Luby term's worth more)."""
        assert self.rng is not None  # a run has a budget only with restarts
        self.unwind()
        _shuffle(self.problem, self.rng)
        self.items.restarted()
        self.runs += 1
        return nodes + luby(self.runs) * RESTART_UNIT * (len(self.left) - 1)

    def unwind(self) -> None:
        """Back to the root, undoing every level in the order backtracking would."""
        frames = self.frames
        while frames:
            item, node, mark, tried = frames.pop()
            if node != item:
                self.retract(item, node, mark, tried)
            self.leave(item, tried)

    def check_limits(self, nodes: int) -> None:
        """The limits (not in Algorithm M): stop when the clock passed the deadline or the search its node
        budget (which may be lifted while it runs)."""
        problem = self.problem
        if has_passed(self.deadline):
            problem.nodes = nodes
            raise SearchTimeout
        if problem.node_limit is not None and nodes > problem.node_limit:
            problem.nodes = nodes
            raise NodeBudgetExceeded

    # ---------------------------------------------------------------- the dance

    def cover(self, item: int) -> None:
        """Unlink `item` from the item list and hide every option in its list from their other items."""
        up, down, length, top = self.links
        members, option_of, gone = self.members, self.option_of, self.gone
        self.covered_log.append(item)
        node = down[item]
        while node != item:
            option = option_of[node]
            for other in members[option]:
                if other != node:
                    above, below = up[other], down[other]
                    down[above] = below
                    up[below] = above
                    length[top[other]] -= 1
            gone[option] = True
            node = down[node]
        left, right = self.left, self.right
        before, after = left[item], right[item]
        right[before] = after
        left[after] = before

    def uncover(self, item: int) -> None:
        """`cover(item)` undone, in the reverse order."""
        up, down, length, top = self.links
        members, option_of, gone = self.members, self.option_of, self.gone
        self.changed_log.append(item)
        left, right = self.left, self.right
        before, after = left[item], right[item]
        right[before] = item
        left[after] = item
        node = up[item]
        while node != item:
            option = option_of[node]
            for other in members[option]:
                if other != node:
                    down[up[other]] = other
                    up[down[other]] = other
                    length[top[other]] += 1
            gone[option] = False
            node = up[node]

    def hide(self, options: Iterable[int], onto: list[int]) -> None:
        """Unlink every node of each of `options` still in play from its item's list, and put the option on
        `onto` (the trail, or the options tried at a level), for `unhide_since`."""
        up, down, length, top = self.links
        members, gone = self.members, self.gone
        hidden_log = self.hidden_log
        for option in options:
            if gone[option]:
                continue
            hidden_log.append(option)
            for node in members[option]:
                above, below = up[node], down[node]
                down[above] = below
                up[below] = above
                length[top[node]] -= 1
            gone[option] = True
            onto.append(option)

    def unhide_since(self, hidden: list[int], mark: int) -> None:
        """`hide` undone for the options on `hidden` past its first `mark`, the last hidden first."""
        up, down, length, top = self.links
        members, gone = self.members, self.gone
        while len(hidden) > mark:
            option = hidden.pop()
            for node in members[option]:
                down[up[node]] = node
                up[down[node]] = node
                length[top[node]] += 1
            gone[option] = False

    def use_others(self, node: int) -> None:
        """M6: the option at `node` uses each of its other items once; an item used up is covered."""
        top, needed = self.top, self.needed
        for other in self.members[self.option_of[node]]:
            if other != node:
                item = top[other]
                needed[item] -= 1
                if needed[item] == 0:
                    self.cover(item)

    def unuse_others(self, node: int) -> None:
        """`use_others(node)` undone, backwards."""
        top, needed, changed_log = self.top, self.needed, self.changed_log
        for other in reversed(self.members[self.option_of[node]]):
            if other != node:
                item = top[other]
                if needed[item] == 0:
                    self.uncover(item)
                needed[item] += 1
                changed_log.append(item)


class _ItemScan:
    """M3 by a scan of the items left: minimum remaining values (Knuth's branching degree), the first count of
    0 or 1 at once, else the smallest count per unit of failure weight (dom/wdeg, not in Algorithm M)."""

    def __init__(self, search: _Search) -> None:
        # The lists it reads, not the search (which holds this: no reference cycle left for the collector).
        self.right, self.length, self.needed, self.weight = search.right, search.length, search.needed, search.weight

    def restarted(self) -> None:
        """Nothing to redo after a restart: the scan reads the lists as they are."""

    def choice(self) -> int:
        right, length, needed, weight = self.right, self.length, self.needed, self.weight
        best, best_count, best_weight = 0, -1, 1
        item = right[0]
        while item != 0:
            count = length[item] - needed[item] + 1
            if count <= 1:
                return item
            # Smallest count / weight, compared without division.
            if best_count < 0 or count * best_weight < best_count * weight[item]:
                best, best_count, best_weight = item, count, weight[item]
            item = right[item]
        return best


class _ItemHeap:
    """M3 from a heap of the items left, keyed by (count / weight, place in the item list) and brought up to
    date lazily from the search's logs (see the module's top): it chooses the item the scan would."""

    def __init__(self, search: _Search) -> None:
        # The lists it reads, not the search (which holds this: no reference cycle left for the collector).
        self.left, self.right, self.length, self.needed = search.left, search.right, search.length, search.needed
        self.weight, self.down, self.top = search.weight, search.down, search.top
        self.members, self.option_of = search.members, search.option_of
        self.covered_log, self.hidden_log, self.changed_log = search.covered_log, search.hidden_log, search.changed_log
        self.heap: list[tuple[float, int, int]] = []
        self.rank = [0] * len(search.left)
        self.restarted()

    def restarted(self) -> None:
        """Number the items by their place in the (new) item list, all linked at the root: the tie-break;
        then a fresh heap."""
        right, rank = self.right, self.rank
        item, place = right[0], 0
        while item != 0:
            rank[item] = place
            item, place = right[item], place + 1
        self.fill()

    def key(self, item: int) -> float:
        """An item's place in the heap: its count per unit of weight, 0 for a dead end or a forced move."""
        count = self.length[item] - self.needed[item] + 1
        return 0.0 if count <= 1 else count / self.weight[item]

    def fill(self) -> None:
        """A fresh heap of the items left, each with its place in the item list."""
        heap = self.heap
        heap.clear()
        right = self.right
        item = right[0]
        while item != 0:
            heap.append((self.key(item), self.rank[item], item))
            item = right[item]
        heapq.heapify(heap)
        self.covered_log.clear()
        self.hidden_log.clear()
        self.changed_log.clear()

    def refresh(self, item: int) -> None:
        """A new entry for `item`, if it is still to cover."""
        right, left = self.right, self.left
        if right[left[item]] == item:
            heapq.heappush(self.heap, (self.key(item), self.rank[item], item))

    def choice(self) -> int:
        """The first item by (key, place), once the heap has caught up with the logs."""
        self.catch_up()
        heap = self.heap
        left, right = self.left, self.right
        while True:
            entry_key, _, item = heap[0]
            if right[left[item]] != item:  # covered since
                heapq.heappop(heap)
                continue
            now = self.key(item)
            if now == entry_key:
                return item
            heapq.heapreplace(heap, (now, self.rank[item], item))

    def catch_up(self) -> None:
        """Fresh entries for the items whose count may have fallen since the last choice, as the logs say."""
        refresh = self.refresh
        down, top, members, option_of = self.down, self.top, self.members, self.option_of
        for item in self.covered_log:
            node = down[item]  # a covered item's own list stays as it was
            while node != item:
                for other in members[option_of[node]]:
                    if other != node:
                        refresh(top[other])
                node = down[node]
        for option in self.hidden_log:
            for node in members[option]:
                refresh(top[node])
        for item in self.changed_log:
            refresh(item)
        self.covered_log.clear()
        self.hidden_log.clear()
        self.changed_log.clear()
        if len(self.heap) > 4 * len(self.left):  # mostly out-of-date entries: start afresh
            self.fill()


def _shuffle(problem: ExactCoverProblem, rng: random.Random) -> None:
    """Relink every item's options, and the items, in a random order (at the root, with all linked)."""
    left, right, up, down = problem.left, problem.right, problem.up, problem.down
    for header in range(1, len(left)):
        nodes = []
        node = down[header]
        while node != header:
            nodes.append(node)
            node = down[node]
        rng.shuffle(nodes)
        _relink(header, nodes, up, down)
    items = list(range(1, len(left)))
    rng.shuffle(items)
    _relink(0, items, left, right)


def _relink(header: int, nodes: Sequence[int], before: Any, after: Any) -> None:
    """Make `header, *nodes` one circular doubly linked list in that order."""
    previous = header
    for node in nodes:
        after[previous] = node
        before[node] = previous
        previous = node
    after[previous] = header
    before[header] = previous
