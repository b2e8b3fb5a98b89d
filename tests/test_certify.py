"""Certificates: `pipscover certify` writes encode's CNF plus at most one clause and a DRAT proof that a checker
sharing no code with the solver accepts; puzzles with more solutions say so; unsatisfiable reductions are proved."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from dratify import check_proof, parse_dimacs
from pysat.formula import CNF

from conftest import EXAMPLES, NYT_FOLDER, needs_nyt, nyt_files
from pipscover import encode, load_one
from pipscover.hardness.one_in_three import OneInThreeInstance, reduce_one_in_three
from pipscover.hardness.subset_sum import SubsetSumInstance, reduce_subset_sum
from pipscover.model import Puzzle
from pipscover.solving.certificates import certify, check

FIRST = EXAMPLES / "first.txt"
TWO_WAYS = {"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}]}
# Every triple holds exactly one true variable: no assignment does (one true leaves b c d at none).
NO_ONE_IN_THREE = OneInThreeInstance(4, ((1, 2, 3), (1, 2, 4), (1, 3, 4), (2, 3, 4)))


def clauses(text: str) -> list[list[int]]:
    return [list(clause) for clause in CNF(from_string=text).clauses]


def third_party_accepts(cnf: str, proof: str) -> bool:
    """dratify's own verdict, called here directly: no pipscover code between the files and the checker."""
    return check_proof(parse_dimacs(cnf), proof).ok


def test_a_unique_certificate_is_the_encoding_plus_the_clause_that_blocks_the_solution(run_cli, tmp_path):
    done = run_cli("certify", FIRST, "-o", tmp_path / "first.cnf")
    assert done.code == 0 and ": unique: " in done.out
    written, encoded = clauses((tmp_path / "first.cnf").read_text()), clauses(encode(load_one(FIRST)))
    assert written[:-1] == encoded and len(written) == len(encoded) + 1
    assert all(literal < 0 for literal in written[-1])
    assert third_party_accepts((tmp_path / "first.cnf").read_text(), (tmp_path / "first.drat").read_text())


def test_the_certificate_is_encode_text_but_the_problem_line_and_the_last_clause(tmp_path):
    made = certify(load_one(FIRST))
    plain = encode(load_one(FIRST)).splitlines()
    lines = made.cnf.splitlines()
    differ = [index for index, (ours, theirs) in enumerate(zip(lines, plain)) if ours != theirs]
    assert len(lines) == len(plain) + 1 and [plain[i][:6] for i in differ] == ["p cnf "]


def test_the_check_accepts_it_and_says_what_it_proves(run_cli, tmp_path):
    run_cli("certify", FIRST, "-o", tmp_path / "first.cnf")
    checked = run_cli("certify", "--check", tmp_path / "first.cnf", "--json")
    report = json.loads(checked.out)
    assert checked.code == 0 and report["accepted"] and report["claim"] == "unique"
    assert report["checkers"]["dratify"] == "accepted" and len(report["solutions"]) == 1


def test_the_check_given_the_proof_first_says_which_goes_first(run_cli, tmp_path):
    """It said "first.drat: not a certificate: a file without pipscover's header", of the right files."""
    cnf, proof = tmp_path / "first.cnf", tmp_path / "first.drat"
    assert run_cli("certify", FIRST, "-o", cnf).code == 0
    done = run_cli("certify", "--check", proof, cnf)
    said = f"certify: --check: give the certificate {cnf} first, then its proof {proof}"
    assert (done.code, done.err) == (2, f"pipscover: error: {said} (see pipscover certify --help)\n")


def test_certify_json_has_the_documented_keys(run_cli, tmp_path):
    report = json.loads(run_cli("certify", FIRST, "-o", tmp_path / "first.cnf", "--json").out)
    assert list(report) == ["puzzle", "claim", "solutions", "cnf", "proof", "seconds"]
    assert report["proof"] == str(tmp_path / "first.drat") and report["claim"] == "unique"


def test_a_puzzle_with_more_solutions_shows_two_and_writes_nothing(run_cli, tmp_path):
    (tmp_path / "two.json").write_text(json.dumps(TWO_WAYS))
    done = run_cli("certify", tmp_path / "two.json", "-o", tmp_path / "two.cnf", "--json")
    report = json.loads(done.out)
    assert done.code == 1 and report["claim"] == "not unique" and len(report["solutions"]) == 2
    assert report["cnf"] is None and sorted(path.name for path in tmp_path.iterdir()) == ["two.json"]


@pytest.mark.parametrize("reduced", [
    reduce_one_in_three(NO_ONE_IN_THREE)[0],
    reduce_subset_sum(SubsetSumInstance((3, 5), 4))[0],
], ids=["one-in-three", "subset-sum"])
def test_an_unsatisfiable_reduction_is_proved_by_the_encoding_alone(reduced: Puzzle):
    made = certify(reduced)
    assert made.claim == "unsatisfiable" and made.solutions == ()
    assert made.cnf == encode(reduced)
    assert third_party_accepts(made.cnf, made.proof) and check(made.cnf, made.proof, "reduced.cnf").accepted


def test_generate_certify_writes_the_certificate_beside_the_puzzle(run_cli, tmp_path):
    done = run_cli("generate", "-n", "5", "--seed", "7", "-o", tmp_path / "made.json", "--certify", "--json")
    assert done.code == 0, done.err
    assert json.loads(done.out)["certificate"] == {
        "claim": "unique", "cnf": str(tmp_path / "made.cnf"), "proof": str(tmp_path / "made.drat")}
    assert run_cli("certify", "--check", tmp_path / "made.cnf").code == 0
    assert load_one(tmp_path / "made.cnf") == load_one(tmp_path / "made.json")


@needs_nyt
def test_nyt_puzzles_with_one_solution_get_certificates_the_checker_accepts():
    puzzles = [load_one(file, difficulty) for file in nyt_files()[:4] for difficulty in ("easy", "medium")]
    made = [certify(puzzle) for puzzle in puzzles]
    assert {certificate.claim for certificate in made} <= {"unique", "not unique"}
    proved = [certificate for certificate in made if certificate.proof is not None]
    assert proved and all(third_party_accepts(certificate.cnf, certificate.proof) for certificate in proved)


@needs_nyt
def test_the_examples_of_certify_help_run_as_written(run_cli, tmp_path, monkeypatch):
    """They certified 2025-09-15's hard puzzle, which has 2,764,800 solutions: "not unique", exit 1 and nothing
    written, and the --check example after it found no proof to check."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PIPSCOVER_CACHE", str(NYT_FOLDER))  # the day is read, never fetched
    monkeypatch.setenv("COLUMNS", "200")
    shown = run_cli("certify", "--help").out.splitlines()
    examples = [line.split()[1:] for line in shown if line.strip().startswith("pipscover certify ")]
    assert len(examples) == 2
    for example in examples:
        done = run_cli(*example)
        assert done.code == 0, (example, done.out[:300], done.err)


def test_a_certificate_path_must_be_named_cnf(run_cli, tmp_path):
    assert run_cli("certify", FIRST, "-o", Path(tmp_path) / "first.txt").code == 2
    assert run_cli("certify", FIRST).code == 2


@pytest.mark.skipif(shutil.which("drat-trim") is None, reason="drat-trim is not on the PATH")
def test_drat_trim_accepts_the_certificate_where_it_is_installed():
    made = certify(load_one(FIRST))
    assert check(made.cnf, made.proof, "first.cnf").verdicts["drat-trim"] is True
