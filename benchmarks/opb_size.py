"""The OPB form against the DIMACS CNF on a folder of puzzles: variables, constraints or clauses, and bytes.

    python benchmarks/opb_size.py ../shared/puzzles/nyt              # every puzzle of the NYT archive
    python benchmarks/opb_size.py ../shared/puzzles/nyt --solve      # also time clasp and cadical on each

Both files are written as `pipscover encode` writes them (the CNF in the default form and encodings, header
and comments included; bytes are also given without the comment lines). With `--solve`, each file is solved
by the stock binary in its own process (wall seconds, first solution); the medians and the worst are printed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipscover.cnf import encode, write_dimacs
from pipscover.cnf.opb import encode_opb, write_opb
from pipscover.formats import load


def body_bytes(text: str, comment: str) -> int:
    """The bytes of the lines that are not comments."""
    return sum(len(line) + 1 for line in text.splitlines() if not line.startswith(comment))


def solve_seconds(command: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, capture_output=True, check=False)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--solve", action="store_true", help="time clasp on the OPB and cadical on the CNF")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for file in sorted(args.folder.glob("*.json")):
            for puzzle in load(file):
                cnf, opb = encode(puzzle), encode_opb(puzzle)
                cnf_text, opb_text = write_dimacs(cnf), write_opb(opb)
                row = {
                    "difficulty": puzzle.origin.difficulty,
                    "cnf_vars": cnf.num_vars, "clauses": cnf.num_clauses, "cnf_bytes": len(cnf_text),
                    "cnf_body": body_bytes(cnf_text, "c"),
                    "opb_vars": opb.num_vars, "constraints": len(opb.constraints), "opb_bytes": len(opb_text),
                    "opb_body": body_bytes(opb_text, "*"),
                    "terms": sum(len(terms) for terms, _, _ in opb.constraints),
                    "literals": sum(len(clause) for clause in cnf.cnf.clauses),
                }
                if args.solve:
                    cnf_path, opb_path = Path(scratch, "p.cnf"), Path(scratch, "p.opb")
                    cnf_path.write_text(cnf_text)
                    opb_path.write_text(opb_text)
                    row["cadical_s"] = solve_seconds(["cadical", "-q", str(cnf_path)])
                    row["clasp_s"] = solve_seconds(["clasp", str(opb_path)])
                rows.append(row)
    if not rows:
        sys.exit(f"{args.folder}: no *.json puzzles")
    print(f"{len(rows)} puzzles")
    for key in rows[0]:
        if key == "difficulty":
            continue
        values = [row[key] for row in rows]
        by_level = {level: statistics.median(row[key] for row in rows if row["difficulty"] == level)
                    for level in ("easy", "medium", "hard")}
        print(f"{key:12} total {sum(values):>12,.2f}  median {statistics.median(values):>10,.3f}  "
              f"max {max(values):>10,.3f}  medians easy/medium/hard "
              + " / ".join(f"{value:,.3f}" for value in by_level.values()))


if __name__ == "__main__":
    main()
