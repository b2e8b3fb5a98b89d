"""What every engine and instrument shares to stay within its means: resource guards before building,
and work that a deadline can stop.

- `limits`: estimate what a run is about to build and refuse it, in one line, when it cannot fit;
- `stoppable`: iterators made in a forked worker that a deadline can kill, even inside one long C call;
- `writes`: files written whole or not at all (outputs, the fetch cache, sweep tables, plots).
"""
