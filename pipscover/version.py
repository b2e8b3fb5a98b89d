"""The version of pipscover, in one place: the package exports it and the DIMACS comments name it."""

__version__ = "0.1.0"
