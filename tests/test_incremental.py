"""The incremental session: one solver, rules switched by assumptions, answers equal to brute force's."""

from brute_force import brute_force_solutions
from hypothesis import given, settings
from puzzle_factory import puzzles

from pipscover.generate.incremental import PuzzleSession
from pipscover.model import Puzzle


@settings(max_examples=60)
@given(puzzles(), puzzles())
def test_one_session_answers_questions_about_many_rule_sets_as_brute_force_does(puzzle, other_rules):
    every = brute_force_solutions(puzzle)
    if not every:
        return
    hidden = min(every, key=lambda s: s.placements)
    with PuzzleSession(puzzle) as session:
        # Rules of an unrelated puzzle first (on other cells, so only those on this board are asked), then the
        # puzzle's own rules, then none: each question switches rules on and off in the same solver.
        board = set(puzzle.cells)
        stray = [region for region in other_rules.regions if board.issuperset(region.cells)]
        session.other_solution(stray, hidden)
        found = session.other_solution(puzzle.regions, hidden)
        assert (found is None) == (every == {hidden})
        assert found is None or (found in every and found != hidden)
        again = session.other_solution(puzzle.regions, hidden)
        assert (again is None) == (found is None)


def test_a_question_with_differ_wants_other_pips_on_those_cells():
    # Two 1-1 dominoes on a 2 x 2 board: the other tiling keeps every pip, so it differs nowhere.
    cells = [(row, col) for row in range(2) for col in range(2)]
    puzzle = Puzzle.build([("empty", cells, None)], [(1, 1), (1, 1)])
    across, down = sorted(brute_force_solutions(puzzle), key=lambda s: s.placements)
    with PuzzleSession(puzzle) as session:
        assert session.other_solution((), across) == down
        assert session.other_solution((), across, differ=[(0, 0)]) is None
        assert session.other_solution((), across, free=set()) is None
