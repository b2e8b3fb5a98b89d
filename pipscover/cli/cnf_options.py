"""The options that say how a CNF is written (`--card`, `--pb`, `--encoding`), for the commands that write or
read one: solve, encode, decode and bench. Apart from `pipscover.cli.common`, so that the other commands do not
load the CNF encoder's tables on start-up."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from pipscover.cnf import CARD_ENCODINGS, DEFAULT_CARD, DEFAULT_FORM, DEFAULT_PB, FORMS, PB_ENCODINGS, Encodings
from pipscover.engines import Backend, get_backend

# How a CNF is written: encode and decode take these (they must match), solve takes the Sat* ones. The
# choices are built from the encoders' tables, so mypy sees enums without members: look them up by name.
CardName = StrEnum("CardName", {name: name for name in CARD_ENCODINGS})  # type: ignore[misc]  # from the table
PbName = StrEnum("PbName", {name: name for name in PB_ENCODINGS})  # type: ignore[misc]  # from the table
FormName = StrEnum("FormName", {name: name for name in FORMS})  # type: ignore[misc]  # from the table
FormOption = Annotated[
    FormName,
    typer.Option(
        "--encoding", help="CNF form: placements (a variable per placement), compact (tiles, pips, carriers), auto."
    ),
]
CardOption = Annotated[
    CardName,
    typer.Option("--card", help="PySAT cardinality encoding (auto: seqcounter for bound 1, kmtotalizer above)."),
]
PbOption = Annotated[PbName, typer.Option("--pb", help="PySAT pseudo-boolean encoding for sum, less and greater.")]
# For commands that take any backend (solve, count, bench): unset means the SAT backend's own encodings.
SatCardOption = Annotated[
    CardName | None,
    typer.Option("--card", help="SAT backends: PySAT cardinality encoding (default auto, see encodings/cnf.md)."),
]
SatPbOption = Annotated[
    PbName | None, typer.Option("--pb", help="SAT backends: PySAT pseudo-boolean encoding (default best).")
]
SatFormOption = Annotated[
    FormName | None,
    typer.Option("--encoding", help="SAT backends: CNF form, placements or compact (default auto: by size)."),
]


def chosen_encodings(card: CardName, pb: PbName, form: FormName = FormName[DEFAULT_FORM]) -> Encodings:
    return Encodings(str(card), str(pb), str(form))


def backend_with_encodings(
    backend: str, card: CardName | None, pb: PbName | None, form: FormName | None = None
) -> str | Backend:
    """The backend `-b` names, writing its CNF with `--card`/`--pb`/`--encoding` when given (SAT backends only)."""
    if card is None and pb is None and form is None:
        return backend
    chosen = Encodings(str(card or DEFAULT_CARD), str(pb or DEFAULT_PB), str(form or DEFAULT_FORM))
    return get_backend(backend).with_encodings(chosen)
