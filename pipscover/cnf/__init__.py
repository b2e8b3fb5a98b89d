"""The CNF formulation: a puzzle as a propositional formula, and its DIMACS form.

- `placements`: the placements form of the CNF (placement and value variables, PySAT cardinality and
  pseudo-boolean encodings) and the map back from a model to a solution;
- `compact`: the compact form (tiles, values, one carrier per tile and distinct domino);
- `forms`: `encode`, which writes either form (`auto`: chosen by estimated size);
- `dimacs`: self-describing DIMACS export, and reading a solver's answer back into a checked solution;

encodings/cnf.md describes them; the SAT engines (`pipscover.engines.sat`, and
`pipscover.engines.sat_enumeration`, every model by blocking clauses) and blocking-clause counting
(`pipscover.counting.blocking`) use them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipscover.cnf.compact import CompactEncoding, encode_compact
    from pipscover.cnf.dimacs import SolverAnswer, read_model, write_dimacs
    from pipscover.cnf.forms import AnyEncoding, chosen_form, encode
    from pipscover.cnf.placements import (
        CARD_ENCODINGS,
        DEFAULT_CARD,
        DEFAULT_FORM,
        DEFAULT_PB,
        FAMILIES,
        FORMS,
        PB_ENCODINGS,
        Encoding,
        Encodings,
        FamilySize,
        candidate_placements,
        card_encoding,
        encode_placements,
        prune,
    )

# Each name is imported from its module on first use: the command line needs the encodings' names (the
# choices of --card, --pb, --form) for every command, the encoders and DIMACS only for the SAT ones.
_MODULE_OF = {
    **dict.fromkeys(["CompactEncoding", "encode_compact"], "pipscover.cnf.compact"),
    **dict.fromkeys(["SolverAnswer", "read_model", "write_dimacs"], "pipscover.cnf.dimacs"),
    **dict.fromkeys(["AnyEncoding", "chosen_form", "encode"], "pipscover.cnf.forms"),
    **dict.fromkeys(["CARD_ENCODINGS", "DEFAULT_CARD", "DEFAULT_FORM", "DEFAULT_PB", "FAMILIES", "FORMS",
                     "PB_ENCODINGS", "Encoding", "Encodings", "FamilySize", "candidate_placements",
                     "card_encoding", "encode_placements", "prune"], "pipscover.cnf.placements"),
}


def __getattr__(name: str) -> Any:
    if name in _MODULE_OF:
        return getattr(import_module(_MODULE_OF[name]), name)
    raise AttributeError(f"module 'pipscover.cnf' has no attribute {name!r}")


__all__ = [
    "CARD_ENCODINGS", "DEFAULT_CARD", "DEFAULT_FORM", "DEFAULT_PB", "FAMILIES", "FORMS", "PB_ENCODINGS", "AnyEncoding",
    "CompactEncoding", "Encoding", "Encodings", "FamilySize", "SolverAnswer", "candidate_placements", "card_encoding",
    "chosen_form", "encode", "encode_compact", "encode_placements", "prune",
    "read_model", "write_dimacs",
]
