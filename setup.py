"""Builds the compiled cores; everything else is in pyproject.toml.

Each core is optional: without a C compiler the install still succeeds and its module runs the Python twin
(the Dancing Links search in `pipscover.engines.dancing_links`, the counting search in
`pipscover.counting.structural`), which gives the same answers by the same steps. A core carries the SHA-256
of the sources it was built from (`source_digest`; a core of several files also names them, `source_files`),
so that a test and `pipscover.runtime.cores` notice a core that a failed build left behind: an optional build
that fails keeps the previous one without a word.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

# Each core's files: the module's own source first, then the other C files and the headers it is built from.
CORES = {"pipscover.engines._dancing_links": ["pipscover/engines/_dancing_links.c"],
         "pipscover.counting._structural": ["pipscover/counting/_structural.c"],
         "pipscover.counting._inclusion_exclusion": ["pipscover/counting/_inclusion_exclusion.c",
                                                     "pipscover/counting/_sweep_graph.c",
                                                     "pipscover/counting/_sweep_graph.h",
                                                     "pipscover/counting/_sweep_pass.h"]}


def core(name: str, files: list[str]) -> Extension:
    digest = hashlib.sha256(b"".join((Path(__file__).parent / file).read_bytes() for file in files)).hexdigest()
    names = " ".join(Path(file).name for file in files)
    return Extension(name, [file for file in files if file.endswith(".c")], depends=files, extra_compile_args=["-O2"],
                     define_macros=[("SOURCE_DIGEST", f'"{digest}"'), ("SOURCE_FILES", f'"{names}"')],
                     optional=True)


setup(ext_modules=[core(name, files) for name, files in CORES.items()])
