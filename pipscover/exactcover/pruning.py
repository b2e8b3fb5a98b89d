"""Region feasibility in the exact-cover search: after every placement, the options no region can take any more.

A region is summarised by a few ints (cells left empty, sum placed, bitmask of pips placed) and the pips not
yet placed by a `PipSupply` (`pipscover.regions.supply`), built once per multiset and shared by all regions.
Each region's kind says which pips one more of its cells may still take (`RegionRule.allowed`, with the rules
written out in each kind's module); those are necessary conditions, so they never cut off a solution. A
region whose allowed set is empty can no longer be satisfied.

`RegionPruner` applies the rules during an exact-cover search (a `dancing_links.Propagator`): after every
placement it recomputes the allowed pips of every constrained region and hides the options that put a pip no
longer allowed on one of the region's cells. It looks up each region's `allowed` and `completes` once, so
the search pays no dispatch on the region's kind.
"""

from __future__ import annotations

from functools import cached_property

from pipscover.exactcover.formulation import ExactCover, exact_cover
from pipscover.model import Puzzle
from pipscover.regions import PipSupply, pip_values

# Supplies are memoised per multiset of remaining halves; a long enumeration meets very many, so the memo
# is emptied when it reaches this size rather than allowed to grow without bound.
SUPPLY_MEMO_SIZE = 100_000


def pruned_exact_cover(puzzle: Puzzle) -> tuple[ExactCover, RegionPruner]:
    """The exact cover of `puzzle` without the options a region rule rules out at once, and the rules ready
    to prune its search: hand `cover.options` and the pruner to `dancing_links.ExactCoverProblem`.

    >>> from pipscover import load_one
    >>> cover, rules = pruned_exact_cover(load_one("examples/first.txt"))
    >>> len(cover.options) < len(exact_cover(load_one("examples/first.txt")).options)
    True
    """
    rules = RegionPruner(puzzle)
    cover = exact_cover(puzzle, rules)
    rules.watch(cover)
    return cover, rules


class RegionPruner:
    """Pips region rules for the exact-cover search: a `dancing_links.Propagator` over placement options.

    `pruned_exact_cover` builds one: the exact cover keeps only the options allowed by `masks` and
    `pair_allowed` (an `OptionFilter`), then the pruner `watch`es that cover: since no option breaks a rule at
    the start, it only has to act on what each placement changes. Masks are over `values` (see
    `pip_values`); `pip_bit[v]` is the bit of pip v.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        rules = [region.rule for region in puzzle.regions]
        self.rules = rules
        # Each region's own methods, looked up once: the search calls them without dispatching on the kind.
        self.allowed_of = [rule.allowed for rule in rules]
        self.completes_of = [rule.completes for rule in rules]
        self.targets = [region.target for region in puzzle.regions]
        self.left = [len(region.cells) for region in puzzle.regions]
        self.placed_sum = [0] * len(puzzle.regions)
        self.placed = [0] * len(puzzle.regions)
        self.constrained = [i for i, rule in enumerate(rules) if rule.constrains]
        self.values = pip_values(puzzle.dominoes)
        self.index_of = {pip: index for index, pip in enumerate(self.values)}
        self.pip_bit = {pip: 1 << index for pip, index in self.index_of.items()}
        counts = [0] * len(self.values)
        for domino in puzzle.dominoes:
            counts[self.index_of[domino[0]]] += 1
            counts[self.index_of[domino[1]]] += 1
        self.counts = counts
        self.depth = max((self.left[i] - 1 for i in self.constrained), default=0)
        self.sum_depth = max((self.left[i] - 1 for i in self.constrained if rules[i].exact_sums), default=0)
        self.supplies: dict[tuple[int, ...], PipSupply] = {}
        self.region_of = puzzle.region_index
        # The pips each region's cells may take before anything is placed: the builder's filter.
        self.masks = [self.allowed(region) for region in range(len(rules))]
        self.region_of_item: list[int] = []
        self.cover: ExactCover | None = None
        self.undo: list[list[tuple[int, int]]] = []

    def watch(self, cover: ExactCover) -> None:
        """Learn what each option of `cover` does (it must be built with these rules: `exact_cover(puzzle, self)`).
        The tables `choose` reads are made when it first runs: the compiled core makes its own."""
        self.cover = cover
        self.region_of_item = [self.region_of[cell] for cell in cover.cells]

    @cached_property
    def moves(self) -> list[tuple[int, int, int, int, int, int]]:
        """Per option: (first region, its pip's index, the pip, second region, its pip's index, the pip)."""
        assert self.cover is not None, "watch(cover) first"
        region_of_item, index_of = self.region_of_item, self.index_of
        return [
            (region_of_item[first], index_of[first_pip], first_pip,
             region_of_item[second], index_of[second_pip], second_pip)
            for (first, second, _), (first_pip, second_pip) in zip(self.cover.options, self.cover.pips)
        ]

    @cached_property
    def by_region_pip(self) -> list[list[list[int]]]:
        """The options putting the pip of index i on a cell of region r: by_region_pip[r][i], increasing."""
        by_region_pip: list[list[list[int]]] = [[[] for _ in self.counts] for _ in self.rules]
        for option, (first, first_index, _, second, second_index, _) in enumerate(self.moves):
            by_region_pip[first][first_index].append(option)
            if (second, second_index) != (first, first_index):
                by_region_pip[second][second_index].append(option)
        return by_region_pip

    def compiled_tables(self) -> tuple | None:
        """What the compiled Dancing Links core needs to run this pruner itself (`choose` and `unchoose` in C;
        it works out `moves` and `by_region_pip` from the cover, and asks each region's `allowed` and
        `completes` once per state, with the supply of `supply(counts)`), or None when the masks of pips or
        the pips do not fit its machine words (it then calls `choose` and `unchoose` back)."""
        if self.cover is None or len(self.values) > 63 or any(abs(pip) >= 1 << 30 for pip in self.values):
            return None
        return (len(self.rules), list(self.values), self.region_of_item, self.cover.options, self.cover.pips,
                self.constrained, list(self.left), list(self.masks), list(self.counts), self.allowed_of,
                self.completes_of, self.targets, self.supply)

    def supply(self, counts: tuple[int, ...] | None = None) -> PipSupply:
        """The halves not placed yet, or those of `counts` (memoised: the same multiset recurs across the search)."""
        key = tuple(self.counts) if counts is None else counts
        found = self.supplies.get(key)
        if found is None:
            if len(self.supplies) >= SUPPLY_MEMO_SIZE:
                self.supplies.clear()
            found = self.supplies[key] = PipSupply.of(key, self.depth, self.sum_depth, self.values)
        return found

    def allowed(self, region: int, supply: PipSupply | None = None) -> int:
        """The pips one more cell of `region` may take now (the region has an empty cell)."""
        return self.allowed_of[region](self.targets[region], self.left[region], self.placed_sum[region],
                                      self.placed[region], supply or self.supply())

    def pair_allowed(self, region: int, first_pip: int, second_pip: int) -> bool:
        """Whether one domino may put both pips on cells of `region`, at the start of the search."""
        first_bit = self.pip_bit[first_pip]
        if not self.masks[region] & first_bit:
            return False
        rule, target = self.rules[region], self.targets[region]
        if self.left[region] == 2:  # the domino fills the region
            return rule.holds((first_pip, second_pip), target)
        mask = rule.allowed(target, self.left[region] - 1, first_pip, first_bit, self.supply())
        return bool(mask & self.pip_bit[second_pip])

    def choose(self, option: int) -> list[int] | None:
        """Place option `option`; the options it rules out, or None when some region can no longer hold."""
        first, first_index, first_pip, second, second_index, second_pip = self.moves[option]
        counts, left, placed_sum, placed = self.counts, self.left, self.placed_sum, self.placed
        counts[first_index] -= 1
        counts[second_index] -= 1
        changes: list[tuple[int, int]] = [(first, placed[first]), (second, placed[second])]
        self.undo.append(changes)
        left[first] -= 1
        placed_sum[first] += first_pip
        placed[first] |= 1 << first_index
        left[second] -= 1
        placed_sum[second] += second_pip
        placed[second] |= 1 << second_index
        targets, masks, by_region_pip = self.targets, self.masks, self.by_region_pip
        allowed_of = self.allowed_of
        hidden: list[int] = []
        if not self.constrained:  # no rule to check: the supply would be a new multiset built at every node
            return hidden
        supply = self.supply()
        for region in self.constrained:
            if left[region] == 0:
                if region in (first, second) and not self.completes_of[region](
                    targets[region], placed_sum[region]
                ):
                    return None
                continue
            old = masks[region]
            new = old & allowed_of[region](targets[region], left[region], placed_sum[region], placed[region], supply)
            if new == 0:
                return None
            if new != old:
                changes.append((region, old))
                masks[region] = new
                lost = old ^ new
                options = by_region_pip[region]
                while lost:
                    low = lost & -lost
                    hidden.extend(options[low.bit_length() - 1])
                    lost ^= low
        return hidden

    def unchoose(self, option: int) -> None:
        """Take back the last `choose(option)`."""
        first, first_index, first_pip, second, second_index, second_pip = self.moves[option]
        changes = self.undo.pop()
        for region, old in reversed(changes[2:]):
            self.masks[region] = old
        self.placed[second] = changes[1][1]
        self.placed[first] = changes[0][1]
        self.counts[first_index] += 1
        self.counts[second_index] += 1
        self.left[first] += 1
        self.placed_sum[first] -= first_pip
        self.left[second] += 1
        self.placed_sum[second] -= second_pip
