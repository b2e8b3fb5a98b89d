"""`pipscover backends`: every search backend with a one-line description, and the aliases."""

from __future__ import annotations

import typer

from pipscover.backends import ALIASES, DEFAULT_BACKEND, REGISTRY, get_backend
from pipscover.cli.app import app
from pipscover.cli.common import JsonOption, print_json


@app.command("backends")
def backends_command(as_json: JsonOption = False) -> None:
    """List the backends `solve -b` accepts, with a one-line description each.

    Example: pipscover backends
    """
    rows = []
    for name in REGISTRY:
        try:
            description = get_backend(name).description
        except ImportError as error:
            description = f"(unavailable: {error})"
        aliases = sorted(alias for alias, target in ALIASES.items() if target == name)
        rows.append({"name": name, "description": description, "aliases": aliases, "default": name == DEFAULT_BACKEND})
    if as_json:
        print_json({"backends": rows})
        return
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        extra = [*(f"alias {alias}" for alias in row["aliases"]), *(["default"] if row["default"] else [])]
        note = f"  [{', '.join(extra)}]" if extra else ""
        typer.echo(f"{row['name']:<{width}}  {row['description']}{note}")
