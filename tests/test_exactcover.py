"""The exact-cover formulation of Pips and the region rules that prune it."""

from __future__ import annotations

import itertools

from brute_force import brute_force_solutions
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_factory import puzzles

from pipscover.engines.dlx import DlxBackend
from pipscover.exactcover import exact_cover
from pipscover.exactcover.pruning import RegionPruner, pruned_exact_cover
from pipscover.hardness.subset_sum import SubsetSumInstance, reduce_subset_sum
from pipscover.model import Placement, Puzzle, RegionKind
from pipscover.regions import PipSupply, pip_values


def pips(*values: int) -> int:
    """A bitmask of pips."""
    return sum(1 << value for value in set(values))


def supply_of(*halves: int, depth: int = 4) -> PipSupply:
    counts = [halves.count(pip) for pip in range(7)]
    return PipSupply.of(counts, depth=depth, sum_depth=depth)


# The formulation.

SQUARE = Puzzle.build([("empty", [(0, 0), (0, 1), (1, 0), (1, 1)], None)], [(1, 2), (3, 3)])


def test_items_are_cells_then_distinct_dominoes_with_multiplicity():
    puzzle = Puzzle.build([("empty", [(0, col) for col in range(6)], None)], [(2, 1), (1, 2), (0, 0)])
    cover = exact_cover(puzzle)
    assert cover.items == ("cell 0 0", "cell 0 1", "cell 0 2", "cell 0 3", "cell 0 4", "cell 0 5",
                           "domino 0 0", "domino 1 2")
    assert cover.multiplicities == (1, 1, 1, 1, 1, 1, 1, 2)


def test_options_are_dominoes_on_ordered_adjacent_pairs_with_one_orientation_for_doubles():
    cover = exact_cover(SQUARE)
    # 4 adjacent pairs; (1, 2) both ways, (3, 3) once.
    assert len(cover.options) == 4 * 3
    assert cover.placement(0) == Placement((1, 2), ((0, 0), (0, 1)))
    assert {cover.pips[i] for i in range(len(cover.options))} == {(1, 2), (2, 1), (3, 3)}
    for (first, second, domino), placement in zip(cover.options, map(cover.placement, range(12))):
        assert (cover.items[first], cover.items[second]) == tuple(
            f"cell {row} {col}" for row, col in placement.cells
        )
        assert cover.items[domino] == "domino {} {}".format(*sorted(placement.domino))


def test_a_cover_decodes_to_its_solution():
    cover = exact_cover(SQUARE)
    wanted = {((0, 1), (1, 2)), ((2, 3), (3, 3))}
    chosen = [i for i, (first, second, _) in enumerate(cover.options) if ((first, second), cover.pips[i]) in wanted]
    solution = cover.solution(chosen)
    assert solution.grid == {(0, 0): 1, (0, 1): 2, (1, 0): 3, (1, 1): 3}


def test_rules_drop_options_that_break_a_region_at_once():
    # A one-cell sum region fixes its pip; an equals pair takes doubles only.
    puzzle = Puzzle.build(
        [("sum", [(0, 0)], 1), ("empty", [(0, 1)], None), ("equals", [(1, 0), (1, 1)], None)],
        [(1, 2), (3, 3)],
    )
    rules = RegionPruner(puzzle)
    cover = exact_cover(puzzle, rules)
    assert all(placement.domino == (3, 3) for placement in map(cover.placement, range(len(cover.options)))
               if placement.cells == ((1, 0), (1, 1)))
    assert {cover.placement(i).domino for i in range(len(cover.options))
            if (0, 0) in cover.placement(i).cells} == {(1, 2)}


@settings(max_examples=150)
@given(puzzles())
def test_rules_keep_every_placement_of_every_solution(puzzle):
    cover = exact_cover(puzzle, RegionPruner(puzzle))
    kept = {cover.placement(i).canonical() for i in range(len(cover.options))}
    for solution in brute_force_solutions(puzzle):
        assert set(solution.placements) <= kept


# The region rules, one by one.


def test_supply_knows_the_sums_of_exactly_j_halves():
    supply = supply_of(0, 0, 5, 5)
    reachable = [{s for s in range(11) if supply.makes(j, s)} for j in range(3)]
    assert reachable == [{0}, {0, 5}, {0, 5, 10}]
    assert supply.smallest[:3] == (0, 0, 0) and supply.largest[:3] == (0, 5, 10)


@settings(max_examples=150)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 5)), min_size=1, max_size=6),
       st.integers(0, 9), st.integers(0, 9), st.booleans())
def test_supply_sums_match_every_choice_of_halves(pips_and_copies, depth, sum_depth, huge):
    """The sums of j halves and the first sums against every choice of halves, for small pips (sums kept as
    bits) and huge ones (sums kept as sets)."""
    scale = 10**6 if huge else 1
    values = sorted({pip * scale for pip, _ in pips_and_copies})
    counts = [sum(copies for pip, copies in pips_and_copies if pip * scale == value) for value in values]
    sum_depth = min(sum_depth, depth)
    supply = PipSupply.of(counts, depth, sum_depth, values)
    halves = sorted(value for value, count in zip(values, counts) for _ in range(count))
    choices = [set() for _ in range(sum_depth + 1)]
    for j in range(min(sum_depth, len(halves)) + 1):
        choices[j] = {sum(chosen) for chosen in itertools.combinations(halves, j)}
    for j, sums in enumerate(choices):
        candidates = {s + step for s in sums for step in (-1, 0, 1)} if huge else set(range(sum(halves) + 2))
        assert {s for s in candidates if supply.makes(j, s)} == sums
    first = min(depth, len(halves))
    assert supply.smallest == tuple(sum(halves[:j]) for j in range(first + 1))
    assert supply.largest == tuple(sum(halves[::-1][:j]) for j in range(first + 1))


def test_equals_needs_enough_matching_halves():
    supply = supply_of(1, 1, 1, 4, 4, 6)
    assert RegionKind.EQUALS.rule.allowed(None, 3, 0, 0, supply) == pips(1)
    assert RegionKind.EQUALS.rule.allowed(None, 2, 0, 0, supply) == pips(1, 4)
    assert RegionKind.EQUALS.rule.allowed(None, 2, 4, pips(4), supply) == pips(4)
    assert RegionKind.EQUALS.rule.allowed(None, 2, 6, pips(6), supply) == 0


def test_unequal_needs_enough_distinct_unplaced_pips():
    supply = supply_of(1, 1, 2, 3)
    assert RegionKind.UNEQUAL.rule.allowed(None, 2, 2, pips(2), supply) == pips(1, 3)
    assert RegionKind.UNEQUAL.rule.allowed(None, 3, 2, pips(2), supply) == 0


def test_sum_checks_exact_reachability_not_only_bounds():
    supply = supply_of(0, 0, 5, 5)
    # 3 lies between the bounds 0 and 10 of two halves but no two halves make it.
    assert RegionKind.SUM.rule.allowed(3, 2, 0, 0, supply) == 0
    assert RegionKind.SUM.rule.allowed(5, 2, 0, 0, supply) == pips(0, 5)
    assert RegionKind.SUM.rule.allowed(8, 1, 3, pips(3), supply) == pips(5)
    assert RegionKind.SUM.rule.allowed(2, 1, 3, pips(3), supply) == 0


def test_sum_beyond_the_exact_depth_uses_bounds():
    supply = supply_of(0, 0, 5, 5, depth=2)
    supply = supply._replace(reach=supply.reach[:1])       # as if two halves were beyond the exact depth
    assert RegionKind.SUM.rule.allowed(3, 2, 0, 0, supply) == pips(0)
    assert RegionKind.SUM.rule.allowed(11, 2, 0, 0, supply) == 0


def test_less_bounds_by_the_smallest_halves():
    supply = supply_of(1, 2, 4, 6)
    assert RegionKind.LESS.rule.allowed(5, 2, 0, 0, supply) == pips(1, 2)     # v + 1 < 5
    assert RegionKind.LESS.rule.allowed(3, 1, 3, pips(3), supply) == 0


def test_greater_bounds_by_the_largest_halves():
    supply = supply_of(1, 2, 4, 6)
    assert RegionKind.GREATER.rule.allowed(8, 2, 0, 0, supply) == pips(4, 6)  # v + 6 > 8
    assert RegionKind.GREATER.rule.allowed(20, 2, 0, 0, supply) == 0


def test_a_full_region_holds_by_its_sum():
    total, less, greater = RegionKind.SUM.rule, RegionKind.LESS.rule, RegionKind.GREATER.rule
    assert total.completes(7, 7) and not total.completes(7, 6)
    assert less.completes(7, 6) and not less.completes(7, 7)
    assert greater.completes(7, 8) and not greater.completes(7, 7)


def test_pruner_hides_options_a_placement_rules_out_and_undoes():
    # A 2 x 2 board: the bottom row must be equal, the top row is free; dominoes (1, 1) and (2, 2).
    puzzle = Puzzle.build([("empty", [(0, 0), (0, 1)], None), ("equals", [(1, 0), (1, 1)], None)],
                          [(1, 1), (2, 2)])
    cover, rules = pruned_exact_cover(puzzle)
    option = {cover.placement(i): i for i in range(len(cover.options))}
    before = list(rules.masks)
    assert before[1] == pips(1, 2)
    # The 1s on the top row leave only 2s for the bottom row: every option putting a 1 there is hidden.
    hidden = rules.choose(option[Placement((1, 1), ((0, 0), (0, 1)))])
    assert rules.masks[1] == pips(2)
    assert {cover.placement(i) for i in hidden} == {
        Placement((1, 1), ((1, 0), (1, 1))), Placement((1, 1), ((0, 0), (1, 0))), Placement((1, 1), ((0, 1), (1, 1)))
    }
    rules.unchoose(option[Placement((1, 1), ((0, 0), (0, 1)))])
    assert rules.masks == before and rules.counts == [0, 2, 2]
    # A 2 standing across both rows leaves no second 2 for the bottom row.
    upright = option[Placement((2, 2), ((0, 0), (1, 0)))]
    assert rules.choose(upright) is None
    rules.unchoose(upright)
    assert rules.masks == before and rules.left == [2, 2] and rules.placed == [0, 0]


# Large pips: masks over the distinct values, sums as the values themselves.

MILLIONS = (3_000_000, 6_000_000, 3, 7)


def test_masks_number_the_distinct_pips_when_they_are_large():
    puzzle, _ = reduce_subset_sum(SubsetSumInstance(MILLIONS, 3_000_010))
    assert pip_values(puzzle.dominoes) == (0, 3, 7, 3_000_000, 6_000_000)
    rules = RegionPruner(puzzle)
    assert rules.pip_bit[6_000_000] == 1 << 4
    assert rules.masks[0] == 0b01111      # every pip but 6,000,000, which is above the target


def test_sums_of_huge_halves_are_kept_as_a_set():
    supply = PipSupply.of([2, 1, 1], depth=2, sum_depth=2, values=[0, 10**6, 3 * 10**6])
    assert isinstance(supply.reach[2], frozenset)
    assert [s for s in (0, 10**6, 2 * 10**6, 4 * 10**6) if supply.makes(2, s)] == [0, 10**6, 4 * 10**6]
    # One more cell and one left after it, needing 4,000,000: 1,000,000 + 3,000,000 either way.
    assert RegionKind.SUM.rule.allowed(4 * 10**6, 2, 0, 0, supply) == 0b110
    assert RegionKind.LESS.rule.allowed(10**6 + 1, 2, 0, 0, supply) == 0b011   # v + 0 < 1,000,001
    assert RegionKind.GREATER.rule.allowed(3 * 10**6, 2, 0, 0, supply) == 0b110  # v + 3,000,000 > 3,000,000


def test_dlx_solves_a_subset_sum_puzzle_with_pips_in_the_millions():
    puzzle, _ = reduce_subset_sum(SubsetSumInstance(MILLIONS, 3_000_010))
    found = list(DlxBackend().solutions(puzzle))
    assert len(found) == len(set(found)) == 96
    assert set(found) == brute_force_solutions(puzzle)


