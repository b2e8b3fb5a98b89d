"""Builds the compiled Dancing Links core; everything else is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and the engine runs its Python
search (`pipscover.engines.dancing_links`), which finds the same covers and visits the same nodes.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("pipscover.engines._dancing_links", ["pipscover/engines/_dancing_links.c"],
                             extra_compile_args=["-O2"], optional=True)])
