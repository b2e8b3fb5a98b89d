"""Benchmarks: backends timed on many puzzles in one process, alone or side by side (`pipscover bench`).

- `tasks`: what is timed on one puzzle (the first solution, every solution, an exact count);
- `timing`: one backend on a list of puzzles, with medians over repeated runs;
- `compare`: several backends and CNF encodings on the same puzzles, as a table.
"""

from pipscover.bench.tasks import TASKS, Task
from pipscover.bench.timing import CLOCKS, BenchResult, PuzzleTime, benchmark

__all__ = ["CLOCKS", "TASKS", "BenchResult", "PuzzleTime", "Task", "benchmark"]
