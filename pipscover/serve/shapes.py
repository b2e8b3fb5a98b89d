"""The shape of every POST body the page sends, declared once as a dataclass and checked before any work:
a field of the wrong JSON type, a field no shape has, or a body that is not a JSON object is a 400 in one
sentence, whatever the JSON (`{"dominoes": 8, "difficulty": ["hard"]}` once reached a 500).

    >>> read(NewPuzzle, {"dominoes": 5}).dominoes
    5
    >>> read(NewPuzzle, {"dominoes": 5, "difficulty": ["hard"]})
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: 'difficulty' must be a text or null, not a list
"""

from __future__ import annotations

import types
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from pipscover.errors import PipsError

Shape = TypeVar("Shape")
# How a refusal names each JSON type.
JSON_NAMES = {bool: "true or false", int: "a whole number", str: "a text", list: "a list", dict: "an object",
              float: "a number", type(None): "null"}


@dataclass(frozen=True)
class Question:
    """`/api/hint`, `/api/check`, `/api/reveal` and `/api/stats`: the puzzle as `/api/day` gives it, the
    dominoes placed (`{"domino", "cells"}` each) and, for reveal, whether to reveal all."""

    puzzle: dict[str, Any]
    placed: list[Any] = field(default_factory=list)
    all: bool = False


@dataclass(frozen=True)
class NewPuzzle:
    """`/api/generate`: how many dominoes, which difficulty (any when null) and the seed (random when null)."""

    dominoes: int = 8
    difficulty: str | None = None
    seed: int | None = None


@dataclass(frozen=True)
class OpenFile:
    """`/api/open`: a puzzle file's text, its name (for messages), the difficulty of the puzzle to open (as
    `-d`), or the one to prefer among several (the page's choice, which a file of one puzzle overrides)."""

    text: str
    name: str = "the file"
    difficulty: str | None = None
    prefer: str | None = None


def read(shape: type[Shape], document: Any) -> Shape:
    """`document` as a `shape`, or `PipsError` naming the first field that does not fit."""
    if not isinstance(document, dict):
        raise PipsError("the request must be a JSON object")
    declared = {item.name: item for item in fields(shape)}  # type: ignore[arg-type]  # shapes are dataclasses
    unknown = sorted(set(document) - set(declared))
    if unknown:
        raise PipsError(f"the request has no field {unknown[0]!r}; it takes {', '.join(map(repr, declared))}")
    hints = get_type_hints(shape)
    for name, item in declared.items():
        if name not in document:
            if item.default is MISSING and item.default_factory is MISSING:
                raise PipsError(f"the request needs {name!r}")
            continue
        allowed = _json_types(hints[name])
        value = document[name]
        if not any(_is(value, kind) for kind in allowed):
            wanted = " or ".join(JSON_NAMES[kind] for kind in allowed)
            raise PipsError(f"{name!r} must be {wanted}, not {_named(value)}")
    return shape(**document)


def _json_types(hint: Any) -> tuple[type, ...]:
    """The JSON types a field's annotation allows: `int | None` gives (int, NoneType)."""
    if get_origin(hint) in (Union, types.UnionType):
        return tuple(kind for part in get_args(hint) for kind in _json_types(part))
    return (get_origin(hint) or hint,)


def _is(value: Any, kind: type) -> bool:
    """JSON's types, where `true` is not a number."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def _named(value: Any) -> str:
    return next(name for kind, name in JSON_NAMES.items() if _is(value, kind))
