"""NP-hardness reductions *to* Pips: machine-made instances that follow the published proofs.

Each module reads a source instance, builds a Pips puzzle with a map back, and turns any solution of
the puzzle into an answer to the source instance (see encodings/hardness.md for the proofs).

- `one_in_three`: POSITIVE 1-IN-3-SAT -> Pips with only 0-0 and 1-1 dominoes (strong NP-hardness).
- `subset_sum`: SUBSET SUM -> Pips with one `sum` region (weak NP-hardness).
"""

from pipscover.hardness.one_in_three import (
    OneInThreeInstance,
    OneInThreeMap,
    parse_one_in_three,
    read_one_in_three,
    recover_assignment,
    reduce_one_in_three,
    solution_for_assignment,
)
from pipscover.hardness.subset_sum import SubsetSumInstance, SubsetSumMap, recover_subset, reduce_subset_sum

__all__ = [
    "OneInThreeInstance", "OneInThreeMap", "SubsetSumInstance", "SubsetSumMap", "parse_one_in_three",
    "read_one_in_three", "recover_assignment", "recover_subset", "reduce_one_in_three", "reduce_subset_sum",
    "solution_for_assignment",
]
