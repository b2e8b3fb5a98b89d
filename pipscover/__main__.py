"""`python -m pipscover` is the `pipscover` command."""

from pipscover.cli import main

main()
