"""What every engine and instrument shares to stay within its means: resource guards before building,
and work that a deadline can stop.

- `limits`: estimate what a run is about to build and refuse it, in one line, when it cannot fit;
- `stoppable`: iterators made in a forked worker that a deadline can kill, even inside one long C call;
- `writes`: files written whole or not at all (outputs, the fetch cache, sweep tables, plots);
- `recursion`: room on Python's stack for a recursion as deep as the puzzle is large.

Running in parallel takes two forms, for two needs. Inside one machine, `stoppable`'s workers (forked with
`os.fork`, killed with everything they forked, Ctrl-C left to the caller) serve three uses: a deadline that
must stop a SAT solver or encoder inside one C call, the counting race of `auto` (`race`), and
`count --jobs` (`in_parallel`: a few workers taking the puzzles as they finish). `os.fork` rather than
`multiprocessing`, because these workers must also start inside the daemonic worker processes of a stock
Dask cluster. Sweeps (`pipscover.sweep`) run on Dask distributed instead: thousands of independent jobs whose
rows must survive a crash and resume, on this machine or on a cluster of many (`--scheduler`), which forked
workers cannot reach. The two nest: a Dask task forks `stoppable` workers for its deadline. No threads: the
searches are CPU-bound Python.
"""
