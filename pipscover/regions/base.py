"""The interface of a region kind: what its rule means, and the form the rule takes in every engine.

Each kind (`empty`, `equals`, ...) is one module of `pipscover.regions` with one `RegionRule` subclass, whose
single instance serves every region of that kind; a region passes its `target` (None for the kinds that take
none). The methods come in groups, one per user, so that a kind's whole story is in one file:

- meaning: `holds`, `label`, `describe` (the model, the independent checker, the renderers);
- what one more cell may take: `allowed`, given the pips not yet placed (a `PipSupply`), and `completes`,
  whether a full region holds (the dlx pruner, the counters, the CNF's domains, the generator);
- the counters' state, one small int per region: `counter_step`, `counter_allowed`, `counter_accepts`
  (`pipscover.counting.region_states` says what the states are);
- the CNF: `narrow`, `pair_possible`, `clauses` (`pipscover.cnf.placements`);
- the OPB file's linear constraints: `pb_constraints` (`pipscover.cnf.opb`);
- CP-SAT: `constrain` (`pipscover.engines.cpsat`);
- the generator: `targets_for`, `generator_weight`, `merges` with `merged_target`, and `splits`
  (`pipscover.generate.generator`, which names no kind and asks these instead); planted puzzles:
  `planted_grows`, `planted_targets` and `planted_instead` (`pipscover.generate.planted`);
- local search: `violation`, how far a filled region is from keeping the rule (`pipscover.engines.local_search`);
- hints: `hint_rule`, the hint rule that tells the kind's arithmetic, and the words, `hint_noun` and
  `hint_reason`; `hint_narrow` (`pipscover.hints.region_rules`);
- the text format: `keyword` (`pipscover.formats.text`).

The engines look up each region's methods once per puzzle (bound methods or closures over the target), so
the hot loops of the dlx pruner and the counters pay no dispatch per call.

`sum`, `less` and `greater` all say "the region's sum lies in [least, most]": `LinearRule` writes their
meaning, their CNF and their CP-SAT forms once, from `bounds`; each keeps its own tuned pruning and counting.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pipscover.regions.supply import PipSupply

Cell = tuple[int, int]
Domains = dict[Cell, set[int]]  # the pips each cell may still hold (the CNF's pruning)

# A region's target: an int for the kinds that take one (`sum 10`), None for the others (`equals`).
Target = TypeVar("Target", bound=int | None)

# Counter states: a region whose rule can no longer fail (any pips will do) is DECIDED; FAIL ends a branch.
DECIDED = -1
FAIL = None
# step(state, index of the pip entering the region, cells left after it) -> the new state, DECIDED or FAIL
Step = Callable[[int, int, int], "int | None"]
# allowed(state, cells left, supply) -> the pips one more cell may take, as a mask (0: the rule cannot hold)
StateAllowed = Callable[[int, int, PipSupply], int]


# Planted `less` and `greater` targets miss the region's sum by 1 + up to this much (`RegionRule.planted_targets`).
PLANTED_SLACK = 2


@dataclass(frozen=True)
class HintRule:
    """The hint rule that tells a kind's arithmetic (`pipscover.hints.catalogue`, level 1): its name, its title,
    and its place among the region rules (smaller first). Kinds that share one share the instance."""

    name: str
    title: str
    order: int


@dataclass(frozen=True)
class HintFacts:
    """What a hint knows when a region's arithmetic narrows its empty cells, worded by
    `pipscover.hints.region_rules`, for the kind to make its sentence (`RegionRule.hint_reason`)."""

    region: str  # `the sum-12 region B`, `the sum-12 region at the top left` (`pipscover.model.naming`)
    cells: str  # `its last empty cell`, `its 3 empty cells`
    outcome: str  # `row 2, column 3 is 4`, `each can only be 2 or 3`
    empty: int  # how many of the region's cells are empty
    placed: tuple[int, ...]  # the pips on its other cells
    halves: tuple[int, ...]  # the pips of the halves not yet on a known cell, smallest first

    @property
    def opening(self) -> str:
        """`region`, to open a sentence: `The sum-12 region B`."""
        return self.region[0].upper() + self.region[1:]


def listing(items: Sequence[str], last: str) -> str:
    """`a`, `a or b`, `a, b or c` (with `last` = "or").

    >>> listing(["2", "4", "6"], "or")
    '2, 4 or 6'
    """
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


class ClauseWriter(Protocol):
    """What a kind's `clauses` may write (`pipscover.cnf.placements` implements it)."""

    def clause(self, *literals: int) -> None: ...

    def at_most_one(self, literals: list[int]) -> None: ...

    def sum_between(self, cells: list[list[tuple[int, int]]], least: int, most: int) -> None:
        """least <= the sum of the cells' pips <= most, each cell given as its (variable, pip) pairs, of which
        exactly one is true."""


class LinearWriter(Protocol):
    """What a kind's `pb_constraints` may write (`pipscover.cnf.opb` implements it)."""

    def linear(self, terms: list[tuple[int, int]], relation: str, bound: int) -> None:
        """The sum of coefficient * variable over the (coefficient, variable) `terms` is `>=`, `<=` or `=`
        (`relation`) `bound`; no terms and a bound it cannot meet make a constraint that always fails."""


class RegionRule(ABC, Generic[Target]):
    """One kind of region rule. Subclasses set the class attributes and implement the abstract methods; a kind
    with a target is a `RegionRule[int]`, one without a `RegionRule[None]`."""

    name: ClassVar[str]  # as the NYT JSON names it
    has_target: ClassVar[bool] = False
    constrains: ClassVar[bool] = True  # False for `empty`: no rule to prune, draw or encode
    exact_sums: ClassVar[bool] = False  # `allowed` reads the supply's exact sums (`PipSupply.reach`)
    generator_weight: ClassVar[int] = 0  # how often the generator draws this rule (0: never)
    merges: ClassVar[bool] = False  # the generator may merge two touching regions of this kind (`merged_target`)
    # The generator's last resort (`sum`): a region whose rule cannot break another solution takes this kind,
    # its target read off the hidden pips (`targets_for`), and then splits into smaller regions of this kind.
    splits: ClassVar[bool] = False
    keyword: ClassVar[str | None] = None  # the text format's word for it (None: the format cannot hold it)
    planted_instead: ClassVar[str | None] = None  # the kind a planted region takes when this one cannot hold
    hint_rule: ClassVar[HintRule | None] = None  # the hint rule that tells its arithmetic (None: none does)

    # Meaning.

    @abstractmethod
    def holds(self, values: Sequence[int], target: Target) -> bool:
        """Whether the pips `values` (one per cell of the region) keep the rule."""

    @abstractmethod
    def label(self, target: Target) -> str:
        """The mark a player sees on the region: '=', '10', '<3', ..."""

    def describe(self, target: Target) -> str:
        """`sum 10`, `equals`: the rule as the NYT JSON names it."""
        return f"{self.name} {target}" if self.has_target else self.name

    # What one more cell may take.

    @abstractmethod
    def allowed(self, target: Target, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        """The pips (a mask over `supply.values`) one more of the region's `left` >= 1 empty cells may take,
        when the pips already on its cells sum to `placed_sum` and make the mask `placed`; 0 when the rule can
        no longer hold. Necessary conditions only, so no solution is ever lost; the halves of the domino being
        tested may be counted among the remaining ones, which only makes the answer weaker, never wrong."""

    def completes(self, target: Target, placed_sum: int) -> bool:
        """Whether a full region whose pips sum to `placed_sum` holds, given that each of its cells took a pip
        `allowed` allowed (which already keeps every rule that is not about the sum)."""
        return True

    # The counters' state (`pipscover.counting.region_states`).

    @abstractmethod
    def counter_step(self, target: Target, values: Sequence[int], max_pip: int) -> Step:
        """The state change when a pip (by its index in `values`) enters a region with this target."""

    @abstractmethod
    def counter_allowed(self, target: Target) -> StateAllowed:
        """`allowed`, read from a counter state."""

    @abstractmethod
    def counter_accepts(self, state: int, target: Target, pips: Sequence[int], values: Sequence[int]) -> bool:
        """Whether a region in `state` holds once its empty cells get exactly the pips of indices `pips`."""

    # The CNF (`pipscover.cnf.placements`).

    def narrow(self, cells: Sequence[Cell], target: Target, domains: Domains) -> None:
        """Remove from the cells' domains the pips the rule rules out at once (nothing by default)."""

    def pair_possible(self, target: Target, first: int, second: int, others: Sequence[set[int]]) -> bool:
        """Whether one domino may put `first` and `second` on two cells of the region, whose other cells may
        hold the pips `others` (a domain per cell)."""
        return True

    @abstractmethod
    def clauses(self, writer: ClauseWriter, cells: Sequence[Cell], target: Target, domains: Domains,
                value_var: dict[tuple[Cell, int], int]) -> None:
        """Write the rule over the value variables (`value_var[cell, pip]`) of the region's cells."""

    # The OPB form (`pipscover.cnf.opb`).

    @abstractmethod
    def pb_constraints(self, writer: LinearWriter, cells: Sequence[Cell], target: Target, domains: Domains,
                       value_var: dict[tuple[Cell, int], int]) -> None:
        """Write the rule as linear constraints over the 0/1 value variables of the region's cells."""

    # CP-SAT (`pipscover.engines.cpsat`).

    @abstractmethod
    def constrain(self, model: Any, values: list[Any], target: Target) -> None:
        """Add the rule to a CP-SAT `model` over the cells' integer pip variables `values`."""

    # The generator (`pipscover.generate.generator`).

    def targets_for(self, values: Sequence[int], other: Sequence[int] | None, rng: Random) -> list[int | None]:
        """The target to give a region whose hidden pips are `values` so that they keep this rule (and the
        pips `other`, when given, may break it), as a list of one; empty when the rule does not fit."""
        return []

    def merged_target(self, first: Target, second: Target) -> Target:
        """The target of one region made of two touching regions of this kind, whose targets are `first` and
        `second`: any pips that keep both keep it (asked only of the kinds that `merges`)."""
        raise NotImplementedError(f"the generator does not merge {self.name} regions")

    # Planted puzzles (`pipscover.generate.planted`): a region grows over a planted grid, then gets a target.

    def planted_grows(self, values: Sequence[int], pip: int) -> bool:
        """Whether a planted region whose pips are `values` may grow over a cell holding `pip`."""
        return True

    def planted_targets(self, values: Sequence[int], rng: Random) -> list[int | None]:
        """The target of a planted region whose pips are `values`, as a list of one; empty when the rule cannot
        hold on them (the region then takes the kind `planted_instead`). Planting asks every kind, in the
        registry's order, and keeps the drawn kind's answer: each region takes the same random draws
        whatever its kind (the scale suite's puzzles were made so)."""
        return [None]

    # Hints (`pipscover.hints.region_rules`).

    @abstractmethod
    def hint_noun(self, target: Target) -> str:
        """The region in a hint's words: `sum-12 region`, `all-equal region`."""

    def hint_narrow(self, allowed: int, candidates: Sequence[int]) -> int:
        """The pips (a mask) an empty cell may take, of those `allowed` by the arithmetic, given what each
        cell of the region can still hold (`candidates`, masks): `allowed` unless the cells constrain one
        another."""
        return allowed

    def hint_reason(self, target: Target, facts: HintFacts) -> str:
        """The sentence of a hint in which the arithmetic narrows the region's empty cells (see `HintFacts`)."""
        raise NotImplementedError(f"{self.name} regions have no hint arithmetic")

    # Local search (`pipscover.engines.local_search`).

    @abstractmethod
    def violation(self, size: int, total: int, counts: Mapping[int, int], target: Target) -> int:
        """How far a full region of `size` cells, whose pips sum to `total` and show each pip `counts[pip]`
        times, is from keeping the rule: 0 exactly when it holds, larger the further it is."""


class LinearRule(RegionRule[int]):
    """A rule on the region's sum alone: least <= sum <= most, either bound possibly open (None)."""

    has_target = True

    @abstractmethod
    def bounds(self, target: int) -> tuple[int | None, int | None]:
        """The least and the most the region's sum may be."""

    def holds(self, values: Sequence[int], target: int) -> bool:
        return self.completes(target, sum(values))

    def completes(self, target: int, placed_sum: int) -> bool:
        least, most = self.bounds(target)
        return (least is None or least <= placed_sum) and (most is None or placed_sum <= most)

    def violation(self, size: int, total: int, counts: Mapping[int, int], target: int) -> int:
        least, most = self.bounds(target)
        if least is not None and total < least:
            return least - total
        if most is not None and total > most:
            return total - most
        return 0

    def allows_sum_between(self, target: int, low: int, high: int) -> bool:
        """Whether some sum in [low, high] keeps the rule."""
        least, most = self.bounds(target)
        return (least is None or high >= least) and (most is None or low <= most)

    def counter_accepts(self, state: int, target: int, pips: Sequence[int], values: Sequence[int]) -> bool:
        return state == DECIDED or self.completes(target, state + sum(values[pip] for pip in pips))

    def counter_allowed(self, target: int) -> StateAllowed:
        """The state is the partial sum, or DECIDED once any pips will do (`less`, `greater`)."""
        allowed = self.allowed

        def allowed_from(state: int, left: int, supply: PipSupply) -> int:
            return supply.present if state == DECIDED else allowed(target, left, state, 0, supply)

        return allowed_from

    def narrow(self, cells: Sequence[Cell], target: int, domains: Domains) -> None:
        low, high = sum_bounds(cells, domains)
        for cell in cells:
            if not domains[cell]:
                continue
            others_low = low - min(domains[cell])
            others_high = high - max(domains[cell])
            domains[cell] = {pip for pip in domains[cell]
                             if self.allows_sum_between(target, others_low + pip, others_high + pip)}

    def pair_possible(self, target: int, first: int, second: int, others: Sequence[set[int]]) -> bool:
        low, high = bounds_of(others)
        return low <= high and self.allows_sum_between(target, first + second + low, first + second + high)

    def clauses(self, writer: ClauseWriter, cells: Sequence[Cell], target: int, domains: Domains,
                value_var: dict[tuple[Cell, int], int]) -> None:
        needed = self._needed(cells, target, domains)
        if needed is None:
            return
        least, most = needed
        if least > most:
            writer.clause()
            return
        writer.sum_between(
            [[(value_var[cell, pip], pip) for pip in sorted(domains[cell])] for cell in cells], least, most
        )

    def pb_constraints(self, writer: LinearWriter, cells: Sequence[Cell], target: int, domains: Domains,
                       value_var: dict[tuple[Cell, int], int]) -> None:
        """`least <= sum of pip * value <= most` as one `=` or one or two `>=` lines; the zero pips drop out."""
        needed = self._needed(cells, target, domains)
        if needed is None:
            return
        least, most = needed
        terms = [(pip, value_var[cell, pip]) for cell in cells for pip in sorted(domains[cell]) if pip]
        low, high = sum_bounds(cells, domains)
        if least > most:  # a cell can hold no pip: a constraint that always fails
            writer.linear([], ">=", 1)
        elif least == most:
            writer.linear(terms, "=", least)
        else:
            if least > low:
                writer.linear(terms, ">=", least)
            if most < high:
                writer.linear(terms, "<=", most)

    def _needed(self, cells: Sequence[Cell], target: int, domains: Domains) -> tuple[int, int] | None:
        """The bounds on the sum that an encoding must write, None when pruning already guarantees them;
        least > most when a cell has no pip left (the rule cannot hold)."""
        low, high = sum_bounds(cells, domains)
        least, most = self.bounds(target)
        least = low if least is None else least
        most = high if most is None else most
        if least <= low and high <= most:
            return None
        return (1, 0) if low > high else (least, most)

    def constrain(self, model: Any, values: list[Any], target: int) -> None:
        least, most = self.bounds(target)
        total = sum(values)
        if least is not None and least == most:
            model.add(total == least)
            return
        if least is not None:
            model.add(total >= least)
        if most is not None:
            model.add(total <= most)


def sum_bounds(cells: Sequence[Cell], domains: Domains) -> tuple[int, int]:
    """The smallest and largest sum the cells can still make; (0, -1) when a cell can hold nothing."""
    return bounds_of([domains[cell] for cell in cells])


def bounds_of(pips: Sequence[set[int]]) -> tuple[int, int]:
    """The smallest and largest sum of one pip from each set; (0, -1) when a set is empty.

    >>> bounds_of([{1, 3}, {2}]), bounds_of([]), bounds_of([{1}, set()])
    ((3, 5), (0, 0), (0, -1))
    """
    if not all(pips):
        return 0, -1
    return sum(min(choices) for choices in pips), sum(max(choices) for choices in pips)
