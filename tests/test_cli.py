"""The command line: exit codes, the commands that need no engine, and `--help`. (Bad input, through every
command, is tests/test_hostile.py's corpus.)"""

import functools
import json
import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES, NYT_FOLDER, needs_nyt

GOOD = {"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "sum", "target": 3}]}
OVERLAP = {"dominoes": [[1, 2]], "regions": [
    {"indices": [[0, 0], [0, 1]], "type": "empty"}, {"indices": [[0, 1]], "type": "equals"}]}


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_no_traceback_reaches_the_user(tmp_path):
    path = write(tmp_path, "overlap.json", OVERLAP)
    done = subprocess.run([sys.executable, "-m", "pipscover", "show", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("pipscover: error: ") and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_show_writes_the_text_format_and_json(run_cli):
    result = run_cli("show", EXAMPLES / "first.txt", "--format", "text")
    assert result.code == 0 and result.out.startswith("4\nABCC\n")
    result = run_cli("show", EXAMPLES / "first.txt", "--json")
    document = json.loads(result.out)
    assert document["puzzle"]["file"].endswith("first.txt") and len(document["dominoes"]) == 8


def test_show_names_each_file_it_writes(run_cli, tmp_path, monkeypatch):
    """`show -o first.svg` said nothing, where `encode -o` says "wrote"; --json names the file by "file", as
    encode's does, and stays one JSON object a line."""
    monkeypatch.chdir(tmp_path)
    first = EXAMPLES / "first.txt"
    assert run_cli("show", first, "-o", "first.svg").out == f"{first}: wrote first.svg\n"
    assert run_cli("show", first, "-f", "text", "-o", "first.txt").out == f"{first}: wrote first.txt\n"
    printed = run_cli("show", first, "--json", "-o", "first.json")
    assert json.loads(printed.out)["file"] == "first.json" and json.loads(printed.out)["dominoes"]
    assert "file" not in json.loads(run_cli("show", first, "--json").out)


def test_a_failed_write_leaves_no_file(run_cli, tmp_path):
    result = run_cli("show", EXAMPLES / "first.txt", "-o", tmp_path / "missing-folder" / "out.txt")
    assert result.code == 2 and f"no such folder {tmp_path / 'missing-folder'}" in result.err
    assert not (tmp_path / "missing-folder").exists()


def test_check_accepts_a_valid_solution_and_explains_an_invalid_one(run_cli, tmp_path):
    puzzle = write(tmp_path, "p.json", GOOD)
    good = write(tmp_path, "good.json", [[[0, 0], [0, 1]]])
    bad = write(tmp_path, "bad.json", [[[0, 0], [1, 1]]])
    assert run_cli("check", puzzle, good).code == 0
    result = run_cli("check", puzzle, bad, "--json")
    assert result.code == 1
    report = json.loads(result.out)
    assert report["valid"] is False
    assert "the [1|2] on row 1, column 1 and row 2, column 2: the cells are not side by side" in report["problems"][0]


def test_check_names_the_first_few_cells_not_covered_and_counts_the_rest(run_cli, tmp_path):
    """One domino on the 4 x 4 example listed all 14 cells it leaves in one line (thousands on a planted board);
    now the first six are named and the rest counted, while --json keeps every one."""
    one = write(tmp_path, "one.json", [{"domino": [4, 3], "cells": [[0, 0], [1, 0]]}])
    said = run_cli("check", EXAMPLES / "first.txt", one)
    assert said.code == 1
    assert ("  - not covered: row 1, column 2, row 1, column 3, row 1, column 4, row 2, column 2, row 2, column 3, "
            "row 2, column 4 and 8 more cells\n") in said.out
    listed = json.loads(run_cli("check", EXAMPLES / "first.txt", one, "--json").out)["problems"][0][0]
    assert listed.startswith("not covered: row 1, column 2, ") and listed.endswith(" and row 4, column 4")
    assert listed.count("row ") == 14


@pytest.mark.parametrize("args", [["check", EXAMPLES / "first.txt", "EMPTY"], ["hint", EXAMPLES / "first.txt",
                                                                                  "--given", "EMPTY"]])
def test_an_empty_solution_file_is_named_empty(run_cli, tmp_path, args):
    """It was "malformed JSON: Expecting value at line 1, column 1" (`echo | pipscover check first.txt -`)."""
    empty = write(tmp_path, "empty.json", "\n")
    done = run_cli(*[empty if arg == "EMPTY" else arg for arg in args])
    said = f"pipscover: error: {empty}: the file is empty (solutions are JSON, as solve --json prints them)\n"
    assert (done.code, done.err) == (2, said)


@needs_nyt
def test_check_accepts_the_published_solution_of_a_day_file(run_cli):
    day = NYT_FOLDER / "2025-09-15.json"
    result = run_cli("check", day, day, "-d", "hard")
    assert result.code == 0 and "valid" in result.out


def test_a_day_file_without_difficulty_cannot_be_checked(run_cli, tmp_path):
    day = write(tmp_path, "day.json", {"easy": GOOD, "hard": GOOD})
    result = run_cli("check", day, write(tmp_path, "s.json", [[[0, 0], [0, 1]]]))
    assert result.code == 2 and "choose one with -d" in result.err


def test_the_bundled_example_has_exactly_one_solution(run_cli):
    result = run_cli("solve", EXAMPLES / "first.txt", "--all", "--json")
    document = json.loads(result.out)
    assert result.code == 0 and document["status"] == "solved" and len(document["solutions"]) == 1


def test_solve_draws_the_solution_and_can_write_svg(run_cli, tmp_path):
    result = run_cli("solve", EXAMPLES / "first.txt", "-o", tmp_path / "first.svg")
    assert result.code == 0 and "solved by auto:dlx" in result.out
    assert (tmp_path / "first.svg").read_text().startswith("<svg")


def test_solve_names_the_picture_it_writes(run_cli, tmp_path, monkeypatch):
    """`solve -o first.svg` wrote the picture without a word, where `show -o` says "wrote"; --json names it by
    "file" and stays nothing but JSON; `-o -` puts the picture alone on stdout, the answer on stderr (it was
    glued after the SVG)."""
    monkeypatch.chdir(tmp_path)
    first = EXAMPLES / "first.txt"
    assert run_cli("solve", first, "-o", "first.svg").out.endswith(f"\n{first}: wrote first.svg\n")
    assert json.loads(run_cli("solve", first, "-o", "first.svg", "--json").out)["file"] == "first.svg"
    piped = run_cli("solve", first, "-o", "-", "--json")
    assert piped.out.startswith("<svg") and piped.out.rstrip().endswith("</svg>")
    assert json.loads(piped.err)["status"] == "solved" and "file" not in json.loads(piped.err)


@pytest.mark.parametrize(("name", "starts"), [("out.svg", "<svg"), ("out.txt", "4\nABCC\n"), ("out", "examples/")])
def test_show_writes_the_format_its_output_is_named_for(run_cli, tmp_path, name, starts):
    assert run_cli("show", EXAMPLES / "first.txt", "-o", tmp_path / name).code == 0
    assert (tmp_path / name).read_text().startswith(starts.replace("examples/", str(EXAMPLES / "first.txt")))


def test_an_unsolvable_puzzle_exits_1(run_cli, tmp_path):
    puzzle = write(tmp_path, "p.json", {**GOOD, "regions": [{**GOOD["regions"][0], "target": 4}]})
    result = run_cli("solve", puzzle, "--json")
    assert result.code == 1 and json.loads(result.out)["status"] == "unsatisfiable"


def test_solve_with_a_sat_backend_and_a_chosen_card_encoding(run_cli):
    result = run_cli("solve", EXAMPLES / "first.txt", "-b", "glucose", "--card", "totalizer", "--all", "--json")
    document = json.loads(result.out)
    assert result.code == 0 and document["backend"] == "glucose4" and len(document["solutions"]) == 1


def test_encodings_are_refused_for_dlx(run_cli):
    result = run_cli("solve", EXAMPLES / "first.txt", "--card", "totalizer")
    assert result.code == 2 and "does not use one" in result.err


def test_check_reads_solve_output_from_a_pipe(run_cli, monkeypatch):
    example = EXAMPLES / "first.txt"
    solved = run_cli("solve", example, "--json")
    reading, writing = os.pipe()
    with os.fdopen(writing, "w") as pipe:  # (far less than a pipe holds)
        pipe.write(solved.out)
    with os.fdopen(reading) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        checked = run_cli("check", example, "-")
    assert checked.code == 0 and checked.out.endswith(": valid\n")


def test_the_puzzles_of_one_text_file_are_named_by_number_and_checked_each_against_its_own(run_cli, tmp_path):
    two = tmp_path / "two.txt"
    two.write_text((EXAMPLES / "first.txt").read_text() + "\n" + (EXAMPLES / "first.txt").read_text())
    solved = run_cli("solve", two, "--json")
    assert [json.loads(line)["puzzle"]["number"] for line in solved.out.splitlines()] == [1, 2]
    (tmp_path / "solved.jsonl").write_text(solved.out)
    checked = run_cli("check", two, tmp_path / "solved.jsonl")
    assert checked.code == 0 and checked.out == f"{two} (puzzle 1): valid\n{two} (puzzle 2): valid\n"


def _commands(group, prefix=()):
    """Every command that runs (a group's subcommands, not the group), as the words that call it."""
    for name, command in sorted(group.commands.items()):
        if hasattr(command, "commands"):
            yield from _commands(command, (*prefix, name))
        else:
            yield (*prefix, name)


@functools.cache  # collected by four parametrizations (here and in test_help.py)
def _all_commands():
    from pipscover.cli import every_command

    return list(_commands(every_command()))


def test_help_lists_every_command_with_its_own_summary():
    """`pipscover --help` lists the commands from `COMMANDS` without importing them: the list must be the
    commands every module under pipscover/cli registers, each with the first paragraph of its own help."""
    import pkgutil

    import pipscover.cli
    from pipscover.cli import COMMANDS, app, every_command

    for module in pkgutil.iter_modules(pipscover.cli.__path__):
        __import__(f"pipscover.cli.{module.name}")
    registered = {info.name for info in app.registered_commands} | {info.name for info in app.registered_groups}
    assert registered == set(COMMANDS)
    for name, command in every_command().commands.items():
        assert " ".join((command.help or "").split("\n\n")[0].split()) == COMMANDS[name], name


@pytest.mark.parametrize("words", _all_commands(), ids=" ".join)
def test_every_command_has_help_with_an_example_and_json(run_cli, monkeypatch, words):
    monkeypatch.setenv("COLUMNS", "240")  # no line wrapped inside an example
    shown = run_cli(*words, "--help")
    assert shown.code == 0
    assert f"pipscover {' '.join(words)} " in shown.out.split("Example", 1)[-1] and "--json" in shown.out


def test_check_names_a_region_by_the_letter_of_the_text_format(run_cli, tmp_path):
    """Was "region 7 (less 2) breaks its rule with pips [1, 2]", where the file calls that region H."""
    solved = json.loads(run_cli("solve", EXAMPLES / "first.txt", "--json").out)
    for placement in solved["solutions"][0]:
        placement["domino"].reverse()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(solved))
    result = run_cli("check", EXAMPLES / "first.txt", bad)
    assert result.code == 1 and "the less-than-2 region H breaks its rule with pips" in result.out


def test_solve_and_encode_write_their_counts_with_thousands_separators_as_count_does(run_cli, tmp_path):
    """`solve` said "the first 2000 solutions shown" and `encode` "1803 variables ..., 5079 clauses", where
    `count` and `sample` write 1,000,000."""
    board = tmp_path / "open.json"  # 2 x 6, no rules, 6 mixed dominoes: 74,880 solutions
    cells = [[r, c] for r in range(2) for c in range(6)]
    board.write_text(json.dumps({"dominoes": [[a % 4, a % 3] for a in range(6)],
                                 "regions": [{"indices": cells, "type": "empty"}]}))
    solved = run_cli("solve", board, "--limit", "2000", "-b", "dlx").out.splitlines()[0]
    assert "the first 2,000 solutions shown" in solved, solved
    planted = EXAMPLES.parent / "benchmarks" / "count_puzzles" / "planted-4x4-s1.json"
    encoded = run_cli("encode", planted, "-o", tmp_path / "p.cnf").out
    assert ": 1,803 variables (359 placements, 112 values), 5,079 clauses (" in encoded, encoded


def test_hint_rate_and_bench_write_their_counts_with_thousands_separators_too(run_cli, tmp_path):
    """`rate` said "1100 steps", `hint` "solved in 1100 steps" and `bench` "vars 1803", where `count`, `sample`
    and `solve` write 1,100; `bench` said "1 puzzles" as well."""
    row = tmp_path / "row.json"  # one row of 1,100 dominoes: every step is a forced tiling
    row.write_text(json.dumps({"dominoes": [[0, 0]] * 1100,
                               "regions": [{"indices": [[0, c] for c in range(2200)], "type": "empty"}]}))
    assert ": hard: 1,100 steps, 0 guesses," in run_cli("rate", row).out
    hinted = run_cli("hint", row, "--all").out
    assert "\n1,100. forced-tiling" in hinted and "solved in 1,100 steps" in hinted
    planted = EXAMPLES.parent / "benchmarks" / "count_puzzles" / "planted-4x4-s1.json"
    table = run_cli("bench", planted, "-b", "dlx", "-b", "minisat22", "--encoding", "placements").out
    assert table.startswith("1 puzzle, the first solution, wall clock, 1 run\n") and " 1,803 " in table, table
