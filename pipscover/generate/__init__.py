"""Instruments that make puzzles.

- `generator`: puzzles around a hidden solution, by default proved to have exactly one solution, optionally of
  a difficulty;
- `planted`: puzzles read off a random solution, solvable by construction, of any size, asking no solver;
- `single_tiling`: laying the hidden dominoes so that no other tiling fits their pip grid;
- `incremental`: one SAT solver kept across the generator's many questions about one board.
"""
