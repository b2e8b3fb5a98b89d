"""Instruments that make puzzles.

- `generator`: puzzles around a hidden solution, by default proved to have exactly one solution, optionally of
  a difficulty;
- `planted`: puzzles read off a random solution, solvable by construction, of any size that fits in
  memory, asking no solver;
- `single_tiling`: laying the hidden dominoes so that no other tiling fits their pip grid;
- `incremental`: one SAT solver kept across the generator's many questions about one board.

The package can be called: `pipscover.generate(...)` is `generator.generate(...)`. The API's `generate` has the
package's name, and importing a package sets its parent's attribute of that name to the package, so the
package itself answers the call:

    >>> import pipscover
    >>> made = pipscover.generate(dominoes=4, seed=3)
    >>> made.unique, len(made.puzzle.dominoes)
    (True, 4)
    >>> import inspect
    >>> list(inspect.signature(pipscover.generate).parameters)[:3]
    ['dominoes', 'max_pip', 'shape']
"""

import sys
from inspect import Signature
from types import ModuleType
from typing import Any


class _CallablePackage(ModuleType):
    """This package, callable as `generator.generate`, and showing that function's signature to `help`,
    `inspect.signature` and editors (the call imports the generator; importing the package does not)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """A puzzle around a hidden solution: `pipscover.generate.generator.generate`, whose docstring says more."""
        from pipscover.generate.generator import generate

        return generate(*args, **kwargs)

    @property
    def __signature__(self) -> Signature:
        from inspect import signature

        from pipscover.generate.generator import generate

        return signature(generate)


sys.modules[__name__].__class__ = _CallablePackage
