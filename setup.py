"""Builds the compiled cores; everything else is in pyproject.toml.

Each core is optional: without a C compiler the install still succeeds and its module runs the Python twin
(the Dancing Links search in `pipscover.engines.dancing_links`, the counting search in
`pipscover.counting.structural`), which gives the same answers by the same steps. A core carries the SHA-256
of the source it was built from (`source_digest`), so that a test and `pipscover.runtime.cores` notice a core
that a failed build left behind: an optional build that fails keeps the previous one without a word.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

CORES = {"pipscover.engines._dancing_links": "pipscover/engines/_dancing_links.c",
         "pipscover.counting._structural": "pipscover/counting/_structural.c",
         "pipscover.counting._inclusion_exclusion": "pipscover/counting/_inclusion_exclusion.c",
         "pipscover.counting._sweep_graph": "pipscover/counting/_sweep_graph.c"}


def core(name: str, source: str) -> Extension:
    digest = hashlib.sha256((Path(__file__).parent / source).read_bytes()).hexdigest()
    return Extension(name, [source], extra_compile_args=["-O2"], define_macros=[("SOURCE_DIGEST", f'"{digest}"')],
                     optional=True)


setup(ext_modules=[core(name, source) for name, source in CORES.items()])
