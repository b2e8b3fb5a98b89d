"""`pipscover backends`: every search backend with a one-line description, and the aliases."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from pipscover.cli.app import app
from pipscover.cli.common import print_json
from pipscover.engines import ALIASES, DEFAULT_BACKEND, REGISTRY, get_backend


@app.command("backends")
def backends_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object listing every backend.")] = False,
) -> None:
    """List the backends `solve -b` accepts: a one-line description each, what each can do, and the command
    that installs the ones that are missing.

    Example: pipscover backends
    """
    rows: list[dict[str, Any]] = []
    for name in REGISTRY:
        engine = get_backend(name)
        able = engine.capabilities
        aliases = sorted(alias for alias, target in ALIASES.items() if target == name)
        rows.append({
            "name": name, "description": engine.description, "aliases": aliases, "default": name == DEFAULT_BACKEND,
            "available": able.available, "install": None if able.available else able.install,
            "enumerates": able.enumerates, "complete": able.complete, "timeout": able.timeout, "counter": able.counter,
            "encodings": able.encodings,
        })
    if as_json:
        print_json({"backends": rows})
        return
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        extra = [*(f"alias {alias}" for alias in row["aliases"]), *(["default"] if row["default"] else [])]
        note = f"  [{', '.join(extra)}]" if extra else ""
        missing = "" if row["available"] else f"  NOT INSTALLED: {row['install']}"
        typer.echo(f"{row['name']:<{width}}  {row['description']}{note}{missing}")
