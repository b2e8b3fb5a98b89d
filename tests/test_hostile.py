"""The hostile corpus: every command fed bad files, bad options, huge puzzles, closed pipes, Ctrl-C, terminals.

The promise under test (README): bad input gives exit code 2 and one line on stderr naming the file and what
is wrong, never a traceback, no half-written file, no run that eats the machine. Most cases run in this
process (`run_cli`: an escaping exception fails the test); pipes, signals and terminals need a real process.
"""

from __future__ import annotations

import hashlib
import json
import os
import pty
import random
import re
import resource
import select
import signal
import socket
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest

from conftest import EXAMPLES
from pipscover.counting.auto import LIST_SOLUTIONS_UP_TO
from pipscover.errors import PipsError
from pipscover.formats import parse
from pipscover.model.results import long_numbers
from pipscover.runtime.limits import parse_size

ROOT = Path(__file__).resolve().parents[1]
FIRST = EXAMPLES / "first.txt"
GOOD = {"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "sum", "target": 3}]}
GOOD_SOLUTION = [{"domino": [1, 2], "cells": [[0, 0], [0, 1]]}]
DEEP = 100_000


def puzzle(**changes) -> dict:
    return {**GOOD, **changes}


def region(**changes) -> dict:
    return puzzle(regions=[{**GOOD["regions"][0], **changes}])


# Three regions, a row each, for the cases that spoil the third: its index in the file (2) is no name for it.
THREE_ROWS = [{"indices": [[0, 0], [0, 1]], "type": "sum", "target": 3}, {"indices": [[1, 0], [1, 1]], "type": "empty"},
              {"indices": [[2, 0], [2, 1]], "type": "sum", "target": 11}]

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"  # the start of a picture
# name -> file content (str, bytes, or an object written as JSON). Every one is bad input.
BAD_FILES: dict[str, object] = {
    # JSON that breaks parsers
    "deep-json": "[" * DEEP + "]" * DEEP,
    "deep-object": '{"a":' * DEEP + "1" + "}" * DEEP,
    "deep-dominoes": '{"dominoes": ' + "[" * DEEP + "]" * DEEP + ', "regions": []}',
    "deep-day": '{"easy": ' + "[" * DEEP + "]" * DEEP + "}",
    "nested-type": region(type=[[[[[["sum"]]]]]]),
    "nested-target": region(target=[[[[[[3]]]]]]),
    "nested-cell": region(indices=[[[[[[0]]]], 0], [0, 1]]),
    "nested-domino": puzzle(dominoes=[[[[[[1]]]], 2]]),
    "long-type": region(type="x" * 1_000_000),
    "number-5000-digits": '{"dominoes": [[1, ' + "9" * 5000 + ']], "regions": []}',
    "malformed": '{"dominoes": [[1, 2]], ',
    "bom-then-garbage": "\ufeff{",
    "trailing-garbage": json.dumps(GOOD) + " x",
    "empty": "",  # was "the text ends where the number of board rows should be"
    "lone-surrogate": '{"printDate": "\\ud800", "easy": ' + json.dumps(GOOD) + "}",  # no text holds half a character
    "nan-pip": '{"dominoes": [[NaN, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}]}',
    "infinity-target": json.dumps(GOOD).replace('"target": 3', '"target": Infinity'),
    "float-pip": puzzle(dominoes=[[1.5, 2]]),
    "bool-pip": puzzle(dominoes=[[True, 2]]),
    "string-pip": puzzle(dominoes=[["1", 2]]),
    "triple-domino": puzzle(dominoes=[[1, 2, 3]]),
    "negative-pip": puzzle(dominoes=[[1, -2]]),
    "negative-cell": region(indices=[[0, -1], [0, 0]]),
    "string-cell": region(indices=[["0", "0"], [0, 1]]),
    "float-target": region(target=2.5),
    "negative-target": region(target=-3),
    "string-target": region(target="3"),
    "missing-target": region(target=None),
    "less-without-target": region(type="less", target=None),
    "stray-target": region(type="unequal", target=1),
    "unknown-type": region(type="most"),
    "null-type": region(type=None),
    "overlap": puzzle(
        regions=[{"indices": [[0, 0], [0, 1]], "type": "empty"}, {"indices": [[0, 1]], "type": "equals"}]
    ),
    "cell-twice": region(indices=[[0, 0], [0, 0]]),
    "odd-cells": puzzle(regions=[{"indices": [[0, 0], [0, 1], [0, 2]], "type": "empty"}]),
    "too-many-dominoes": puzzle(dominoes=[[1, 2], [3, 4]]),
    "empty-region": puzzle(regions=[*GOOD["regions"], {"indices": [], "type": "sum", "target": 1}]),
    "regions-null": puzzle(regions=None),
    "regions-object": puzzle(regions={"a": 1}),
    "region-string": puzzle(regions=["sum"]),
    "indices-missing": puzzle(regions=[{"type": "empty"}]),
    "third-region-target-x": puzzle(dominoes=[[1, 2], [3, 4], [5, 6]],
                                    regions=[*THREE_ROWS[:2], {**THREE_ROWS[2], "target": "x"}]),
    "third-region-short-index": puzzle(dominoes=[[1, 2], [3, 4], [5, 6]],
                                       regions=[*THREE_ROWS[:2], {**THREE_ROWS[2], "indices": [[2, 0], [2]]}]),
    "dominoes-object": puzzle(dominoes={"a": [1, 2]}),
    "empty-object": {},
    "top-level-list": [GOOD],
    "top-level-string": '"a puzzle"',
    "top-level-number": "42",
    "day-null": {"printDate": "2025-01-01", "easy": None},
    "day-number": {"printDate": "2025-01-01", "easy": 5, "hard": GOOD},
    "solution-short": puzzle(solution=[]),
    "solution-garbage": puzzle(solution=[["a", "b"]]),
    # the text format
    "text-empty": "",
    "text-blank": "  \n\n\t\n",
    "text-truncated": "2\nAA\n",
    "text-superscript-rows": "\u00b9\nAA\n1\nA SUM 3\n1\n1 2\n",
    "text-superscript-target": "1\nAA\n1\nA SUM \u00b3\n1\n1 2\n",
    "text-superscript-pip": "1\nAA\n1\nA SUM 3\n1\n1 \u00b2\n",
    "text-arabic-digit": "1\nAA\n1\nA SUM \u0663\n1\n1 2\n",
    "text-fullwidth-digit": "1\nAA\n1\nA SUM \uff13\n1\n1 2\n",
    "text-5000-digit-pip": "1\nAA\n1\nA SUM 3\n1\n1 " + "9" * 5000 + "\n",
    "text-huge-row-count": "99999999999999999999\nAA\n",
    "text-bad-mark": "1\nA$\n1\nA SUM 3\n1\n1 2\n",
    "text-bad-kind": "1\nAA\n1\nA MOST 3\n1\n1 2\n",
    "text-kind-needs-number": "1\nAA\n1\nA SUM\n1\n1 2\n",
    "text-kind-takes-no-number": "1\nAA\n1\nA EQ 3\n1\n1 2\n",
    "text-two-constraints": "1\nAA\n2\nA SUM 3\nA SUM 4\n1\n1 2\n",
    "text-letter-without-rule": "1\nAB\n1\nA SUM 3\n1\n1 2\n",
    "text-rule-without-cells": "1\nAA\n2\nA SUM 3\nB EQ\n1\n1 2\n",
    "text-float-pip": "1\nAA\n1\nA SUM 3\n1\n1.5 2\n",
    "text-word-pip": "1\nAA\n1\nA SUM 3\n1\n1 x\n",
    "text-negative-pip": "1\nAA\n1\nA SUM 3\n1\n-1 2\n",
    "text-after-the-dominoes": "1\nAA\n1\nA SUM 3\n1\n1 2\nhello\n",
    "text-second-puzzle-broken": "1\nAA\n1\nA SUM 3\n1\n1 2\n\n1\nAA\n",
    "text-long-line": "1\nAA\n1\nA SUM 3\n1\n" + "7 " * 500_000 + "\n",
    # not text at all
    "binary": b"\xff\xfe\x00\x01garbage",
    "latin-1": "1\nAA\n1\nA SUM 3\n1\n1 2\n# caf\xe9".encode("latin-1"),
    "nul-bytes": b"\x00" * 64,
    "png": PNG,
    "text-png": PNG,
}
# Commands that read a puzzle file first; PUZZLE stands for the bad file.
FILE_COMMANDS = {
    "show": ["show", "PUZZLE"],
    "solve": ["solve", "PUZZLE"],
    "count": ["count", "PUZZLE"],
    "encode": ["encode", "PUZZLE"],
    "check": ["check", "PUZZLE", "SOLUTION"],
    "decode": ["decode", "PUZZLE", "MODEL"],
    "bench": ["bench", "PUZZLE"],
    "hint": ["hint", "PUZZLE"],
    "rate": ["rate", "PUZZLE"],
    "certify": ["certify", "PUZZLE", "-o", "OUTPUT"],  # (OUTPUT: a file in the test's folder, never written)
}


def write(tmp_path: Path, name: str, content: object) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def assert_one_line_error(result, *named: object) -> None:
    """Exit code 2, one line on stderr that names what it should, and nothing half-printed on stdout."""
    assert result.code == 2, result
    assert result.err.startswith("pipscover: error: ") and result.err.count("\n") == 1, result.err[:500]
    assert "Traceback" not in result.err and len(result.err) < 1000
    for name in named:
        assert str(name) in result.err, result.err


@pytest.fixture(scope="module")
def bad_folder(tmp_path_factory) -> Path:
    """Every bad file, written once for every command that reads it, beside a good solution and model."""
    folder = tmp_path_factory.mktemp("bad")
    for name, content in BAD_FILES.items():
        write(folder, f"{name}.{'txt' if name.startswith('text') else 'json'}", content)
    write(folder, "solution.json", GOOD_SOLUTION)
    write(folder, "model.txt", "s SATISFIABLE\nv 1 0\n")
    return folder


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_puzzle_file_gives_one_line_naming_it(run_cli, bad_folder, name, tmp_path):
    """Every command that reads a puzzle file, in turn, on the file: as 666 tests of their own (a file and a
    command each), pytest's setup and reports of each test cost 1.8 s of CPU more than the commands' runs."""
    path = bad_folder / f"{name}.{'txt' if name.startswith('text') else 'json'}"
    named = {"PUZZLE": path, "SOLUTION": bad_folder / "solution.json", "MODEL": bad_folder / "model.txt",
             "OUTPUT": tmp_path / "out.cnf"}
    for command, args in FILE_COMMANDS.items():
        result = run_cli(*[named.get(arg, arg) for arg in args])
        assert (result.code, result.out) == (2, ""), f"pipscover {command}: {result}"
        assert_one_line_error(result, path)


# The commands that go on past a bad file among others, with what each needs besides (OUTPUT: a file to write).
GOING_ON = {"count": [], "solve": [], "rate": [], "sample": [], "hint": [], "show": [], "encode": ["-o", "OUTPUT.cnf"],
            "certify": ["-o", "OUTPUT.cnf"]}


@pytest.mark.parametrize("command", sorted(GOING_ON))
def test_a_folder_of_bad_files_is_reported_file_by_file_and_the_puzzle_after_it_answered(run_cli, bad_folder,
                                                                                        command, tmp_path):
    """`count FOLDER`, `solve`, `rate`, `sample`, `hint`, `show`, `encode` and `certify` stopped with exit 2 at the
    folder's first bad file, answering none; now each bad file is one line (an entry of --json saying what is
    wrong), the puzzles that read are answered, and the exit code is 1, as `sweep`'s for its error rows. A bad
    file named alone still ends with exit 2."""
    files = [str(file) for file in sorted(bad_folder.iterdir())]
    extra = [arg.replace("OUTPUT", str(tmp_path / "out")) for arg in GOING_ON[command]]
    done = run_cli(command, bad_folder, FIRST, *extra)
    reported = [line for line in done.out.splitlines() if line.startswith("not read: ")]
    assert (done.code, done.err, len(reported)) == (1, "", len(files)), (done.code, done.err[-500:])
    assert all(line.startswith(f"not read: {file}") for line, file in zip(reported, files))
    assert f"\n{FIRST}" in done.out and "Traceback" not in done.out
    entries = [json.loads(line) for line in run_cli(command, bad_folder, FIRST, *extra, "--json").out.splitlines()]
    assert [entry["puzzle"]["file"] for entry in entries] == [*files, str(FIRST)]
    assert all(entry["status"] == "error" and entry["error"].startswith(file) for entry, file in zip(entries, files))
    assert "error" not in entries[-1]


@pytest.mark.parametrize("args", [[command, *GOING_ON[command]] for command in sorted(GOING_ON)]
                         + [["bench"], ["bench", "--json"], ["encode"], ["hint", "--given", "solution.json"],
                            ["show", "-f", "text", "-o", "OUTPUT.txt"], ["show", "-o", "OUTPUT"],
                            ["show", "--json", "-o", "OUTPUT.txt"], ["solve", "-o", "OUTPUT.svg"],
                            ["hint", "-o", "OUTPUT.svg"]])
def test_a_folder_where_no_file_reads_ends_with_exit_code_1_as_count_does(run_cli, bad_folder, tmp_path, args):
    """`bench` ended with exit 2 ("none of the puzzle files read"), `encode` to stdout with "0 puzzles given and
    one stdout", and `hint --given` with a traceback; `count` said what did not read and ended with 1. Now each
    reports every file in one line (an entry of --json) and ends with 1, and writes no -o file: `show -f text
    -o out.txt` wrote an empty one."""
    files = sorted(bad_folder.iterdir())
    args = [arg.replace("OUTPUT", str(tmp_path / "out")).replace("solution.json", str(bad_folder / "solution.json"))
            for arg in args]
    done = run_cli(args[0], bad_folder, *args[1:])
    said = done.err if args == ["encode"] else done.out
    assert done.code == 1 and "error" not in (done.out if args == ["encode"] else done.err), done
    assert list(tmp_path.iterdir()) == []
    if args == ["bench", "--json"]:
        assert [entry["puzzle"]["file"] for entry in json.loads(said)["unread"]] == [str(file) for file in files]
        return
    if "--json" in args:
        assert [json.loads(line)["puzzle"]["file"] for line in said.splitlines()] == [str(file) for file in files]
        return
    reported = [line for line in said.splitlines() if line.startswith("not read: ")]
    assert len(reported) == len(files) and "Traceback" not in said


# Refusals of what was asked, given a bad file and puzzles that read (GENERATED: five).
GENERATED = EXAMPLES / "generated"
REFUSED_OVER_A_FOLDER = [
    ["hint", GENERATED, "--given", "solution.json"],
    ["hint", GENERATED, "-o", "-"],
    ["solve", GENERATED, "-o", "-"],
    ["encode", GENERATED],
    ["count", GENERATED, "--scheduler", "tcp://127.0.0.1:1"],
    ["count", FIRST, "--marginals", "--distinct", "grids"],
    ["count", FIRST, "--limit", "5"],
    ["solve", FIRST, "--card", "totalizer", "-b", "dlx"],
    ["solve", FIRST, "-b", "minisat22", "--seed", "3"],
    ["show", FIRST, "-f", "text", "--solution"],
]


@pytest.mark.parametrize("args", REFUSED_OVER_A_FOLDER,
                         ids=lambda args: " ".join(arg.name if isinstance(arg, Path) else arg for arg in args))
def test_a_refusal_of_the_options_comes_alone_before_any_files_report(run_cli, bad_folder, args):
    """The "not read:" lines of the bad files came first, then the refusal ("5 puzzles given and one stdout",
    "--given is for one"), which ended the command with exit 2: a refusal of what was asked comes alone."""
    command, *rest = [bad_folder / arg if arg == "solution.json" else arg for arg in args]
    done = run_cli(command, bad_folder / "malformed.json", *rest)
    assert done.out == ""
    assert_one_line_error(done)


@pytest.mark.parametrize("args", [["show", "-f", "text"], ["encode"], ["encode", "--json"]])
def test_a_bad_file_beside_a_file_written_to_stdout_is_reported_on_stderr(run_cli, bad_folder, args):
    """`show -f text` and `encode` write a file to stdout, which a "not read" line would spoil: what they say of
    a bad file goes to stderr (with `encode --json`'s summaries), and stdout is what the good file alone gives."""
    alone = run_cli(*args, FIRST)
    done = run_cli(*args, bad_folder / "malformed.json", FIRST)
    assert (done.code, done.out) == (1, alone.out)
    said = done.err.splitlines()[0]
    assert said.startswith(f"not read: {bad_folder / 'malformed.json'}: ") or json.loads(said)["status"] == "error"


def test_bench_lists_the_files_that_did_not_read_in_its_summary(run_cli, bad_folder):
    """`bench FOLDER` stopped with exit 2 at the first bad file; now it times the others and, as its --json is
    one summary object, lists the bad files under "unread" (each as `count --json`'s error entry); exit code 1."""
    bad = bad_folder / "malformed.json"
    done = run_cli("bench", bad, FIRST, "--json")
    summary = json.loads(done.out)
    assert (done.code, done.err, summary["puzzles"]) == (1, "", 1)
    assert [entry["puzzle"]["file"] for entry in summary["unread"]] == [str(bad)]
    assert json.loads(run_cli("bench", FIRST, "--json").out)["unread"] == []
    said = run_cli("bench", bad, FIRST)
    assert said.code == 1 and said.out.startswith(f"not read: {bad}: ") and "\n1 puzzle, " in said.out
    none = run_cli("bench", bad, bad_folder / "empty.json")  # was "no puzzles to benchmark", no reason
    assert none.code == 1 and none.out.endswith("nothing to time: none of the 2 puzzle files read\n")


def test_a_number_of_5000_digits_is_named_as_such_not_with_pythons_advice(run_cli, bad_folder):
    """It said "(Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use
    sys.set_int_max_str_digits() to increase the limit)": advice for a programmer, about a number no puzzle has."""
    path = bad_folder / "number-5000-digits.json"
    result = run_cli("solve", path)
    assert result.err == (f"pipscover: error: {path}: unreadable JSON: a number of more than 4300 digits, far past "
                          "any pip or target\n")


# What the NYT reader and the model's checks say of a bad region: its name as the player sees it (its rule and
# where it lies: `pipscover.model.naming`), or its place in the file when its cells are unreadable; they said
# "region 2 (sum) has target 'x'", "region 1 has no cells", "cell [0, 1] is in region 0 and region 1".
REGION_WORDING = {
    "third-region-target-x": "the sum region at the bottom has target 'x'; targets are whole numbers >= 0",
    "third-region-short-index": "every index of the 3rd region in the file must be a [row, column] pair",
    "string-target": "the sum region in the centre has target '3'; targets are whole numbers >= 0",
    "missing-target": "the sum region in the centre needs a target",
    "stray-target": "the all-different region in the centre takes no target, but has target 1",
    "unknown-type": "the region in the centre has unknown type 'most'",
    "overlap": "cell [0, 1] is in both the region without a rule in the centre and the all-equal region on the right",
    "cell-twice": "the sum-3 region in the centre lists cell [0, 0] twice",
    "negative-cell": "the 1st region in the file has a malformed cell [0, -1]; cells are [row, column], both >= 0",
    "empty-region": "the 2nd region in the file has no cells",
    "indices-missing": "the 1st region in the file must be an object with a list of 'indices'",
}


@pytest.mark.parametrize("name", sorted(REGION_WORDING))
def test_a_bad_region_is_named_as_the_player_sees_it_not_by_its_index(run_cli, bad_folder, name):
    path = bad_folder / f"{name}.json"
    assert run_cli("solve", path).err == f"pipscover: error: {path}: {REGION_WORDING[name]}\n"


# Option values every command must refuse in one line (typer's usage errors included), exit code 2.
BAD_OPTIONS = [
    ["solve", FIRST, "--timeout", "-1"],
    ["solve", FIRST, "--timeout", "nan"],
    ["solve", FIRST, "--timeout", "-inf"],
    ["solve", FIRST, "--timeout", "abc"],
    ["solve", FIRST, "--limit", "0"],
    ["solve", FIRST, "--limit", "many"],
    ["solve", FIRST, "--limit"],
    ["solve", FIRST, "--card", "bogus"],
    ["solve", FIRST, "--pb", "bogus"],
    ["solve", FIRST, "--card", "totalizer"],  # dlx writes no CNF
    ["solve", FIRST, "-d", "extreme"],
    ["solve", FIRST, "-b", "bogus"],
    ["solve", FIRST, "--bogus"],
    ["solve"],
    ["count", FIRST, "--jobs", "0"],
    ["count", FIRST, FIRST, "--jobs", str(10**20)],  # forked a worker per puzzle, or a Dask worker each
    ["sweep", "count", FIRST, "--jobs", str(10**20)],  # started Dask workers until the machine gave out
    ["count", FIRST, "-m", "bogus"],
    ["count", FIRST, "--distinct", "bogus"],
    ["count", FIRST, "-m", "structural", "-b", "minisat22"],
    ["count", FIRST, "--timeout", "-5"],
    ["count", FIRST, "--memory", "lots"],
    ["count", FIRST, "--memory", "0"],
    ["count", FIRST, "--memory", "inf"],
    ["show", FIRST, "-f", "bogus"],
    ["show", FIRST, "--bogus"],
    ["bench", FIRST, "--repeat", "0"],
    ["bench", FIRST, "--task", "bogus"],
    ["bench", FIRST, "--clock", "bogus"],
    ["bench", FIRST, "--timeout", "nan"],
    ["encode", FIRST, "--project", "bogus"],
    ["encode", FIRST, "--card", "bogus"],
    ["encode", FIRST, "--dimacs", "x.cnf"],
    ["decode", FIRST],
    ["check", FIRST],
    ["generate", "-n", "0"],
    ["generate", "-n", "lots"],
    ["generate", "--max-pip", "-1"],
    ["generate", "--max-pip", "1000000000000000000000000000000"],
    ["planted", "4x4", "--max-pip", "1000000001"],  # had no bound (10**20 ran; a SAT solver took 28 s at 10**12)
    ["sweep", "generate", "--seeds", "1-3", "--max-pip", str(10**20)],  # was an OverflowError row per seed
    ["sweep", "count", FIRST, "-j", "1", "--timeout", "nan"],  # was a ValueError row per puzzle
    ["generate", "--shape", "blob"],
    ["generate", "--seed", "abc"],
    ["generate", "--difficulty", "extreme"],
    ["reduce", "subset-sum"],
    ["reduce", "subset-sum", "--numbers", "a,b", "--target", "3"],
    ["reduce", "subset-sum", "--numbers", "3,5", "--target", "x"],
    ["reduce", "subset-sum", "--numbers", "\uff13,\uff15", "--target", "8"],  # fullwidth digits: int() took them
    ["reduce", "subset-sum", "--numbers", "\u0663,5", "--target", "8"],  # an Arabic-Indic 3, as 3
    ["reduce", "subset-sum", "--numbers", "3_000,5", "--target", "8"],  # int() took it as 3000
    ["reduce", "bogus"],
    ["reduce", "one-in-three"],
    ["backends", "--bogus"],
    ["planted", "abc"],
    ["planted", "3x3"],  # the seed drawn was a line on stderr before the refusal
    ["planted", "\u00b2x3", "--seed", "1"],  # a superscript 2: str.isdigit took it, then int()'s traceback
    ["planted", "\uff14x\uff14", "--seed", "1"],  # fullwidth 4x4, taken as 4x4
    ["sweep", "generate", "--seeds", "\uff11-\uff12"],
    ["count", FIRST, "--memory", "\uff12G"],
    ["solve", FIRST, "--limit", "\uff12"],  # click's int() took fullwidth digits: --limit 2
    ["solve", FIRST, "--timeout", "\uff15"],  # and float() too
    ["generate", "-n", "\u0664", "--seed", "1"],  # an Arabic-Indic 4
    ["sweep", "bogus"],
    ["sweep", "solve", FIRST, "-d", "extreme"],
    ["sweep", "generate", "--seeds", "1", "--shape", "blob"],
    ["sweep", "solve", FIRST, "--limit", "0"],
    ["sweep", "solve", FIRST, "-b", "bogus"],
    ["sweep", "count", FIRST, "--seeds", "1-2", "-j", "1"],  # another task's option: counted, and ignored
    ["sweep", "solve", FIRST, "--repeat", "3", "-j", "1"],
    ["sweep", "bench", FIRST, "--all", "-j", "1"],
    ["solve", FIRST, "--seed", "abc"],
    ["planted", "4x4", "--seed", "x"],
    ["bench", FIRST, "--card", "bogus"],
    ["bench", FIRST, "-b", "dlx", "--card", "totalizer"],  # no backend there writes a CNF: was ignored
    ["bench", FIRST, "-b", "dlx", "-b", "local", "--encoding", "compact"],
    ["count", FIRST, "-b", "bogus"],
    ["count", FIRST, "-b", "dlx"],  # not a SAT solver: was a notice, then the error (two lines)
    ["count", FIRST, "-m", "dlx", "-b", "minisat22"],  # -b is for --method blocking only
    ["count", FIRST, "--limit", "5"],  # --limit stops the listing methods only: auto ignored it
    ["count", FIRST, "-m", "structural", "--limit", "5"],
    ["count", FIRST, "-m", "inclusion-exclusion", "--limit", "5"],
    ["generate", "--seed", "1.5"],
    ["plot"],
    ["hint", FIRST, "--bogus"],
    ["solve", FIRST, "-d", "hard"],  # a file whose puzzle names no difficulty: -d was silently ignored
    ["serve", "--host", ""],  # listened on every address, as 0.0.0.0, and printed http://:8000/
    ["count", EXAMPLES / "generated", "-d", "hard"],  # a folder where no file names one
    ["solve", FIRST, "-b", "minisat22", "--seed", "3"],  # a SAT solver draws nothing from it: was ignored
    ["show", FIRST, "-f", "text", "--json"],  # printed the JSON, -f ignored
    ["bogus"],
    ["--bogus"],
]


HUGE = "9" * 4000  # a number Python reads (up to 4,300 digits), far past any the options mean
HUGE_NUMBERS = {
    "generate-seed": (["generate", "-n", "4", "--seed", HUGE], ("--seed 999999999999999999...999999999999999999 "
                      "(4000 characters): must be a whole number from -(2^64 - 1) to 2^64 - 1")),
    "solve-seed": (["solve", FIRST, "--seed", str(2**64)], "--seed 18446744073709551616: must be a whole number"),
    "sample-seed": (["sample", FIRST, "--seed", "-" + HUGE], "must be a whole number from -(2^64 - 1)"),
    "limit-5000-digits": (["solve", FIRST, "--limit", "9" * 5000], "a number of more than 4300 digits"),
    "generate-dominoes": (["generate", "-n", HUGE], "more than 10^3999 dominoes is too many"),
    "sweep-seeds": (["sweep", "generate", "--seeds", "1-10000000000000"], "more than 1,000,000 seeds"),
    # (both ended in an OverflowError's traceback, the size of their board past a float)
    "planted-size": (["planted", HUGE + "x2", "--seed", "1"], "a board of more than 10^4000 cells would need far "),
    "generate-rect": (["generate", "-n", HUGE, "--no-unique", "--shape", "rect", "--seed", "1"], "10^18 GiB"),
    # (a ValueError's traceback: a board of 4,400 digits has no str(); the odd one was named in 8,800 characters)
    "planted-area": (["planted", f"{'9' * 2200}x{'8' * 2200}", "--seed", "1"], "a board of more than 10^4399 cells"),
    "planted-odd": (["planted", f"{'9' * 2200}x{'9' * 2200}", "--seed", "1"],
                    "(2200 characters) board cannot be tiled"),
}


@pytest.mark.parametrize("name", sorted(HUGE_NUMBERS))
def test_a_huge_number_is_refused_in_a_short_line(run_cli, tmp_path, monkeypatch, name):
    """A 4,000-digit seed was taken (and the page's server took it too); a refused one was quoted whole, in a
    line of 4,000 characters; `sweep --seeds 1-10000000000000` made a job per seed until memory ran out."""
    monkeypatch.chdir(tmp_path)
    args, says = HUGE_NUMBERS[name]
    assert_one_line_error(run_cli(*args), says)


@pytest.mark.parametrize("args", [["solve", ""], ["count", FIRST, ""], ["check", "", "s.json"],
                                  ["hint", FIRST, "--given", ""]], ids=["solve", "count", "check", "hint"])
def test_an_empty_file_name_is_refused_not_read_as_the_current_folder(run_cli, tmp_path, monkeypatch, args):
    """pathlib reads '' as '.': `pipscover solve "$FILE"` with FILE unset solved every puzzle of the current
    folder; now each command refuses the empty name, which names no file, in one line."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "here.json", GOOD)
    assert_one_line_error(run_cli(*args), "'': an empty name names no file (. is the current folder)")


@pytest.mark.parametrize("command", ["show", "hint", "encode"])
def test_an_empty_output_name_is_named_empty_not_a_folder(run_cli, tmp_path, monkeypatch, command):
    """`-o "$NAME"` with NAME unset said ": is a folder; give a file name to write" (Path("") is ".")."""
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(run_cli(command, FIRST, "-o", ""), "-o '': an empty name; give a file name to write")


def test_a_limit_past_what_any_run_reaches_is_taken_as_given(run_cli):
    """`solve --limit 10**20` and `sample -n 10**20` ended in islice's ValueError ("Stop argument for islice()
    must be None or an integer: 0 <= x <= sys.maxsize"): a limit no run reaches is as good as none."""
    solved = run_cli("solve", FIRST, "--limit", str(10**20), "--json")
    assert (solved.code, solved.err, len(json.loads(solved.out)["solutions"])) == (0, "", 1)
    assert run_cli("count", FIRST, "-m", "dlx", "--limit", str(10**20)).code == 0
    drawn = run_cli("sample", FIRST, "-n", str(10**20), "--timeout", "0.5", "--json")
    assert (drawn.code, drawn.err) == (3, "") and json.loads(drawn.out)["solutions"]


@pytest.mark.parametrize("args", BAD_OPTIONS, ids=lambda args: " ".join(map(str, args)).replace(str(EXAMPLES), "ex"))
def test_a_bad_option_gives_one_line_and_exit_code_2(run_cli, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(run_cli(*args))


def test_a_number_option_in_other_digits_is_named_not_a_number_not_out_of_range(run_cli):
    """`--limit ２` (fullwidth) is no whole number, as `--limit x` is: not "must be at least 1", which it is."""
    assert run_cli("solve", FIRST, "--limit", "\uff12").err == ("pipscover: error: solve: --limit \uff12: not a whole "
                                                               "number (at least 1) (see pipscover solve --help)\n")


@pytest.mark.parametrize("args", [["sample", FIRST, "--number", "1.5"], ["sample", FIRST, "--number", "1e3"],
                                  ["count", FIRST, "--limit", "1e3"]], ids=["1.5", "1e3", "count-1e3"])
def test_a_number_with_a_fraction_or_an_exponent_is_named_no_whole_number(run_cli, args):
    """`sample -n 1.5` and `-n 1e3` said "must be at least 1", which 1.5 and 1000 are: a number that reads
    as a float was taken for one out of range, where a whole number is asked."""
    assert_one_line_error(run_cli(*args), f"{args[0]}: {args[2]} {args[3]}: not a whole number (at least 1)")


@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_a_difficulty_the_file_cannot_choose_by_is_refused_in_the_command_lines_words(run_cli, tmp_path, command):
    """The API's refusal names its `difficulty` argument (`formats.NothingToChoose`); every command that reads
    a puzzle file says -d instead, the option the user typed."""
    named = {"PUZZLE": FIRST, "SOLUTION": write(tmp_path, "solution.json", GOOD_SOLUTION),
             "MODEL": write(tmp_path, "model.txt", "s SATISFIABLE\nv 1 0\n"), "OUTPUT": tmp_path / "out.cnf"}
    done = run_cli(*[named.get(arg, arg) for arg in FILE_COMMANDS[command]], "-d", "hard")
    assert_one_line_error(done, FIRST, "no hard one to choose; drop -d")


@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_a_missing_puzzle_file_is_named(run_cli, tmp_path, command):
    path = tmp_path / "absent.json"
    solution, model = write(tmp_path, "solution.json", GOOD_SOLUTION), write(tmp_path, "model.txt", "v 1 0\n")
    named = {"PUZZLE": path, "SOLUTION": solution, "MODEL": model, "OUTPUT": tmp_path / "out.cnf"}
    args = [named.get(arg, arg) for arg in FILE_COMMANDS[command]]
    assert_one_line_error(run_cli(*args), path, "no such file")


def test_puzzle_files_refuses_a_missing_path_as_the_commands_do(run_cli, tmp_path):
    """`pipscover.puzzle_files(["nope"])` returned the path as a puzzle file, without an error."""
    import pipscover

    path = tmp_path / "nope"
    with pytest.raises(pipscover.PipsError) as refused:
        pipscover.puzzle_files([FIRST, path])
    said = run_cli("solve", path).err
    assert said == f"pipscover: error: {refused.value}\n" == f"pipscover: error: {path}: no such file\n"
    assert pipscover.puzzle_files(["-"]) == [Path("-")]  # standard input


@pytest.mark.parametrize("args", [["show", "NAME", "-o", "p.svg"], ["solve", "NAME", "-o", "s.svg"],
                                  ["hint", "NAME", "-o", "h.svg"], ["encode", "NAME", "-o", "p.cnf"]], ids=" ".join)
def test_a_file_name_that_is_not_utf_8_is_shown_not_a_traceback(run_cli, tmp_path, monkeypatch, args):
    """A name written under another encoding (b"caf\\xe9.txt"): every picture and CNF that carried it ended in a
    UnicodeEncodeError's traceback, with nothing written."""
    monkeypatch.chdir(tmp_path)
    name = os.fsdecode(b"caf\xe9.txt")
    (tmp_path / name).write_bytes(FIRST.read_bytes())
    done = run_cli(*[name if arg == "NAME" else arg for arg in args])
    assert done.code == 0 and "caf\ufffd.txt" in (tmp_path / args[-1]).read_text(encoding="utf-8")


def test_a_file_name_with_a_line_break_stays_on_the_headlines_one_line(run_cli, tmp_path, monkeypatch):
    """`solve $'two\\nlines.txt'` printed its headline over two lines, the second looking like a line of its own."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "two\nlines.txt").write_bytes(FIRST.read_bytes())
    done = run_cli("solve", "two\nlines.txt")
    assert done.code == 0 and done.out.startswith("two\\nlines.txt: solved by ")
    assert json.loads(run_cli("solve", "two\nlines.txt", "--json").out)["puzzle"]["file"] == "two\nlines.txt"


def test_a_bad_file_whose_name_turns_the_line_around_is_named_as_the_answers_name_files(run_cli, tmp_path):
    """The "not read:" line of a folder's bad file printed its name raw: a right-to-left override in it showed
    the rest of the line backwards, where the answers' lines write it as an escape (`Origin.describe`)."""
    (tmp_path / "good\u202e.txt").write_bytes(FIRST.read_bytes())
    (tmp_path / "bad\u202e.txt").write_text("junk")
    done = run_cli("count", tmp_path)
    assert done.code == 1 and done.out.splitlines()[0].startswith(f"not read: {tmp_path}/bad\\u202e.txt: line 1: ")
    assert done.out.splitlines()[1].startswith(f"{tmp_path}/good\\u202e.txt: 1 solution") and "\u202e" not in done.out


def test_a_bad_file_whose_name_holds_control_characters_is_named_in_escapes(run_cli, tmp_path):
    """The error line printed a bad file's name raw: a right-to-left override showed the rest of the line
    backwards, and an escape sequence (here one that turns the terminal red) reached the terminal."""
    bad = tmp_path / "bad\u202e\x1b[31m.txt"
    bad.write_text("junk")
    done = run_cli("solve", bad)
    assert_one_line_error(done, f"{tmp_path}/bad\\u202e\\x1b[31m.txt: line 1: ")
    assert "\u202e" not in done.err and "\x1b" not in done.err


def test_a_file_name_that_is_not_utf_8_is_printed_on_a_strict_terminal(tmp_path):
    """A terminal under a UTF-8 locale (en_US.UTF-8) prints strictly: the solve headline naming the file
    ended in a traceback."""
    name = os.fsdecode(b"caf\xe9.txt")
    (tmp_path / name).write_bytes(FIRST.read_bytes())
    done = subprocess.run([sys.executable, "-m", "pipscover", "solve", name], cwd=tmp_path, capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"})
    assert done.returncode == 0 and done.stdout.startswith("caf\ufffd.txt: solved".encode()), done.stderr[-300:]


@pytest.mark.parametrize(("name", "kind"), [("png.json", "JSON"), ("text-png.txt", "a text puzzle file")])
def test_a_picture_named_as_a_puzzle_file_is_said_to_be_binary(run_cli, bad_folder, name, kind):
    """Read as the text format (on the page, which reads a file as text), a PNG was "line 1: expected the number
    of board rows, found '\ufffdPNG'"."""
    path = bad_folder / name
    assert run_cli("solve", path).err == f"pipscover: error: {path}: not {kind} (binary content)\n"
    with pytest.raises(PipsError, match=re.escape("picture.txt: not a text puzzle file (binary content)")):
        parse(PNG.decode("utf-8", "replace"), "picture.txt")


def test_an_empty_file_is_said_to_be_empty(run_cli, bad_folder):
    """An empty file was "the text ends where the number of board rows should be", the text format's parser
    speaking of a file that may have been meant as JSON."""
    for name in ("empty.json", "text-empty.txt", "text-blank.txt"):
        assert_one_line_error(run_cli("solve", bad_folder / name), bad_folder / name, "the file is empty")


def test_an_empty_folder_and_a_folder_as_file_are_named(run_cli, tmp_path):
    (tmp_path / "empty").mkdir()
    assert_one_line_error(run_cli("count", tmp_path / "empty"), "empty", "no puzzle files")
    assert_one_line_error(run_cli("check", FIRST, tmp_path / "empty"), "empty", "folder")


# Solution files `check` must refuse in one line naming them.
BAD_SOLUTIONS = {
    "deep": "[" * DEEP + "]" * DEEP,
    "deep-in-solutions": '{"solutions": ' + "[" * DEEP + "]" * DEEP + "}",
    "deep-domino": '{"solutions": [[{"domino": ' + "[" * 900 + "]" * 900 + ', "cells": [[0, 0], [0, 1]]}]]}',
    "not-json": "solution: 1-2",
    "solutions-number": {"solutions": 5},
    "placement-without-cells": [{"domino": [1, 2]}],
    "placement-long-string": [{"domino": "x" * 1_000_000, "cells": [[0, 0], [0, 1]]}],
    "empty-list": [],
    "binary": b"\x89PNG\r\n\x1a\n",
}


@pytest.mark.parametrize("name", sorted(BAD_SOLUTIONS))
def test_check_refuses_a_bad_solution_file_in_one_line(run_cli, tmp_path, name):
    puzzle_file = write(tmp_path, "p.json", GOOD)
    path = write(tmp_path, f"{name}.json", BAD_SOLUTIONS[name])
    assert_one_line_error(run_cli("check", puzzle_file, path), path)


# Positions `hint --given` must refuse in one line naming them (an empty list is the empty board: no error).
BAD_POSITIONS = {name: BAD_SOLUTIONS[name] for name in ("deep", "not-json", "placement-without-cells",
                                                         "placement-long-string", "binary")}
BAD_POSITIONS["solutions-object"] = {"solutions": []}
BAD_POSITIONS["two-solutions"] = {"solutions": [GOOD_SOLUTION, GOOD_SOLUTION]}  # --given takes one position


@pytest.mark.parametrize("name", sorted(BAD_POSITIONS))
def test_hint_refuses_a_bad_given_position_in_one_line(run_cli, tmp_path, name):
    puzzle_file = write(tmp_path, "p.json", GOOD)
    path = write(tmp_path, f"{name}.json", BAD_POSITIONS[name])
    assert_one_line_error(run_cli("hint", puzzle_file, "--given", path), path)


@pytest.mark.parametrize("puzzles", ["bad folder", "malformed.json", "missing.json"])
def test_hint_refuses_a_missing_given_file_alone_before_the_puzzles(run_cli, bad_folder, tmp_path, puzzles):
    """With no puzzle that read, `hint --given missing.json` never looked at the --given file: a folder's
    "not read" lines ended with exit 1, and a bad puzzle file named alone hid it. The --given file is what was
    asked, so it is refused first and alone, as other refusals of what was asked are, in one line, exit 2."""
    named = bad_folder if puzzles == "bad folder" else bad_folder / puzzles
    done = run_cli("hint", named, "--given", tmp_path / "missing.json")
    assert done.code == 2 and done.out == ""
    assert done.err == f"pipscover: error: {tmp_path / 'missing.json'}: no such file\n", done


def test_check_reads_a_solution_behind_a_byte_order_mark(run_cli, tmp_path):
    path = write(tmp_path, "s.json", "\ufeff" + json.dumps(GOOD_SOLUTION))
    assert run_cli("check", write(tmp_path, "p.json", GOOD), path).code == 0


# Solver outputs `decode` must refuse in one line naming them (the CNF is encode's, for examples/first.txt).
BAD_MODELS = {
    "unknown-status": "s WHATEVER\n",
    "not-a-literal": "v 1 x 0\n",
    "empty": "",
    "sat-without-literals": "s SATISFIABLE\n",
    "variable-beyond-the-encoding": "s SATISFIABLE\nv 99999999 0\n",
    "contradiction": "v 1 -1 0\n",
    "placements-unassigned": "s SATISFIABLE\nv 1 0\n",
    "huge-literal": "v " + "9" * 5000 + " 0\n",
    "binary": b"\xff\x00\xfe",
    # a pseudo-Boolean solver's answer
    "pb-variable-zero": "s SATISFIABLE\nv x0 -x1\n",
    "pb-double-x": "s SATISFIABLE\nv xx1\n",
    "pb-optimum-without-literals": "s OPTIMUM FOUND\n",
    "pb-beyond-the-encoding": "s SATISFIABLE\nv x99999999\n",
}


@pytest.mark.parametrize("suffix", ["cnf", "opb"])
@pytest.mark.parametrize("name", sorted(BAD_MODELS))
def test_decode_refuses_a_bad_model_in_one_line(run_cli, tmp_path, name, suffix):
    encoded = tmp_path / f"first.{suffix}"
    assert run_cli("encode", FIRST, "-o", encoded).code == 0
    path = write(tmp_path, f"{name}.out", BAD_MODELS[name])
    assert_one_line_error(run_cli("decode", encoded, path), path)



# Encoded files whose header is not what encode wrote: decode refuses them in one line naming the file.
BAD_HEADERS = {
    "puzzle-changed": lambda text: text.replace('"target":3', '"target":4', 1),
    "puzzle-cut-short": lambda text: re.sub(r"^(.) puzzle-json .*\n", "", text, count=1, flags=re.M),
    "hash-removed": lambda text: re.sub(r"^(.) puzzle-sha256 .*\n", "", text, flags=re.M),
    "day-with-its-hash": lambda text: re.sub(
        r"^(.) puzzle-json .*\n(?:\1 puzzle-json .*\n)*\1 puzzle-sha256 .*", lambda m: "\n".join([
            f"{m[1]} puzzle-json " + (day := json.dumps({"easy": GOOD, "hard": GOOD}, separators=(",", ":"))),
            f"{m[1]} puzzle-sha256 " + hashlib.sha256(day.encode()).hexdigest()]), text, flags=re.M),
    "no-format": lambda text: re.sub(r": (CNF|OPB) of a Pips puzzle", ": of a Pips puzzle", text),
    "no-puzzle-line": lambda text: re.sub(r"^(.) puzzle file .*\n", "", text, flags=re.M),
}


@pytest.mark.parametrize("suffix", ["cnf", "opb"])
@pytest.mark.parametrize("name", sorted(BAD_HEADERS))
def test_decode_refuses_a_file_whose_header_was_changed(run_cli, tmp_path, name, suffix):
    encoded = tmp_path / f"first.{suffix}"
    assert run_cli("encode", FIRST, "-o", encoded).code == 0
    encoded.write_text(BAD_HEADERS[name](encoded.read_text()))
    model = write(tmp_path, "model.out", "s SATISFIABLE\nv 1 0\n")
    assert_one_line_error(run_cli("decode", encoded, model), encoded)


@pytest.mark.parametrize(("args", "named"), [
    (["encode", FIRST, "--opb", "-o", "x.cnf"], "x.cnf"),
    (["encode", FIRST, "--dimacs", "-o", "x.opb"], "x.opb"),
    (["encode", FIRST, "-o", "x.svg"], "x.svg"),
    (["encode", FIRST, "--opb", "-o", "x.json"], "x.json"),
])
def test_encode_refuses_an_output_whose_suffix_names_another_format(run_cli, tmp_path, monkeypatch, args, named):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(run_cli(*args), named)
    assert list(tmp_path.iterdir()) == []


def test_decode_refuses_a_format_or_difficulty_the_file_does_not_hold(run_cli, tmp_path):
    encoded = tmp_path / "first.cnf"
    assert run_cli("encode", FIRST, "-o", encoded).code == 0
    model = write(tmp_path, "model.out", "s UNSATISFIABLE\n")
    assert_one_line_error(run_cli("decode", encoded, model, "--opb"), encoded, "dimacs")
    assert_one_line_error(run_cli("decode", encoded, model, "-d", "hard"), encoded, "hard")


@pytest.mark.parametrize("option", [
    ["--encoding", "compact"], ["--project", "grids"], ["--card", "totalizer"], ["--pb", "bdd"],
])
def test_encode_opb_refuses_the_options_of_the_cnf(run_cli, tmp_path, monkeypatch, option):
    """OPB has no compact form, no projection and no cardinality encodings: these were ignored."""
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(run_cli("encode", FIRST, "--opb", "-o", "x.opb", *option), " ".join(option), "DIMACS only")
    assert list(tmp_path.iterdir()) == []


def compact_model(run_cli, tmp_path: Path) -> tuple[Path, Path]:
    """first.txt encoded in the compact form, and a SAT solver's answer to it."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    encoded = tmp_path / "compact.cnf"
    assert run_cli("encode", FIRST, "--encoding", "compact", "-o", encoded).code == 0
    with Solver(bootstrap_with=CNF(from_file=str(encoded))) as solver:
        assert solver.solve()
        model = " ".join(map(str, solver.get_model()))
    return encoded, write(tmp_path, "compact.out", f"s SATISFIABLE\nv {model} 0\n")


@pytest.mark.parametrize("option", [["--encoding", "placements"], ["--card", "totalizer"], ["--pb", "bdd"]])
def test_decode_refuses_an_encoding_the_header_contradicts(run_cli, tmp_path, option):
    """Was "cell [0, 0] is covered twice": the option overrode the header."""
    encoded, model = compact_model(run_cli, tmp_path)
    assert run_cli("decode", encoded, model).code == 0
    assert_one_line_error(run_cli("decode", encoded, model, *option), encoded, f"--{option[0][2:]} ", " ".join(option))


def test_decode_of_a_compact_model_given_the_puzzle_names_the_mismatch(run_cli, tmp_path):
    _, model = compact_model(run_cli, tmp_path)
    result = run_cli("decode", FIRST, model)
    assert_one_line_error(result, model, "the model has 319 variables", "has 642", "--encoding")
    assert run_cli("decode", FIRST, model, "--encoding", "compact").code == 0


def test_decode_says_unsatisfiable_with_exit_code_1(run_cli, tmp_path):
    cnf = tmp_path / "first.cnf"
    run_cli("encode", FIRST, "-o", cnf)
    assert run_cli("decode", cnf, write(tmp_path, "unsat.out", "s UNSATISFIABLE\n")).code == 1


# DIMACS files `reduce one-in-three` must refuse in one line naming them.
BAD_CNFS = {
    "header-not-numbers": "p cnf x y\n1 2 3 0\n",
    "header-wrong-kind": "p wcnf 3 1\n1 2 3 0\n",
    "two-literals": "p cnf 3 1\n1 2 0\n",
    "negative-literal": "p cnf 3 1\n1 2 -3 0\n",
    "repeated-literal": "p cnf 3 1\n1 1 2 0\n",
    "no-clauses": "p cnf 3 0\n",
    "too-many-variables-declared": "p cnf 999999999 1\n1 2 3 0\n",
    "too-many-variables-used": "1 2 3000000000 0\n",
    "not-a-literal": "p cnf 3 1\n1 2 a 0\n",
    "header-fullwidth": "p cnf \uff13 1\n1 2 3 0\n",  # \d took it, and int() read it as 3
    "binary": b"\xff\xfe\x00",
}


@pytest.mark.parametrize("name", sorted(BAD_CNFS))
def test_reduce_refuses_a_bad_cnf_in_one_line(run_cli, tmp_path, name):
    path = write(tmp_path, f"{name}.cnf", BAD_CNFS[name])
    assert_one_line_error(run_cli("reduce", "one-in-three", path, "--solve"), path)


def test_reduce_solve_answers_as_a_sat_solver_does(run_cli, tmp_path):
    result = run_cli("reduce", "one-in-three", write(tmp_path, "f.cnf", "p cnf 3 1\n1 2 3 0\n"), "--solve")
    lines = [line for line in result.out.splitlines() if not line.startswith("c ")]
    assert result.code == 0 and lines[0] == "s SATISFIABLE" and re.fullmatch(r"v( -?\d+)+ 0", lines[1])


# --- Resource guards: refused in one line, before anything large is built -------------------------------

def huge_pips(pip: int) -> dict:
    return {"dominoes": [[pip, 1], [2, pip + 3]], "regions": [
        {"indices": [[0, 0], [0, 1]], "type": "sum", "target": pip + 1},
        {"indices": [[1, 0], [1, 1]], "type": "greater", "target": 5}]}


def open_strip(folder: Path, n: int) -> Path:
    """n identical dominoes on a 2 x n board with one `empty` region: trivially solvable, huge."""
    path = folder / f"strip-{n}.json"
    cells = [[r, c] for r in range(2) for c in range(n)]
    path.write_text(json.dumps({"dominoes": [[1, 2]] * n, "regions": [{"indices": cells, "type": "empty"}]}))
    return path


@pytest.fixture(scope="module")
def many_dominoes(tmp_path_factory) -> Path:
    """A 2 x 50,000 strip: past what the placements CNF and the grid counter may build."""
    return open_strip(tmp_path_factory.mktemp("big"), 50_000)


@pytest.fixture(scope="module")
def long_strip(tmp_path_factory) -> Path:
    """A 2 x 20,000 strip: solved and counted whole (20,000 dominoes, a count of 10,000 digits)."""
    return open_strip(tmp_path_factory.mktemp("long"), 20_000)


@pytest.fixture(scope="module")
def many_rules(tmp_path_factory) -> Path:
    """The same board with a `sum` rule on each of its 50,000 columns: every dlx placement checks them all."""
    n = 50_000
    path = tmp_path_factory.mktemp("big") / "ruled.json"
    # Written as the text json.dumps gives: making and dumping 50,000 dicts took eight times the CPU (0.4 s).
    column = '{{"indices": [[0, {c}], [1, {c}]], "type": "sum", "target": 3}}'
    path.write_text('{"dominoes": [' + ", ".join(["[1, 2]"] * n) + '], "regions": ['
                    + ", ".join(column.format(c=c) for c in range(n)) + "]}")
    return path


def fibonacci(n: int) -> int:
    previous, current = 0, 1
    for _ in range(n):
        previous, current = current, previous + current
    return previous


def test_a_huge_open_board_is_solved_by_dlx_and_counted(run_cli, long_strip):
    """2 x 20,000, one `empty` region: DLX lays the 20,000 dominoes (a heap chooses its items) and the count
    is the closed form, tilings x orientations = F(20,001) x 2^20,000, exactly. (2 x 100,000 takes ~8 s and
    ~2 s of CPU: too long for this suite.)"""
    start = time.monotonic()
    solved = run_cli("solve", long_strip, "-b", "dlx", "--json")
    document = json.loads(solved.out)
    assert solved.code == 0 and document["status"] == "solved" and len(document["solutions"][0]) == 20_000
    counted = run_cli("count", long_strip, "--json")
    with long_numbers():  # the count has 10,000 digits (set for good, it let later tests read any number)
        answer = json.loads(counted.out)
    assert counted.code == 0 and answer["count"] == fibonacci(20_001) * 2**20_000
    assert answer["exact"] is True and time.monotonic() - start < 60


@pytest.mark.parametrize("args", [
    # (The compact CNF of this board fits, so `encode` is guarded here for the placements form only.)
    ["encode", "MANY", "--encoding", "placements"],
    ["solve", "MANY", "-b", "minisat22", "--encoding", "placements"],
    ["count", "MANY", "--distinct", "grids"],
    ["solve", "RULED", "-b", "dlx"], ["count", "RULED"],
], ids=" ".join)
def test_a_huge_puzzle_is_refused_before_it_is_built(run_cli, many_dominoes, many_rules, args):
    start = time.monotonic()
    named = {"MANY": many_dominoes, "RULED": many_rules}
    result = run_cli(*[named.get(arg, arg) for arg in args])
    assert_one_line_error(result, named[args[1]])
    assert re.search(r"memory|steps", result.err) and time.monotonic() - start < 30


def test_inclusion_exclusion_refuses_many_distinct_dominoes_before_it_bounds_the_count(run_cli, tmp_path):
    """200 distinct dominoes (pips to 19) on an open 20 x 20 board need 2^199 sweeps: refused from the copies
    alone. The count's bound, a tiling count of the board, was computed first, whatever --timeout said: 46 s
    on 18 x 18 (loaded), about seven times more for each two columns more."""
    cells = [[r, c] for r in range(20) for c in range(20)]
    dominoes = [[a, b] for a in range(20) for b in range(a, 20)][:200]
    path = tmp_path / "distinct.json"
    path.write_text(json.dumps({"dominoes": dominoes, "regions": [{"indices": cells, "type": "empty"}]}))
    start = time.monotonic()
    result = run_cli("count", path, "--method", "inclusion-exclusion", "--timeout", "5")
    assert_one_line_error(result, path)
    assert "sweeps" in result.err and time.monotonic() - start < 30


@pytest.fixture
def wide_board(tmp_path) -> Path:
    """An open 24 x 24 board with three domino types: counting its tilings exactly takes 2^24 states a cell."""
    cells = [[r, c] for r in range(24) for c in range(24)]
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({"dominoes": [[0, 1]] * 96 + [[1, 2]] * 96 + [[2, 2]] * 96,
                                "regions": [{"indices": cells, "type": "empty"}]}))
    return path


def test_inclusion_exclusion_bounds_a_wide_board_without_counting_its_tilings(run_cli, wide_board):
    """Three domino types on an open 24 x 24 board take few sweeps, so the count's bound is asked for: it
    counted the board's tilings exactly, 2^24 states a cell, whatever --timeout said (18 x 18: 16 s idle).
    Bregman's bound answers at once, and the count is refused as past what the residues hold."""
    start = time.monotonic()
    result = run_cli("count", wide_board, "--method", "inclusion-exclusion", "--timeout", "5")
    assert_one_line_error(result, wide_board)
    assert "may pass 2^" in result.err and time.monotonic() - start < 30


@pytest.mark.parametrize(("command", "said"), [("count", "NOT exact: stopped by --timeout"),
                                               ("sample", "stopped by --timeout before the draws")])
def test_a_count_of_a_wide_board_stops_at_its_timeout(wide_board, command, said):
    """`count` (auto) gives the board to the structural counter, whose closed form at the root counts its
    tilings: that ran 9.5 minutes (540 MB) past --timeout 10, and would have run over an hour; `sample`
    counts them the same way. Both now stop at the deadline, in one line (the count with a labelled lower
    bound, which keeps the solutions auto's listing found before it gave way: it said "at least 0"). (In a
    process of its own, which the old code kept past the limit.)"""
    process = pipscover(command, wide_board, "--timeout", "1", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
    try:
        out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"{command} --timeout 1 was still running after 120 s")
    assert process.returncode == 3 and err == "" and out.count("\n") == 1 and said in out
    if command == "count":
        assert int(re.search(r"at least ([\d,]+) solutions", out)[1].replace(",", "")) > LIST_SOLUTIONS_UP_TO


def test_the_default_backend_solves_the_huge_trivial_board(run_cli, tmp_path):
    """`auto` walks a large board first, and on this 2 x 5,000 strip local search tiles it and is done. (Its
    tiling, networkx's Hopcroft-Karp matching, searches depth first by recursion: 2 x 2,000 to 2 x 5,000
    strips ended in a RecursionError's traceback.)"""
    from pipscover.formats import load_one
    from pipscover.model import Placement, Solution
    from pipscover.model.check import problems

    long_strip = open_strip(tmp_path, 5_000)
    result = run_cli("solve", long_strip, "--json")
    report = json.loads(result.out)
    assert result.code == 0 and report["status"] == "solved" and report["backend"] == "auto:local"
    [placements] = report["solutions"]
    solution = Solution(tuple(Placement(tuple(p["domino"]), tuple(map(tuple, p["cells"]))) for p in placements))
    assert problems(load_one(long_strip), solution) == []


@pytest.mark.parametrize(("args", "says"), [
    (["-n", "100000"], "too many to prove a single solution"),
    (["-n", "100000", "--no-unique"], "too many for --shape nyt"),
])
def test_generate_refuses_a_size_it_cannot_make_at_once_and_says_why(run_cli, args, says):
    start = time.monotonic()
    result = run_cli("generate", *args)
    assert_one_line_error(result, says, "--shape rect")
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("args", [["planted", "100000x100000"], ["planted", "99999999999999999999x2"],
                                  ["generate", "-n", "1000000000", "--no-unique", "--shape", "rect"]], ids=" ".join)
def test_a_board_past_memory_is_refused_before_a_domino_is_laid(tmp_path, args):
    """Both laid the tiling cell by cell, whatever its size: 700 MB in 30 s, then all the machine had."""
    done = in_a_gibibyte(*args, "--seed", "1", "-o", tmp_path / "out.json")
    assert done.returncode == 2 and done.stdout == "" and list(tmp_path.iterdir()) == []
    assert done.stderr.count("\n") == 1 and "would need about" in done.stderr, done.stderr[-500:]


def test_distinct_dominoes_of_the_largest_pips_are_drawn_without_listing_every_pair(tmp_path):
    """`planted --pips distinct --max-pip 100000` listed all 5 * 10**9 pairs to draw 8 of them: a MemoryError,
    or all of the machine's memory."""
    done = in_a_gibibyte("planted", "4x4", "--pips", "distinct", "--max-pip", str(10**9), "--seed", "1", "-o",
                         tmp_path / "out.json")
    assert (done.returncode, done.stderr) == (0, "")
    assert len({tuple(domino) for domino in json.loads((tmp_path / "out.json").read_text())["dominoes"]}) == 8


def in_a_gibibyte(*args: object) -> subprocess.CompletedProcess:
    """pipscover run in a process of its own, its address space capped at 1 GiB, so that code that takes
    memory without bound fails there, not the machine."""
    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    return subprocess.run([sys.executable, "-m", "pipscover", *args], capture_output=True, text=True, timeout=60,
                          preexec_fn=cap_memory)


def test_generate_makes_a_large_rectangle_without_the_proof(run_cli, tmp_path):
    """Past both limits (1,000 dominoes with the proof, 2,000 grown): what the refusals above point to."""
    target = tmp_path / "large.json"
    result = run_cli("generate", "-n", "2500", "--no-unique", "--shape", "rect", "--seed", "1", "-o", target)
    assert result.code == 0 and len(json.loads(target.read_text())["dominoes"]) == 2500


@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_timeout_spent_reading_builds_nothing_and_exits_3(run_cli, long_strip, command):
    """(Given the time, both would answer: solve lays the 20,000 dominoes, count has the closed form.)"""
    result = run_cli(command, long_strip, "--timeout", "0", "--json")
    report = json.loads(result.out)
    assert result.code == 3 and result.err == ""
    assert report.get("status") == "timeout" if command == "solve" else report["exact"] is False


def test_reading_counts_against_the_timeout(many_dominoes):
    """A clock started before a (pretend) 10 s read is out of its 5 s: no engine builds the 50,000 dominoes."""
    from pipscover.cli.common import Loaded, load_timed
    from pipscover.counting import count
    from pipscover.model.results import Status
    from pipscover.solving import solve

    [loaded] = load_timed([many_dominoes], None)
    read_slowly = Loaded(loaded.puzzle, 10.0)
    assert read_slowly.clock_start() <= time.monotonic() - 10
    solved = solve(loaded.puzzle, timeout=5, start=read_slowly.clock_start())
    assert solved.status is Status.TIMEOUT and solved.solutions == () and solved.seconds >= 10
    counted = count(loaded.puzzle, timeout=5, start=read_slowly.clock_start())
    assert counted.count == 0 and not counted.exact


def test_generate_stops_at_its_timeout_in_one_line_and_writes_nothing(run_cli, tmp_path):
    target = tmp_path / "made.json"
    result = run_cli("generate", "-n", "12", "--seed", "1", "--timeout", "0", "-o", target)
    assert result.code == 3 and result.out == "" and not target.exists()
    assert result.err.count("\n") == 1 and "--timeout" in result.err and "seed 1" in result.err
    result = run_cli("generate", "-n", "12", "--seed", "1", "--timeout", "0", "--json")  # -o -: stdout is the puzzle's
    assert result.code == 3 and result.out == "" and json.loads(result.err)["status"] == "timeout"


def test_generate_with_time_to_spare_reports_status_generated(run_cli):
    result = run_cli("generate", "--seed", "1", "--timeout", "inf", "--json", "-o", os.devnull)
    assert result.code == 0 and json.loads(result.out)["status"] == "generated"


def test_generate_passes_its_deadline_into_the_counter():
    """A deadline already passed stops generate before its first question, the counter at any question, and
    the laying of the hidden grid."""
    from pipscover.generate.generator import _Counter, generate
    from pipscover.generate.incremental import PuzzleSession
    from pipscover.generate.single_tiling import lay_single_tiling
    from pipscover.model import Puzzle, RegionKind
    from pipscover.model.results import SearchTimeout

    with pytest.raises(SearchTimeout):
        generate(dominoes=12, seed=1, timeout=0)
    tiny = Puzzle.build([(RegionKind.EMPTY, [(0, 0), (0, 1)], None)], [(1, 2)])
    with PuzzleSession(tiny) as session:
        counter = _Counter(session, deadline=time.monotonic() - 1)
        with pytest.raises(SearchTimeout):
            counter.other(tiny)
    tiling = [((0, 0), (0, 1)), ((1, 0), (1, 1))]  # two 1-1: a grid the annealing has work on
    with pytest.raises(SearchTimeout):
        lay_single_tiling(tiling, dict.fromkeys([*tiling[0], *tiling[1]], 1), random.Random(0), time.monotonic() - 1)


def test_a_deadline_stops_a_long_question_of_the_incremental_session():
    """A mutilated 6 x 6 board (two opposite corners gone) has no tiling, and CaDiCaL needs ~30 s to prove it
    (resolution needs exponentially many steps); a deadline a quarter of a second away, set once the session
    is built, stops the question mid-way. (The test burns CPU until each deadline: a second each was 2 s.)"""
    from itertools import combinations_with_replacement

    from pipscover.engines.sat_enumeration import Undecided
    from pipscover.generate.generator import other_solution
    from pipscover.generate.incremental import PuzzleSession
    from pipscover.model import Placement, Puzzle, RegionKind, Solution
    from pipscover.model.results import SearchTimeout

    cells = [(row, column) for row in range(6) for column in range(6) if (row, column) not in ((0, 0), (5, 5))]
    dominoes = list(combinations_with_replacement(range(12), 2))[:17]
    board = Puzzle.build([(RegionKind.EMPTY, cells, None)], dominoes)
    hidden = Solution((Placement(dominoes[0], ((0, 1), (0, 2))),))
    with PuzzleSession(board) as session:
        start = time.monotonic()
        session.deadline = start + 0.25
        with pytest.raises(SearchTimeout):
            session.other_solution((), hidden)
        assert time.monotonic() - start < 10
        # The session is still usable: a small question has its answer. (It keeps the hidden domino, which the
        # blocking clause forbids; any question that must tile this board takes CaDiCaL ~25 s of CPU.)
        session.deadline = None
        assert session.other_solution((), hidden, free=set()) is None
    start = time.monotonic()  # so is the whole-board question, asked of a fresh CNF
    with pytest.raises(SearchTimeout):
        other_solution(board, hidden, deadline=time.monotonic() + 0.5)
    assert time.monotonic() - start < 10
    with pytest.raises(Undecided):  # and a conflict budget ends it without a clock
        other_solution(board, hidden, conflicts=3_000)


@pytest.mark.parametrize(("pip", "args", "says"), [
    (10**30, ["solve", "-b", "cadical195"], "64-bit"),
    (10**30, ["encode"], "64-bit"),
    (10**9, ["solve", "-b", "cadical195", "--pb", "seqcounter"], "memory"),
    (10**9, ["solve", "-b", "cadical195", "--pb", "sortnetwrk", "--timeout", "10"], "memory"),
    (10**9, ["encode", "--pb", "totalizer"], "memory"),
])
def test_pips_too_large_for_a_cnf_encoding_are_refused(run_cli, tmp_path, pip, args, says):
    path = write(tmp_path, "pips.json", huge_pips(pip))
    result = run_cli(args[0], path, *args[1:])
    assert_one_line_error(result, path, says)


@pytest.mark.parametrize("args", [["solve"], ["count"], ["solve", "-b", "cadical195"], ["show", "-o", "PICTURE"]])
def test_huge_pips_work_where_they_fit(run_cli, tmp_path, args):
    pip = 10**30 if args[-1] != "cadical195" else 10**9
    options = [tmp_path / "p.svg" if arg == "PICTURE" else arg for arg in args[1:]]
    result = run_cli(args[0], write(tmp_path, "pips.json", huge_pips(pip)), *options)
    assert result.code == 0 and result.err == ""


def test_a_cell_at_column_a_billion_is_drawn_but_not_written_as_text(run_cli, tmp_path):
    far = write(tmp_path, "far.json", region(indices=[[0, 10**9], [0, 10**9 + 1]]))
    assert run_cli("show", far).code == 0
    assert run_cli("solve", far).code == 0
    assert_one_line_error(run_cli("show", far, "-f", "text"), far, "too large")


@pytest.mark.parametrize("timeout", ["inf", "1e308"])
def test_an_unbounded_timeout_is_no_limit(run_cli, timeout):
    result = run_cli("solve", FIRST, "-b", "minisat22", "--timeout", timeout, "--json")
    assert result.code == 0 and json.loads(result.out)["status"] == "solved"


# --- Output files --------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["show", FIRST], ["encode", FIRST], ["solve", FIRST],
                                  ["generate", "--seed", "1"]], ids=lambda args: args[0])
def test_an_output_file_follows_the_umask(run_cli, tmp_path, args):
    for mask, mode in ((0o022, 0o644), (0o077, 0o600)):
        target = tmp_path / f"out-{mask:o}"
        previous = os.umask(mask)
        try:
            assert run_cli(*args, "-o", target).code == 0
        finally:
            os.umask(previous)
        assert target.stat().st_mode & 0o777 == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out-22", "out-77"]  # no temp file left


# Outputs whose suffix names a format the command does not write there: refused, nothing written.
WRONG_SUFFIXES = [
    ["solve", FIRST, "-o", "first.png"],
    ["show", FIRST, "-o", "out.png"],
    ["show", FIRST, "-f", "text", "-o", "out.json"],
    ["show", FIRST, "-f", "text", "-o", "out.svg"],
    ["show", FIRST, "-f", "terminal", "-o", "out.txt"],
    ["hint", FIRST, "-o", "h.pdf"],
    ["generate", "--seed", "1", "-n", "4", "-o", "p.svg"],
    ["planted", "4x4", "-o", "p.txt"],
    ["reduce", "subset-sum", "--numbers", "3,5", "--target", "8", "-o", "p.cnf"],
    ["sweep", "count", FIRST, "-j", "1", "-o", "rows.json"],  # a CSV table was written into rows.json
]


@pytest.mark.parametrize("args", WRONG_SUFFIXES, ids=lambda args: " ".join(map(str, args)).replace(str(EXAMPLES), "ex"))
def test_an_output_named_for_another_format_is_refused_in_one_line(run_cli, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(run_cli(*args), args[-1])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target", ["folder", "missing/out.svg"])
def test_an_output_that_cannot_be_written_leaves_nothing(run_cli, tmp_path, target):
    (tmp_path / "folder").mkdir()
    assert_one_line_error(run_cli("show", FIRST, "-o", tmp_path / target), target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"] and not any((tmp_path / "folder").iterdir())


INTO_A_MISSING_FOLDER = [["show", FIRST, "-o", "OUT.txt"], ["encode", FIRST, "-o", "OUT.cnf"],
                         ["certify", FIRST, "-o", "OUT.cnf"], ["solve", FIRST, "-o", "OUT.svg"],
                         ["hint", FIRST, "-o", "OUT.svg"], ["generate", "--seed", "1", "-o", "OUT.json"],
                         ["planted", "4x4", "--seed", "1", "-o", "OUT.json"],
                         ["reduce", "subset-sum", "--numbers", "3,5", "--target", "8", "-o", "OUT.json"],
                         ["plot", "TABLE", "-o", "OUT.svg"], ["sweep", "solve", FIRST, "-j", "1", "-o", "OUT.csv"]]


@pytest.mark.parametrize("args", INTO_A_MISSING_FOLDER, ids=lambda args: " ".join(map(str, args[:2])))
@pytest.mark.parametrize("folder", ["sub", "a-file"])
def test_an_output_into_a_folder_that_is_not_there_names_the_folder(run_cli, tmp_path, monkeypatch, args, folder):
    """`certify ... -o sub/x.cnf` said "sub/x.cnf: cannot write (No such file or directory)", which named
    neither the folder nor which part was missing; `sweep` alone named it. Every -o now says it as `sweep` did,
    and before any work where the option alone decides it (`certify` made its certificate first, `generate`
    its puzzle, and `solve -o` printed its answer): `planted`'s -o is a folder it makes with --suite, and
    `sweep` checks its table's folder before its first task."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("")
    (tmp_path / "table.csv").write_text("dominoes,seconds,backend,status\n4,0.01,dlx,solved\n")
    named = {"OUT": f"{folder}/out", "TABLE": "table.csv"}
    done = run_cli(*[next((str(arg).replace(key, value) for key, value in named.items() if str(arg).startswith(key)),
                          arg) for arg in args])
    said = "no such folder sub" if folder == "sub" else "a-file is a file, not a folder"
    assert f"{folder}/out{Path(args[-1]).suffix}: {said}" in done.err and done.err.count("\n") == 1, done
    assert done.code == 2 and sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "table.csv"]
    if args[0] not in ("planted", "sweep"):
        assert "--output" in done.err and done.out == ""  # refused as an option value, before any work


def pipscover(*args: object, **options) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("CI", None)
    return subprocess.Popen([sys.executable, "-m", "pipscover", *map(str, args)], env=env, **options)


FULL_DISK = Path("/dev/full")  # every write to it fails as on a full disk (ENOSPC)


@pytest.mark.skipif(not FULL_DISK.exists(), reason="no /dev/full")
@pytest.mark.parametrize("args", [["solve", FIRST, "--json"], ["count", FIRST], ["backends"], ["--help"]],
                         ids=lambda args: " ".join(map(str, args)).replace(str(EXAMPLES), "ex"))
def test_output_to_a_full_disk_is_one_line_not_a_traceback(args):
    """`pipscover solve first.txt --json > out.json` on a full disk (or past a quota) ended in a traceback of
    OSError: [Errno 28], as every command that prints did."""
    with FULL_DISK.open("w") as full:
        process = pipscover(*args, stdout=full, stderr=subprocess.PIPE, text=True)
        _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (2, "pipscover: error: cannot write the output (No space left on device)\n")


@pytest.mark.skipif(not FULL_DISK.exists(), reason="no /dev/full")
def test_a_sweep_table_on_a_device_is_not_read_as_rows():
    """`sweep count FILE -o /dev/full` read the device as a table to resume, which never ends: the memory filled
    (here capped at 4 GiB); a device holds no rows, and the failed write is one line."""
    def four_gib() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))

    process = pipscover("sweep", "count", FIRST, "--jobs", "1", "-o", FULL_DISK, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True, preexec_fn=four_gib)
    out, err = process.communicate(timeout=60)
    said = f"pipscover: error: {FULL_DISK}: cannot write (No space left on device)\n"
    assert (process.returncode, out, err) == (2, "", said)


def test_a_write_past_the_file_size_limit_leaves_no_temp_file(tmp_path):
    def limit_file_size() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    process = pipscover("show", FIRST, "-o", tmp_path / "big.svg", stderr=subprocess.PIPE, text=True,
                        preexec_fn=limit_file_size)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and err.count("\n") == 1 and "big.svg" in err
    assert list(tmp_path.iterdir()) == []


# --- Pipes and Ctrl-C: real processes ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def open_board(tmp_path_factory) -> Path:
    """A 6 x 6 board with no rules and 18 mixed dominoes: millions of solutions, listed for minutes."""
    path = tmp_path_factory.mktemp("open") / "open.json"
    cells = [[r, c] for r in range(6) for c in range(6)]
    path.write_text(json.dumps({"dominoes": [[a % 4, a % 3] for a in range(18)],
                                "regions": [{"indices": cells, "type": "empty"}]}))
    return path


@pytest.fixture(scope="module")
def small_open_board(tmp_path_factory) -> Path:
    """A 2 x 6 board with no rules and 6 mixed dominoes: 74,880 solutions, megabytes of JSON."""
    path = tmp_path_factory.mktemp("small") / "small.json"
    cells = [[r, c] for r in range(2) for c in range(6)]
    path.write_text(json.dumps({"dominoes": [[a % 4, a % 3] for a in range(6)],
                                "regions": [{"indices": cells, "type": "empty"}]}))
    return path


# (2,000 solutions are half a megabyte of JSON, several times what a pipe holds.)
@pytest.mark.parametrize("args", [["backends"], ["solve", "SMALL", "--limit", "2000", "--json"],
                                  ["sample", "SMALL", "-n", "2000", "--json"]], ids=" ".join)
def test_a_closed_pipe_ends_quietly(small_open_board, args):
    process = pipscover(*[small_open_board if arg == "SMALL" else arg for arg in args],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.read(1)
    process.stdout.close()  # as `| head -c1` does
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) in (0, 141) and err == ""


@pytest.mark.parametrize("args", [["--help"], ["solve", "--help"], ["backends"], ["solve", FIRST]],
                         ids=lambda args: " ".join(map(str, args)).replace(str(EXAMPLES), "ex"))
def test_a_pipe_closed_before_the_first_line_ends_with_the_shells_code_for_it(args):
    """`pipscover --help | head -1` ended with exit code 1, which says "no solution", when head had gone before
    the help was written: rich's console, which typer draws help with, ends a write to a closed pipe so."""
    process = pipscover(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # before the process has written a byte
    err = process.stderr.read().decode()
    assert (process.wait(timeout=60), err) == (141, "")


def group_usage(leader: int) -> tuple[float, int]:
    """CPU time used so far by a command and the live processes it started, and how many there are (Linux
    /proc, from each process's list of children: only these few are read, up to a hundred times a second, not
    the stat of every process of the machine, which took half the CPU of a wait)."""
    ticks = members = 0
    waiting = [leader]
    while waiting:
        pid = waiting.pop()
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
            for thread in os.listdir(f"/proc/{pid}/task"):  # (a child is listed by the thread that forked it)
                with open(f"/proc/{pid}/task/{thread}/children", "rb") as children:
                    waiting += map(int, children.read().split())
        except OSError:  # the process ended meanwhile
            continue
        ticks += sum(int(value) for value in fields[11:15])  # utime, stime (and the reaped children's) in ticks
        members += 1
    return ticks / os.sysconf("SC_CLK_TCK"), members


def interrupt(args: list, after: float, processes: int = 1, out_file: Path | None = None) -> tuple[int, str, str]:
    """Run pipscover in its own process group, press Ctrl-C once it has worked `after` seconds of CPU (so a
    loaded machine does not press it before the first answer) and holds `processes` live processes (workers it
    started); exit code, out, err. A command that prints as it goes writes its out to `out_file` (a full pipe
    would stop it before it has worked that long).
    Also checks that no process of the group is left behind. (SIGINT gets its default action first: a suite
    started in the background by a shell script inherits it ignored, and Python keeps it so.)"""
    stdout = subprocess.PIPE if out_file is None else out_file.open("w")
    process = pipscover(*args, stdout=stdout, stderr=subprocess.PIPE, text=True, start_new_session=True,
                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        seconds, members = group_usage(process.pid)
        assert process.poll() is None, "the command ended before it was interrupted"
        if seconds >= after and members >= processes:
            break
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert_group_ends(process.pid)
    if out_file is not None:
        stdout.close()
        out = out_file.read_text()
    return process.returncode, out, err


def test_ctrl_c_during_the_marginals_keeps_the_exact_count():
    """The count was known and exact, and Ctrl-C in the marginals lost it: only "stopped by Ctrl-C". planted 6 x 6
    is counted by inclusion-exclusion in about 2.5 s of CPU, its marginals (by the sweep's graph, past the
    walk's budget) in about 10 s more (planted 4 x 6's, which served first, now take a second, and
    no-unique-20's, which served next, 5). By auto, two processes race for the count: loaded, its CPU passed
    5 s before the count was in."""
    puzzle = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles" / "planted-6x6-s1.json"
    code, out, err = interrupt(["count", puzzle, "-m", "inclusion-exclusion", "--marginals"], after=6.0)
    assert code == 130
    assert "22,044,623,880,419,946,864 solutions (exact" in out and "marginals: not counted (stopped by Ctrl-C" in out


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_ctrl_c_during_the_count_says_the_marginals_are_missing(as_json):
    """Ctrl-C in the count of `count --marginals` printed the lower bound without a word of the marginals: no
    "marginals:" line, and a --json object without the keys a --timeout's has ("marginals_stopped_by": the
    stop). Planted 6 x 8's count takes minutes."""
    puzzle = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles" / "planted-6x8-s1.json"
    code, out, err = interrupt(["count", puzzle, "--marginals", *(["--json"] if as_json else [])], after=1.0)
    assert code == 130 and err == ""
    if as_json:
        document = json.loads(out)
        assert document["stopped_by"] == document["marginals_stopped_by"] == "Ctrl-C"
        assert document["marginals"] is None and document["exact"] is False
    else:
        assert out.splitlines()[-1] == "marginals: not counted (they need the exact count, and Ctrl-C stopped it)"


def assert_group_ends(group: int, within: float = 10) -> None:
    """Every process of the group is gone within `within` seconds. A worker killed as its parent ends is
    reaped by init, which may take a moment on a loaded machine (until then kill(0) still finds it)."""
    give_up = time.monotonic() + within
    while time.monotonic() < give_up:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail(f"a process of group {group} outlived the command by {within} s")


# dlx lists thousands of solutions a tenth of a second: pressed after 1.5 s of CPU it would print and parse
# tens of megabytes, so it is pressed soon after start-up (about 0.3 s), on the small board (about 250 bytes of
# JSON a solution: the open board's 850 made this test print and parse 6 MB, 2.5 s of CPU). minisat22 has its
# first solution at about 0.5 s (start-up and encoding), and a hundred by 0.9 s. Neither ends in minutes.
@pytest.mark.parametrize(("backend", "after"), [("dlx", 0.5), ("minisat22", 0.9)])
def test_ctrl_c_prints_the_solutions_found_and_exits_130(small_open_board, backend, after):
    code, out, err = interrupt(["solve", small_open_board, "--all", "--json", "-b", backend], after=after)
    document = json.loads(out)
    assert code == 130 and err == ""
    assert document["status"] == "interrupted" and document["solutions"]


def test_ctrl_c_during_sample_prints_the_draws_made_so_far_and_exits_130(tmp_path):
    """`sample` printed nothing at all on Ctrl-C (and held every draw until the end). Its draws come from
    0.3 s of CPU on (start-up included): pressed at 0.5 s, it has made thousands."""
    code, out, err = interrupt(["sample", FIRST, "-n", str(10**12), "--json"], 0.5, out_file=tmp_path / "out")
    document = json.loads(out)
    assert code == 130 and err == "" and document["status"] == "interrupted" and document["solutions"]
    assert document["stopped_by"] == "Ctrl-C"
    code, out, err = interrupt(["sample", FIRST, "-n", str(10**12)], 0.5, out_file=tmp_path / "out")
    assert code == 130 and err == "" and re.search(r"first.txt: stopped by Ctrl-C after [1-9][0-9,]* of", out)


def test_ctrl_c_while_sample_draws_from_the_sweep_prints_the_draws_made_so_far(tmp_path):
    """no-unique-20 passes the walk's budget within a second and draws from the sweep's graph, a draw every
    second or two (the core's sweeps look for signals between their passes): pressed after 5 s of CPU, the
    draws made are printed and the run ends with 130."""
    puzzle = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles" / "no-unique-20-s1.json"
    code, out, err = interrupt(["sample", puzzle, "-n", "1000", "--json"], 5.0, out_file=tmp_path / "out")
    document = json.loads(out)
    assert code == 130 and err == "" and document["status"] == "interrupted" and document["solutions"]
    assert document["stopped_by"] == "Ctrl-C"


def test_ctrl_c_stops_a_sat_worker_with_a_deadline(open_board):
    code, out, err = interrupt(["solve", open_board, "--all", "--json", "-b", "cadical195", "--timeout", "100"], 1.0,
                                 processes=2)
    assert code == 130 and err == "" and json.loads(out)["status"] == "interrupted"


def test_ctrl_c_during_a_blocking_count_prints_a_lower_bound(open_board):
    code, out, err = interrupt(["count", open_board, "-m", "blocking", "-b", "minisat22", "--json"], after=1.0)
    document = json.loads(out)
    assert code == 130 and err == "" and document["exact"] is False and document["count"] > 0


def test_ctrl_c_during_the_counting_race_leaves_no_racer():
    """The unique 100-domino puzzle reaches auto's race of two worker processes in half a second, and the race
    takes about ten more (the unique 50-domino one answered in a third of a second, sometimes before the
    Ctrl-C): Ctrl-C is pressed once both racers are alive."""
    unique = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles" / "unique-100-rect-s1.json"
    code, out, err = interrupt(["count", unique, "--json"], after=0, processes=3)
    assert code == 130 and err == "" and json.loads(out)["exact"] is False


def test_ctrl_c_during_the_race_of_the_two_search_orders_prints_what_they_counted():
    """A planted 6 x 8 board reaches the race of the structural counter's two search orders and
    inclusion-exclusion within a second, and none of them finishes in a minute (planted 6 x 6's count now
    takes two seconds); Ctrl-C is passed on to the racers, and the count printed is the largest lower bound
    they had found (the structural ones'), not 0."""
    planted = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles" / "planted-6x8-s1.json"
    code, out, err = interrupt(["count", planted, "--json"], after=1.0, processes=4)
    document = json.loads(out)
    assert code == 130 and err == ""
    assert document["exact"] is False and document["count"] > 0 and document["stopped_by"] == "Ctrl-C"


def test_ctrl_c_during_bench_prints_the_puzzles_timed_so_far(open_board):
    folder = open_board.parent
    for index in range(40):
        (folder / f"first-{index:02}.txt").write_text(FIRST.read_text())
    code, out, err = interrupt(["bench", folder, "--task", "count", "-b", "minisat22", "--json"], after=1.0)
    assert code == 130 and err == "" and json.loads(out)["interrupted"] is True


def test_ctrl_c_during_a_comparison_says_what_its_table_covers(open_board, tmp_path):
    """Two backends compared, Ctrl-C pressed while one counts the open board (minisat22, by blocking clauses,
    after dlx's count of all four puzzles in a fraction of a second): the table of the puzzles timed so far came
    with no word that anything was stopped, as if both had timed all four."""
    for index in range(3):
        (tmp_path / f"first-{index}.txt").write_text(FIRST.read_text())
    (tmp_path / "open.json").write_text(open_board.read_text())  # last in name order: counted for minutes
    code, out, err = interrupt(["bench", tmp_path, "--task", "count", "-b", "dlx", "-b", "minisat22"], after=1.0)
    assert code == 130 and err == ""
    assert re.fullmatch(r"stopped by Ctrl-C: [12] of 2 configurations timed; (dlx|minisat22 \S+ \S+ \S+) on 3 of 4 "
                        "puzzles", out.splitlines()[-1]), out


def test_ctrl_c_with_several_count_jobs_leaves_no_worker(open_board):
    folder = open_board.parent
    code, _, err = interrupt(["count", folder, "-m", "dlx", "--jobs", "2"], after=0.5, processes=3)
    assert code == 130 and "Traceback" not in err


def test_count_jobs_with_a_sat_solver_and_a_deadline_run_in_their_workers(tmp_path):
    # Each count forks a killable worker from a `count --jobs` worker (itself forked).
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(FIRST.read_text())
    process = pipscover("count", tmp_path, "--jobs", "2", "-b", "minisat", "--timeout", "30",
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0 and "Traceback" not in err and out.count("1 solution (exact") == 2


# --- Terminals -------------------------------------------------------------------------------------------

def on_terminal(*args: object, columns: int = 40) -> str:
    """Run pipscover with stdout and stderr on a pseudo-terminal `columns` wide; everything it wrote."""
    import fcntl
    import struct
    import termios

    ours, theirs = pty.openpty()
    fcntl.ioctl(theirs, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    process = pipscover(*args, stdin=theirs, stdout=theirs, stderr=theirs)
    os.close(theirs)
    seen = b""
    while True:
        ready, _, _ = select.select([ours], [], [], 0.1)
        if ready:
            try:
                data = os.read(ours, 65536)
            except OSError:
                break
            if not data:
                break
            seen += data
        elif process.poll() is not None:
            break
    process.wait(timeout=60)
    os.close(ours)
    return seen.decode()


def test_a_quick_run_shows_no_progress_bar(monkeypatch):
    # In this process, stdout and stderr on a pseudo-terminal: the solve is then milliseconds of work, far from
    # the bar's delay even on a busy machine (a new process would first spend its imports inside the bar's time).
    from pipscover.cli import main

    ours, theirs = pty.openpty()
    with os.fdopen(theirs, "w") as terminal:
        for stream in ("stdout", "stderr"):
            monkeypatch.setattr(sys, stream, terminal)
        monkeypatch.setattr(sys, "argv", ["pipscover", "solve", str(FIRST)])
        monkeypatch.delenv("CI", raising=False)
        with pytest.raises(SystemExit) as done:
            main()
    seen = b""
    with suppress(OSError):  # (EIO: read to the end of what the closed terminal got)
        while data := os.read(ours, 65536):
            seen += data
    os.close(ours)
    assert done.value.code == 0 and b"solved by" in seen
    assert b"\x1b[?25l" not in seen  # rich hides the cursor while a bar shows


def test_json_on_a_narrow_terminal_is_one_line_even_under_a_progress_bar(open_board):
    seen = on_terminal("count", open_board, "-m", "dlx", "--limit", "30000", "--json", columns=40)
    # What each line shows at the end: the text after its last erase-line, without the other escapes.
    lines = [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", line.split("\x1b[2K")[-1]) for line in seen.split("\n")]
    documents = [json.loads(line) for line in lines if line.startswith("{")]
    assert len(documents) == 1 and documents[0]["count"] == 30000


def test_a_command_leaves_sigpipe_ignored_so_a_broken_socket_is_an_error_not_death(run_cli, small_open_board):
    # With SIGPIPE's default action a write to any closed socket or worker pipe (a fetch, a Dask worker that
    # died, the test suite's own HTTP server) would kill the whole process silently.
    seen = []
    original = signal.signal

    def watch(number, handler):
        seen.append((number, handler))
        return original(number, handler)

    signal.signal = watch
    try:
        run_cli("solve", small_open_board, "--json")
    finally:
        signal.signal = original
    assert (signal.SIGPIPE, signal.SIG_DFL) not in seen
    assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN


def test_serve_on_a_port_in_use_says_so_in_one_line(run_cli):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert_one_line_error(run_cli("serve", "--port", port), f"cannot listen on 127.0.0.1:{port}")


def test_serve_refuses_a_port_out_of_range(run_cli):
    assert run_cli("serve", "--port", "70000").code == 2


def certificate(run_cli, tmp_path: Path) -> tuple[Path, Path]:
    """A good certificate of examples/first.txt and its proof, written by `certify`."""
    cnf = tmp_path / "first.cnf"
    assert run_cli("certify", FIRST, "-o", cnf).code == 0
    return cnf, cnf.with_suffix(".drat")


# A proof that does not check is rejected (exit code 1), whatever is wrong with it.
BAD_PROOFS = {
    "empty": lambda proof: "",
    "cut-short": lambda proof: "".join(proof.splitlines(keepends=True)[:-3]),
    "cut-mid-line": lambda proof: proof[: len(proof) // 2],
    "not-drat": lambda proof: "hello world\n",
    "empty-clause-at-once": lambda proof: "0\n",
    "an-unsound-lemma-first": lambda proof: "-1 0\n" + proof,
}


@pytest.mark.parametrize("name", sorted(BAD_PROOFS))
def test_certify_check_rejects_a_proof_that_does_not_check(run_cli, tmp_path, name):
    cnf, proof = certificate(run_cli, tmp_path)
    proof.write_text(BAD_PROOFS[name](proof.read_text()))
    checked = run_cli("certify", "--check", cnf, proof)
    assert checked.code == 1 and checked.out.startswith(f"{cnf}: rejected: ") and checked.err == ""


# A certificate whose CNF is not the puzzle's plus one blocking clause proves nothing: rejected too.
BAD_CERTIFICATE_CLAUSES = {
    "a-clause-that-blocks-no-solution": lambda text: re.sub(r"\n([^\n]*) 0\n$", "\n1 0\n", text),
    "two-clauses-more": lambda text: re.sub(r"p cnf (\d+) (\d+)", lambda m: f"p cnf {m[1]} {int(m[2]) + 1}",
                                            text) + "1 2 0\n",
    "a-clause-of-the-encoding-dropped": lambda text: re.sub(r"\n(-?\d+ )+0\n(?=(-?\d+ )+0\n)", "\n", text, count=1),
}


@pytest.mark.parametrize("name", sorted(BAD_CERTIFICATE_CLAUSES))
def test_certify_check_rejects_a_cnf_that_is_not_the_puzzle_plus_a_blocking_clause(run_cli, tmp_path, name):
    cnf, proof = certificate(run_cli, tmp_path)
    cnf.write_text(BAD_CERTIFICATE_CLAUSES[name](cnf.read_text()))
    checked = run_cli("certify", "--check", cnf, proof)
    assert checked.code == 1 and f"{cnf}: rejected: pipscover: " in checked.out


def test_certify_check_refuses_a_cnf_without_the_header_or_with_a_changed_one(run_cli, tmp_path):
    cnf, proof = certificate(run_cli, tmp_path)
    text = cnf.read_text()
    plain = write(tmp_path, "plain.cnf", "\n".join(line for line in text.splitlines() if line[:2] != "c ") + "\n")
    assert_one_line_error(run_cli("certify", "--check", plain, proof), plain, "header")
    cnf.write_text(BAD_HEADERS["puzzle-changed"](text))
    assert_one_line_error(run_cli("certify", "--check", cnf, proof), cnf, "SHA-256")
    assert_one_line_error(run_cli("certify", "--check", tmp_path / "none.cnf"), tmp_path / "none.cnf")
    assert run_cli("encode", FIRST, "-o", tmp_path / "first.opb").code == 0
    assert_one_line_error(run_cli("certify", "--check", tmp_path / "first.opb", proof), "first.opb", "OPB")
    assert_one_line_error(run_cli("certify", "--check", write(tmp_path, "ok.cnf", text)), tmp_path / "ok.drat")


@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_a_dimacs_file_without_pipscover_header_is_refused_as_a_puzzle(run_cli, tmp_path, command):
    path = write(tmp_path, "plain.cnf", "p cnf 2 1\n1 -2 0\n")
    solution = write(tmp_path, "solution.json", GOOD_SOLUTION)
    model = write(tmp_path, "model.txt", "s SATISFIABLE\nv 1 0\n")
    named = {"PUZZLE": path, "SOLUTION": solution, "MODEL": model, "OUTPUT": tmp_path / "out.cnf"}
    args = [named.get(arg, arg) for arg in FILE_COMMANDS[command]]
    assert_one_line_error(run_cli(*args), path, "header")


@pytest.mark.parametrize("command", ["solve", "count", "show", "certify"])
@pytest.mark.parametrize("name", ["puzzle-changed", "hash-removed"])
def test_an_encoded_file_whose_puzzle_was_changed_is_refused(run_cli, tmp_path, command, name):
    encoded = tmp_path / "first.cnf"
    assert run_cli("encode", FIRST, "-o", encoded).code == 0
    encoded.write_text(BAD_HEADERS[name](encoded.read_text()))
    extra = ["-o", tmp_path / "out.cnf"] if command == "certify" else []
    assert_one_line_error(run_cli(command, encoded, *extra), encoded)


@pytest.mark.parametrize(("args", "said"), [
    (["solve"], "solve: missing PUZZLE..."),  # was "solve: puzzles: (see ...)"
    (["check", FIRST], "check: missing SOLUTION"),
    (["solve", FIRST, "--timeout", "-1"], "--timeout -1.0: must be a number of seconds >= 0"),  # was "not a number"
])
def test_a_missing_argument_or_a_refused_number_says_what_is_wrong(run_cli, args, said):
    result = run_cli(*args)
    assert_one_line_error(result, said)


def test_a_count_stopped_by_its_limit_is_not_the_answer_and_exits_3(run_cli, open_board):
    result = run_cli("count", open_board, "-m", "dlx", "--limit", "10", "--json")
    [answer] = [json.loads(line) for line in result.out.splitlines()]
    assert answer["exact"] is False and answer["stopped_by"] == "--limit" and result.code == 3


def test_a_folder_chooses_by_difficulty_among_the_files_that_name_one_and_keeps_the_others(run_cli, tmp_path):
    """What -d did in a folder before a single file that names no difficulty was refused, and still does."""
    text = FIRST.read_text()
    write(tmp_path, "day.txt", "".join(f"{level}\n{text}\n" for level in ("easy", "medium", "hard")))
    write(tmp_path, "plain.txt", text)
    solved = run_cli("solve", tmp_path, "-d", "hard", "--json")
    chosen = [json.loads(line)["puzzle"] for line in solved.out.splitlines()]
    assert solved.code == 0 and [(Path(p["file"]).name, p["difficulty"]) for p in chosen] == [
        ("day.txt", "hard"), ("plain.txt", None)]


def test_hint_given_a_wrong_domino_names_its_region_as_the_file_does(run_cli, tmp_path):
    """Was "region 7 (less 2) breaks its rule with pips [1, 2]", where the text format calls that region H."""
    placed = write(tmp_path, "placed.json", [{"domino": [2, 2], "cells": [[3, 1], [3, 2]]}])
    result = run_cli("hint", FIRST, "--given", placed)
    assert result.code == 1 and "the less-than-2 region H breaks its rule with pips 2 and 2" in result.out


def test_decode_of_an_unknown_answer_says_unknown_not_timeout(run_cli, tmp_path):
    result = run_cli("decode", FIRST, write(tmp_path, "answer.txt", "s UNKNOWN\n"))
    assert result.code == 3 and "unknown" in result.out and "timeout" not in result.out


@pytest.mark.parametrize(("command", "shown"), [
    ("hint", '[{"domino": [0, 5], "cells": [[0, 0], [0, 1]]}, ...]'),  # rich read [a, b] as markup and ate it
    ("backends", "listing every backend"),  # was "one JSON object per puzzle"
])
def test_help_shows_what_it_says(run_cli, monkeypatch, command, shown):
    monkeypatch.setenv("COLUMNS", "80")
    result = run_cli(command, "--help")
    assert shown in result.out


def test_show_writes_the_file_its_output_names_also_with_json(run_cli, tmp_path):
    """`show --json -o y.svg` wrote nothing; `show -o x.json` was refused, though the README lists .json."""
    picture, puzzle = tmp_path / "y.svg", tmp_path / "x.json"
    printed = run_cli("show", FIRST, "--json", "-o", picture)
    assert printed.code == 0 and picture.read_text().startswith("<svg") and json.loads(printed.out)["dominoes"]
    assert run_cli("show", FIRST, "-o", puzzle).code == 0
    assert run_cli("solve", puzzle).code == 0


@pytest.mark.parametrize("args", [["-n", "14", "--difficulty", "easy"], ["-n", "20", "--difficulty", "medium"],
                                  ["-n", "2", "--difficulty", "hard"]])
def test_generate_refuses_at_once_a_size_out_of_reach_of_the_difficulty(run_cli, args):
    """`-n 14 --difficulty easy` ran 143 s before saying that NYT easy puzzles have 3-10 dominoes."""
    assert_one_line_error(run_cli("generate", "--seed", "3", *args), "out of reach")


def test_generate_is_bounded_by_default(run_cli, monkeypatch):
    """`generate -n 20 --difficulty medium` ran 170 s with no limit; now --timeout has a default."""
    monkeypatch.setenv("COLUMNS", "200")
    assert re.search(r"--timeout .*\[default: 120(\.0)?\]", run_cli("generate", "--help").out)


MODELS = 20_000  # copies of one model in the answer file: a decoding that lasts past its bar's first frame


def test_ctrl_c_during_a_long_decode_prints_the_solutions_decoded_so_far(tmp_path):
    """20,000 copies of a model take seconds to decode: Ctrl-C is pressed once the progress bar (on a
    pseudo-terminal) has counted a decoded model, and the solutions decoded by then are printed before exit 130.
    It printed nothing. (The bar shows half a second into the decoding; 6,000 copies were decoded a few tenths
    of a second after that on a fast machine, sometimes before the Ctrl-C came.)"""
    from pysat.solvers import Solver

    from pipscover.cnf import encode
    from pipscover.cnf.dimacs import write_dimacs
    from pipscover.formats import load_one

    encoding = encode(load_one(FIRST))
    with Solver(bootstrap_with=encoding.cnf) as solver:
        solver.solve()
        model = " ".join(map(str, solver.get_model()))
    (tmp_path / "first.cnf").write_text(write_dimacs(encoding))
    (tmp_path / "first.out").write_text(f"s SATISFIABLE\nv {model} 0\n" * MODELS)
    ours, theirs = pty.openpty()
    process = pipscover("decode", tmp_path / "first.cnf", tmp_path / "first.out", stdin=theirs, stdout=theirs,
                        stderr=theirs, start_new_session=True,
                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(theirs)
    seen = _read_until(ours, rb"decoding.*?[1-9][0-9]*/%d" % MODELS)
    os.killpg(process.pid, signal.SIGINT)
    seen += _read_until(ours, None)
    process.wait(timeout=60)
    os.close(ours)
    stopped = re.search(rf"stopped by Ctrl-C; ([0-9,]+) of {MODELS:,} models decoded so far", seen.decode())
    assert process.returncode == 130 and stopped is not None and b"Traceback" not in seen
    assert 0 < int(stopped.group(1).replace(",", "")) < MODELS


def _read_until(terminal: int, pattern: bytes | None, within: float = 120) -> bytes:
    """What a pseudo-terminal shows until `pattern` appears in it (None: until it closes)."""
    seen, give_up = b"", time.monotonic() + within
    while time.monotonic() < give_up and (pattern is None or re.search(pattern, seen, re.DOTALL) is None):
        if select.select([terminal], [], [], 0.1)[0]:
            try:
                data = os.read(terminal, 65536)
            except OSError:  # (EIO: the other end closed)
                break
            if not data:
                break
            seen += data
    return seen


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_while_decode_reads_the_answer_says_so_in_one_line(run_cli, tmp_path, as_json):
    """A solver's answer still coming (here a named pipe whose writer has sent one line): Ctrl-C ended decode
    with exit code 130 and nothing printed. The writer's `open` returns once decode has opened the pipe to read
    it, so the Ctrl-C comes while it reads; the writer then ends, as a solver killed by the same Ctrl-C does
    (a Ctrl-C that comes between two reads of the pipe is seen by Python only when the next read returns)."""
    cnf, answer = tmp_path / "first.cnf", tmp_path / "answer"
    assert run_cli("encode", FIRST, "-o", cnf).code == 0
    os.mkfifo(answer)
    process = pipscover("decode", cnf, answer, *(["--json"] if as_json else []), stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True, start_new_session=True,
                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    with answer.open("w") as solver:
        solver.write("s SATISFIABLE\n")
        solver.flush()
        os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and err == "" and out.count("\n") == 1
    if as_json:
        assert (json.loads(out)["status"], json.loads(out)["solutions"]) == ("interrupted", [])
    else:
        assert out == f"{FIRST}: stopped by Ctrl-C while reading the solver's answer; nothing decoded ({answer})\n"


# certify's CaDiCaL searches the board's CNF for about 14 s of CPU after 0.8 s of start-up and encoding: a Ctrl-C
# in the search was PySAT's error ("Caught keyboard interrupt"), a traceback and exit code 1
@pytest.mark.parametrize(("command", "after"), [("rate", 1.0), ("certify", 2.0)])
def test_ctrl_c_in_a_command_with_nothing_to_print_says_so_in_one_line(run_cli, tmp_path, command, after):
    """`rate`, `certify` (and `encode`, ...) ended on Ctrl-C with exit code 130 and not a word."""
    board = tmp_path / "board.json"
    assert run_cli("planted", "14x14", "--seed", "2", "-o", board).code == 0  # rate: seconds of CPU
    options = {"certify": ["-o", tmp_path / "board.cnf"]}.get(command, [])
    code, out, err = interrupt([command, board, *options], after=after)
    assert (code, out, err) == (130, "", "pipscover: stopped by Ctrl-C\n")


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_in_hint_all_keeps_the_steps_found(run_cli, tmp_path, as_json):
    """`hint --all` printed none of its steps on Ctrl-C, only "stopped by Ctrl-C", where the other commands keep
    what they found. The 14x14 board's chain takes about 2.5 s of CPU, its first steps come within 1 s."""
    board = tmp_path / "board.json"
    assert run_cli("planted", "14x14", "--seed", "2", "-o", board).code == 0
    code, out, err = interrupt(["hint", board, "--all", *(["--json"] if as_json else [])], after=1.2,
                               out_file=tmp_path / "out")
    assert (code, err) == (130, "")
    if as_json:
        document = json.loads(out)
        assert document["steps"] and (document["complete"], document["stopped_by"]) == (False, "Ctrl-C")
    else:
        lines = out.splitlines()
        assert lines[0] == f"{board}:" and lines[1].startswith("   1. ")
        assert re.fullmatch(r"  stopped by Ctrl-C after (1 step|[0-9]{2,} steps|[2-9] steps)", lines[-1]), lines[-1]


@pytest.fixture(params=["answers-http", "says-nothing"])
def not_a_scheduler(request):
    """A server on 127.0.0.1 that is not Dask's: one answers as a web server does (a dashboard's port, say),
    the other takes the connection and waits for a line that never comes."""
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        with suppress(OSError):
            while True:
                connection, _ = server.accept()
                held.append(connection)
                if request.param == "answers-http":
                    connection.recv(4096)
                    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                    connection.close()

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    server.close()
    for connection in held:
        connection.close()


def test_a_scheduler_address_where_no_dask_scheduler_answers_is_one_line(run_cli, tmp_path, not_a_scheduler):
    """A web server's answer was read as Dask's, its first bytes a length of 3 EiB: a MemoryError's traceback;
    a server that said nothing held the sweep for ever (Dask bounds the connection, not its first answer)."""
    result = run_cli("sweep", "count", FIRST, "-o", tmp_path / "rows.csv", "--scheduler", not_a_scheduler)
    assert_one_line_error(result, f"--scheduler {not_a_scheduler}: ")
    assert not (tmp_path / "rows.csv").exists()


NO_SCHEDULER_ADDRESS = [
    ("tcp://127.0.0.1:notaport", "must end in :PORT, a port from 1 to 65535"),
    ("tcp://127.0.0.1:99999", "must end in :PORT"), ("tcp://127.0.0.1", "must end in :PORT"),
    ("tcp://:8786", "must name a host before :PORT"), ("tcp://::1:8786", "an IPv6 one in brackets"),
]


@pytest.mark.parametrize("command", [["count", FIRST], ["sweep", "count", FIRST, "-o", "rows.csv"]],
                         ids=["count", "sweep"])
@pytest.mark.parametrize(("address", "says"), NO_SCHEDULER_ADDRESS)
def test_a_scheduler_address_that_is_no_host_and_port_is_refused_as_an_option_value(run_cli, tmp_path, monkeypatch,
                                                                                     command, address, says):
    """A port that is no number was "cannot connect (invalid literal for int() with base 10: 'notaport')",
    and `count` of a short puzzle took any address; port 99999 or no host was dialled for ten seconds."""
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(run_cli(*command, "--scheduler", address), f"error: {command[0]}: --scheduler {address}: ",
                          says)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("address", "says"), NO_SCHEDULER_ADDRESS)
def test_the_library_refuses_a_scheduler_address_as_the_command_line_does(tmp_path, address, says):
    """`sweep(..., scheduler=)` passed the address to Dask ("cannot connect (invalid literal for int()...)", or
    ten seconds dialling port 99999), and `count_on_cluster` of a short puzzle took any address: both now say
    what `--scheduler` says, before any work."""
    from pipscover import load, load_one
    from pipscover.sweep import Settings, make_jobs, sweep
    from pipscover.sweep.split_count import count_on_cluster

    said = f"--scheduler {address}: "
    with pytest.raises(PipsError, match=re.escape(said)) as swept:
        sweep("count", make_jobs("count", load(FIRST)), Settings(), tmp_path / "rows.csv", scheduler=address)
    assert says in str(swept.value) and "\n" not in str(swept.value) and list(tmp_path.iterdir()) == []
    with pytest.raises(PipsError, match=re.escape(said)) as counted:
        count_on_cluster(load_one(FIRST), "auto", address, 2, None, None, time.monotonic())
    assert str(counted.value) == str(swept.value)


LONG_NAME = "a" * 300  # past the 255 bytes a file's name may have on Linux's file systems
TOO_LONG = {
    "solve": ["solve", f"{LONG_NAME}.txt"],
    "count-in-folder": ["count", f"{LONG_NAME}/day.json"],
    "show": ["show", FIRST, "-o", f"{LONG_NAME}.svg"],
    "generate": ["generate", "-n", "4", "--seed", "1", "-o", f"{LONG_NAME}.json"],
    "encode": ["encode", FIRST, "-o", f"{LONG_NAME}.cnf"],
    "hint": ["hint", FIRST, "-o", f"{LONG_NAME}.svg"],
    "reduce": ["reduce", "subset-sum", "--numbers", "1,2", "--target", "3", "-o", f"{LONG_NAME}.json"],
    "sweep": ["sweep", "count", FIRST, "-j", "1", "-o", f"{LONG_NAME}.csv"],
    "fetch": ["fetch", "2025-09-15", "--cache-dir", LONG_NAME],
}


@pytest.mark.parametrize("name", sorted(TOO_LONG))
def test_a_file_name_past_the_systems_limit_is_one_line(run_cli, tmp_path, monkeypatch, name):
    """pathlib's exists and is_dir raise the system's "File name too long" (only a missing file is False): each
    of these ended in its traceback."""
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(run_cli(*TOO_LONG[name]), "characters): file name too long")


def test_marginals_of_a_billion_pip_domino_are_refused_before_they_are_made(run_cli, tmp_path):
    """The marginals are a row per cell from pip 0 to the largest: with a pip of 10^9 each row asks a billion
    counts, and `count --marginals` ran for minutes building them (one pass per pip value). Refused at once as
    past the memory cap, the exact count printed."""
    board = tmp_path / "billion.txt"
    board.write_text("1\nAA\n1\nA SUM 2000000000\n1\n1000000000 1000000000\n")
    started = time.monotonic()
    done = run_cli("count", board, "--marginals")
    assert done.code == 3 and time.monotonic() - started < 30
    assert "1 solution (exact" in done.out and "marginals: not counted (stopped by --memory" in done.out


@pytest.mark.parametrize("as_json", [False, True])
def test_marginals_of_a_puzzle_with_no_solution_are_not_searched(run_cli, as_json):
    """A count of 0 is exact, and then the marginals are known: no pip anywhere. one-in-three-unsat-9v is counted
    by dlx in 0.05 s, and its marginals were searched (the walk, then the sweep's graph) until --memory
    stopped them after 392 s, exit code 3 for a puzzle whose answer was whole."""
    puzzle = ROOT / "benchmarks" / "count_puzzles" / "one-in-three-unsat-9v.json"
    started = time.monotonic()
    done = run_cli("count", puzzle, "--marginals", "--timeout", "20", *(["--json"] if as_json else []))
    assert done.code == 1 and time.monotonic() - started < 10
    if as_json:
        document = json.loads(done.out)
        assert document["marginals_stopped_by"] is None and document["backbone"] == []
        assert all(sum(row) == 0 for _, _, row in document["marginals"])
    else:
        assert done.out.splitlines()[-1] == "marginals: none (no solution puts a pip anywhere)"


def test_marginals_of_a_unique_puzzle_are_its_one_solution_found_not_searched(run_cli):
    """unique-40-nyt is counted (1 solution) by blocking clauses in 0.7 s, and its marginals were searched for
    (the walk; inclusion-exclusion refuses its 13 billion points) past a --timeout of 30 s: a count of a few
    solutions gives them, found by a search that stops at that many."""
    from pipscover import load_one, solve

    puzzle = ROOT / "benchmarks" / "count_puzzles" / "unique-40-nyt-s1.json"
    started = time.monotonic()
    done = run_cli("count", puzzle, "--marginals", "--timeout", "20", "--json")
    assert done.code == 0 and time.monotonic() - started < 15
    document = json.loads(done.out)
    assert document["marginals_stopped_by"] is None and len(document["backbone"]) == 80
    solution = solve(load_one(puzzle)).solutions[0]
    assert sorted((r, c, pip) for (r, c), pip in solution.grid.items()) == [tuple(x) for x in document["backbone"]]


def _with_peak_memory(command: list[str], puzzle: Path, cap: str, timeout: str) -> tuple[int, dict, str, int]:
    """`pipscover COMMAND PUZZLE --memory CAP --timeout T --json` in a process of its own: its exit code, its
    last JSON line, its stderr and its peak resident memory in bytes (measured by a parent with no other
    child)."""
    measure = ("import json, resource, subprocess, sys; done = subprocess.run(sys.argv[1:], capture_output=True, "
               "text=True); print(json.dumps([done.returncode, done.stdout, done.stderr, "
               "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))")
    run = [sys.executable, "-m", "pipscover", *command, str(puzzle), "--memory", cap, "--timeout", timeout, "--json"]
    code, out, err, peak_kib = json.loads(subprocess.run([sys.executable, "-c", measure, *run], capture_output=True,
                                                         text=True, check=True, timeout=180,
                                                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout)
    return code, json.loads(out.splitlines()[-1]) if out.strip() else {}, err, peak_kib * 1024


PLANTED_6X8 = ROOT / "benchmarks" / "count_puzzles" / "planted-6x8-s1.json"


@pytest.mark.parametrize(("command", "cap"), [(["sample", "-n", "1"], "250M"),
                                             (["count", "-m", "inclusion-exclusion"], "150M")])
def test_a_memory_cap_holds_through_the_sweeps_build_and_its_sweeps(command, cap):
    """planted 6 x 8's graph build held 306 MiB when done (its freed lines not given back), and its pruning
    passed a 200 MiB cap by 130 MiB before the cap was looked at; `sample` then swept past a 300 MiB cap for
    its whole run, its sweeps never looking. Now the build gives back what it freed and asks before it
    prunes, and the sweeps look at the memory a few times a second: stopped by --memory, never above the cap
    (the peak resident memory of a process of its own, measured by a parent that has no other child). The
    count's graph, without the sample's keys, fits under 200 MiB (166 MiB at its peak): its cap is lower."""
    code, answer, err, peak = _with_peak_memory(command, PLANTED_6X8, cap, "120")
    assert code == 3, err
    assert answer["stopped_by"] in ("memory", "--memory")
    assert peak <= parse_size(cap)


def test_an_order_the_memory_cap_refuses_leaves_the_others_to_the_count():
    """The sweep's build tries several orders of the cells and keeps the smallest graph; one order refused
    by `--memory` ended the count, though a smaller graph was in hand or still to come (planted 6 x 8 under
    200 MiB: its first order's build is refused, its second, the smallest, takes 166 MiB). Now a refused
    order is passed over as one past the layings' limit is: the count builds its graph and sweeps until its
    timeout, within the cap."""
    code, answer, err, peak = _with_peak_memory(["count", "-m", "inclusion-exclusion"], PLANTED_6X8, "200M", "6")
    assert code == 3, err
    assert answer["stopped_by"] == "--timeout" and answer["exact"] is False
    assert peak <= parse_size("200M")


@pytest.mark.parametrize("seed", ["x", 1.5, True, 2**70])
@pytest.mark.parametrize("backend", ["dlx", "local", "auto"])
def test_the_library_refuses_a_seed_as_the_command_line_does(backend, seed):
    """`solve(puzzle, seed=...)` and `generate(seed=...)` took any seed: "x" and 1.5 were seeds of their own
    (`random.Random` hashes them), and `local` ended in a TypeError; `--seed` and `sample` refused them."""
    from pipscover import generate, load_one, solve

    with pytest.raises(PipsError, match="the seed must be a whole number"):
        solve(load_one(FIRST), backend, seed=seed)
    with pytest.raises(PipsError, match="the seed must be a whole number"):
        generate(dominoes=4, seed=seed)


def test_the_library_given_a_file_name_for_a_puzzle_says_how_to_read_one():
    """`count("examples/first.txt")` ended in "'str' object has no attribute 'dominoes'", and so did every
    function that takes a puzzle, each with another attribute."""
    import pipscover

    takers = {
        "count": lambda given: pipscover.count(given), "solve": lambda given: pipscover.solve(given),
        "solutions": lambda given: next(pipscover.solutions(given)), "sample": lambda given: pipscover.sample(given, 1),
        "marginals": lambda given: pipscover.marginals(given), "encode": lambda given: pipscover.encode(given),
        "decode": lambda given: pipscover.decode(given, [1]), "hint": lambda given: pipscover.hint(given),
        "rate": lambda given: pipscover.rate(given), "problems": lambda given: pipscover.problems(given, ()),
    }
    for name, taker in takers.items():  # (a name as a user writes it: a long path is shortened in the message)
        with pytest.raises(PipsError) as refused:
            taker("examples/first.txt")
        assert str(refused.value) == ("expected a Puzzle, not the str 'examples/first.txt': read one with "
                                      "pipscover.load_one"), name


@pytest.mark.parametrize("given", ["totalizer", "compact", {"card": "totalizer"}])
def test_the_library_given_an_encoding_by_name_says_to_wrap_it_in_encodings(given):
    """`encode(puzzle, "totalizer")` and `encoding(puzzle, "compact")` ended in "'str' object has no attribute
    'form'"; `decode` the same."""
    import pipscover

    puzzle = pipscover.load_one(FIRST)
    for taker in (pipscover.encode, pipscover.encoding, lambda *args: pipscover.decode(puzzle, [1], args[1])):
        with pytest.raises(PipsError, match=r"^encodings must be an Encodings, such as Encodings\(card='totalizer'\)"):
            taker(puzzle, given)


def test_rate_refuses_a_solution_to_guess_along_that_does_not_solve_the_puzzle():
    """`rate(puzzle, solution)` followed what it was given until its first guess: another puzzle's solution was
    a KeyError there, a list an AttributeError (and a puzzle rated without a guess never looked at it)."""
    from pipscover import load_one, rate, solve

    several = load_one(Path(__file__).parent.parent / "benchmarks" / "count_puzzles" / "no-unique-10-s1.json")
    assert rate(several, solve(several).solutions[0]).guesses > 0  # the solution is followed
    with pytest.raises(PipsError, match=r"^rate: the solution to guess along does not solve .*no-unique-10-s1"):
        rate(several, solve(load_one(FIRST)).solutions[0])
    with pytest.raises(PipsError, match=r"^rate: the solution to guess along must be a Solution, .* not the list"):
        rate(load_one(FIRST), [1])


@pytest.mark.parametrize("given", [None, "abc", [1], {"domino": [4, 3], "cells": [[0, 0], [0, 1]]}])
def test_the_checker_given_no_placements_says_what_it_takes(given):
    """`problems(puzzle, None)` was "'NoneType' object is not iterable", `problems(puzzle, "abc")` "'str' object
    has no attribute 'cells'", and `is_valid` the same: they now say what `hint`'s `placed` says."""
    from pipscover import is_valid, load_one, problems

    puzzle = load_one(FIRST)
    for checker in (problems, is_valid):
        with pytest.raises(PipsError, match=r"^a solution must hold Placements, as solve gives them \(Placement"):
            checker(puzzle, given)


TIMEOUT_TAKERS = {  # each public function that takes a timeout, called on the first example
    "count": lambda api, puzzle, timeout: api.count(puzzle, timeout=timeout),
    "solve": lambda api, puzzle, timeout: api.solve(puzzle, timeout=timeout),
    "sample": lambda api, puzzle, timeout: api.sample(puzzle, 1, timeout=timeout),
    "marginals": lambda api, puzzle, timeout: api.marginals(puzzle, timeout=timeout),
    "hint": lambda api, puzzle, timeout: api.hint(puzzle, timeout=timeout),
    "rate": lambda api, puzzle, timeout: api.rate(puzzle, timeout=timeout),
    "generate": lambda api, puzzle, timeout: api.generate(dominoes=4, timeout=timeout),
}


@pytest.mark.parametrize("timeout", [-1, -0.5, float("-inf")])
@pytest.mark.parametrize("name", sorted(TIMEOUT_TAKERS))
def test_the_library_refuses_a_negative_timeout_as_the_command_line_does(name, timeout):
    """`count(puzzle, timeout=-1)` answered an inexact count of 0 (a deadline already passed), `sample`, `hint`
    and `generate` a bare SearchTimeout, and -inf was no limit at all, where `--timeout -1` is refused."""
    import pipscover

    with pytest.raises(PipsError, match=r"^timeout must be a number of seconds >= 0 \(None or inf: no limit\), not -"):
        TIMEOUT_TAKERS[name](pipscover, pipscover.load_one(FIRST), timeout)


@pytest.mark.parametrize("timeout", [-1, float("nan")])
def test_a_sweep_refuses_a_timeout_that_is_no_time_limit_before_any_row(tmp_path, timeout):
    """`sweep(..., Settings(timeout=-1))` wrote a row of status timeout for every puzzle, and nan one of status
    error, where `sweep --timeout -1` is refused: the library refuses it before any row, in the same words."""
    from pipscover import load
    from pipscover.sweep import Settings, make_jobs, sweep

    with pytest.raises(PipsError, match=r"^timeout must be a number of seconds >= 0 \(None or inf: no limit\)"):
        sweep("count", make_jobs("count", load(FIRST)), Settings(timeout=timeout), tmp_path / "rows.csv", workers=1)
    assert list(tmp_path.iterdir()) == []
