"""Instruments that make puzzles.

- `generator`: puzzles around a hidden solution, by default proved to have exactly one solution, optionally of
  a difficulty;
- `planted`: puzzles read off a random solution, solvable by construction, of any size, asking no solver;
- `single_tiling`: laying the hidden dominoes so that no other tiling fits their pip grid;
- `incremental`: one SAT solver kept across the generator's many questions about one board.

The package can be called: `pipscover.generate(...)` is `generator.generate(...)`. The API's `generate` has the
package's name, and importing a package sets its parent's attribute of that name to the package, so the
package itself answers the call:

    >>> import pipscover
    >>> made = pipscover.generate(dominoes=4, seed=3)
    >>> made.unique, len(made.puzzle.dominoes)
    (True, 4)
"""

import sys
from types import ModuleType
from typing import Any


class _CallablePackage(ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from pipscover.generate.generator import generate

        return generate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
