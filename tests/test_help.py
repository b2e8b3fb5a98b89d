"""`--help` read at 80 columns, as a person reads it, and usage errors in the project's words; one meaning per
flag across commands."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
from test_cli import _all_commands

from conftest import EXAMPLES, NYT_FOLDER, needs_nyt

FIRST = EXAMPLES / "first.txt"


@pytest.mark.parametrize("words", _all_commands(), ids=" ".join)
def test_help_at_80_columns_has_placeholders_a_person_would_write(run_cli, monkeypatch, words):
    monkeypatch.setenv("COLUMNS", "80")
    shown = run_cli(*words, "--help").out
    assert not re.search(r"<[a-z]", shown), shown  # <bool>, <list[Path]>, <str>, <int range>, <easy|medium|hard>
    assert "[x>=" not in shown and "[x<=" not in shown and "{" not in shown.split("Usage:")[1].split("\n")[0]
    for line in shown.splitlines():  # a choice list is never split mid-word: long ones are listed in the help
        assert not re.search(r"[a-z]\|[a-z]+$", line.strip("│ ")), line


@pytest.mark.parametrize("words", _all_commands(), ids=" ".join)
def test_help_paragraphs_wrap_at_the_terminal_and_examples_fit_on_a_line(run_cli, monkeypatch, words):
    monkeypatch.setenv("COLUMNS", "80")
    shown = run_cli(*words, "--help").out
    description = shown.split("Usage:")[1].split("╭")[0].split("\n")[2:]
    paragraphs = "\n".join(line.rstrip() for line in description).strip("\n").split("\n\n")
    for paragraph in paragraphs:
        lines = paragraph.split("\n")
        # A line that ends short of the width before its paragraph ends is a source line break kept by typer.
        assert all(len(line) >= 60 for line in lines[:-1]), paragraph
        if paragraph.startswith("   ") or paragraph.lstrip().startswith("Example: "):
            assert len(lines) == 1, f"an example split over lines: {paragraph}"


@pytest.mark.parametrize("words", [("reduce",), *_all_commands()], ids=" ".join)
def test_help_at_80_columns_cuts_nothing_and_keeps_examples_indented(run_cli, monkeypatch, words):
    monkeypatch.setenv("COLUMNS", "80")
    shown = run_cli(*words, "--help").out
    assert "…" not in shown  # rich cuts a word longer than its column (planted --suite named a dotted path)
    assert "Show this message and exit." in shown  # on one line: the option columns leave the help room
    assert "Example" in shown
    description = shown.split("Usage:")[1].split("╭")[0].splitlines()[1:]
    # typer dedents the text after the summary as a block: examples right after it lost their indent (show)
    assert not [line for line in description if re.match(r" pipscover [a-z]", line)], shown


def test_hint_help_shows_the_given_position_on_one_line(run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    shown = run_cli("hint", "--help").out
    assert any(line.strip() == '[{"domino": [0, 5], "cells": [[0, 0], [0, 1]]}, ...]' for line in shown.splitlines())


def test_decode_help_speaks_of_the_encoded_file_not_of_backends(run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    shown = run_cli("decode", "--help").out
    assert "SAT backends" not in shown and "written with" in shown


def test_the_puzzles_argument_reads_puzzle_dots(run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    shown = run_cli("solve", "--help").out
    assert "Usage: pipscover solve [OPTIONS] PUZZLE..." in shown
    assert re.search(r"--all +Find every solution", shown)  # a flag takes no placeholder


def test_every_backend_is_listed_in_the_help_of_backend(run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    for command in ("solve", "bench", "sweep"):
        shown = run_cli(command, "--help").out
        assert all(name in shown for name in ("auto", "dlx", "local", "cadical195", "minisat22")), command


@pytest.mark.parametrize(("args", "says"), [
    (["generate", "-n", "0"], "generate: --dominoes 0: must be at least 1 (see pipscover generate --help)"),
    (["solve", FIRST, "--timeout", "abc"], "solve: --timeout abc: not a number"),
    (["generate", "--seed", "1.5"], "generate: --seed 1.5: not a whole number"),
    (["generate", "--shape", "blob"], "generate: --shape blob: choose one of nyt, rect, random"),
    (["sweep", "solve", FIRST, "-d", "extreme"], "sweep: --difficulty extreme: choose one of easy, medium, hard"),
    (["sweep", "generate", "--seeds", "1", "--shape", "blob"], "sweep: --shape blob: choose one of nyt, rect"),
    (["sweep", "solve", FIRST, "--limit", "0"], "sweep: --limit 0: must be at least 1"),
    (["sweep", "count", FIRST, "--retry", "later"], ("sweep: --retry later: choose one of solved, unsatisfiable, "
     "counted, rated, generated, timeout, interrupted, unknown, error")),
    (["solve", FIRST, "--bogus"], "solve: no such option: --bogus (see pipscover solve --help)"),
    (["count", FIRST, "--memory", "1X"], "count: --memory 1X: must be a size such as 2G"),  # was "not a memory
    (["sample", FIRST, "--memory", "0"], "sample: --memory 0: must be a size"),  # size: '1X'", no option named
])
def test_a_usage_error_is_said_in_the_projects_words(run_cli, tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    done = run_cli(*args)
    assert done.code == 2 and done.err == f"pipscover: error: {says}" + done.err.split(says, 1)[-1], done.err
    assert "Input should" not in done.err and "Value error" not in done.err
    assert "pipscover: error: pipscover" not in done.err


def test_limit_means_the_same_in_solve_and_sweep_and_all_means_every_solution(run_cli, tmp_path):
    board = tmp_path / "open.txt"
    # An open 2 x 4 board: 5 tilings, 16 ways to turn the dominoes.
    board.write_text("2\n####\n####\n0\n4\n1 2\n1 2\n1 2\n1 2\n")
    for args in (["--limit", "3"], ["--all"]):
        solved = run_cli("solve", board, "-b", "dlx", *args, "--json").out.count('"cells"') // 4
        out = tmp_path / f"{args[0]}.csv"
        swept = run_cli("sweep", "solve", board, "-b", "dlx", "--jobs", "1", *args, "-o", out)
        assert swept.code == 0 and f",solved,{solved}," in out.read_text()
    assert solved == 80


@pytest.mark.parametrize("args", [
    ["count", FIRST, "--marginals", "--distinct", "grids"], ["count", FIRST, FIRST, "--scheduler", "tcp://127.0.0.1:1"],
    ["sweep", "generate", FIRST], ["sweep", "count", FIRST, "--limit", "3"], ["certify", "--check", "a", "b", "c"],
    ["planted", "3y3"], ["fetch", "--to", "2025-09-01"], ["show", FIRST, "--json", "-f", "svg"],
    ["reduce", "subset-sum", "--numbers", "3,x", "--target", "3"], ["encode", FIRST, "--opb", "--card", "totalizer"],
])
def test_a_refusal_of_the_options_names_the_command_and_its_help(run_cli, args):
    """Options that do not go together were refused in bare lines (`pipscover: error: --to needs --from`), and
    some with a prefix of their own (`certify --check:`), where a refused value says `count: --jobs 0: ...
    (see pipscover count --help)`."""
    done = run_cli(*args)
    command = " ".join(args[:2] if args[0] == "reduce" else args[:1])
    assert done.code == 2 and done.out == ""
    assert re.fullmatch(rf"pipscover: error: {command}: .+ \(see pipscover {command} --help\)\n", done.err), done.err


@pytest.mark.parametrize("command", ["solve", "sweep"])
def test_all_and_limit_together_are_refused_not_one_of_them_ignored(run_cli, tmp_path, command):
    """--all used to win over --limit without a word: `solve --all --limit 5` listed every solution."""
    rows = tmp_path / "rows.csv"
    done = run_cli(*(["solve"] if command == "solve" else ["sweep", "solve", "-o", rows]), FIRST, "--all",
                   "--limit", "5")
    assert done.code == 2 and done.err == (
        f"pipscover: error: {command}: --all finds every solution and --limit 5 at most 5: give one of them "
        f"(see pipscover {command} --help)\n")
    assert not rows.exists()


def test_planted_draws_a_random_seed_and_reports_it_as_generate_does(run_cli, tmp_path):
    first = run_cli("planted", "4x4", "-o", tmp_path / "a.json", "--json").out
    second = run_cli("planted", "4x4", "-o", tmp_path / "b.json", "--json").out
    assert '"seed": ' in first and first != second


# What a new user cannot run as written, for a reason the help says: a placeholder for their own folder, cluster
# or position; a day this machine has no copy of (today, a month); the page's server (until Ctrl-C); hours of
# work (10,000 seeds, the scale suite), or the tables those make.
NOT_AS_WRITTEN = ("/path/to/", "tcp://", "placed.json", "today", "--from", "pipscover serve", "--seeds 1-10000",
                  "bench scale/", "pipscover plot")


def _examples(help_text: str) -> list[str]:
    """The command lines of a help's examples (one writes a file with printf), without the note some end with
    ("   (writes ...)")."""
    description = help_text.split("Usage:")[1].split("\n", 1)[1].split("╭")[0]
    lines = [line.strip().removeprefix("Example: ") for line in description.splitlines()]
    return [line.split("   (")[0] for line in lines if line.startswith(("pipscover ", "printf "))]


@needs_nyt
@pytest.mark.parametrize("words", _all_commands(), ids=" ".join)
def test_every_help_example_runs_as_written_in_a_folder_with_the_examples(run_cli, monkeypatch, tmp_path, words):
    """As a new user runs them, in a folder holding a copy of examples/, 2025-09-15 in the cache: `check`'s
    read first.txt, `count`'s and `sample`'s nyt/2025-09-15.json, `decode`'s p.json -d hard, and `count
    --scheduler` a planted-6x6.txt that `planted` cannot write; none was there."""
    monkeypatch.setenv("COLUMNS", "200")
    runnable = [line for line in _examples(run_cli(*words, "--help").out)
                if not any(reason in line for reason in NOT_AS_WRITTEN)]
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    (tmp_path / "cache").mkdir()
    shutil.copy(NYT_FOLDER / "2025-09-15.json", tmp_path / "cache")
    here = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}",
            "PIPSCOVER_CACHE": str(tmp_path / "cache"), "PIPSCOVER_NYT_URL": "http://127.0.0.1:9"}
    for line in runnable:
        solver = re.search(r"[;&|] *(cadical|clasp|picosat) ", line)
        if solver and shutil.which(solver.group(1)) is None:
            continue
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=here, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode in (0, 10) and done.stderr == "", (line, done.stderr)  # 10: a SAT solver's "SAT"
