"""Builds the compiled Dancing Links core; everything else is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and the engine runs its Python
search (`pipscover.engines.dancing_links`), which finds the same covers and visits the same nodes. The core
carries the SHA-256 of the source it was built from (`source_digest`), so that a test notices a core that a
failed build left behind: an optional build that fails keeps the previous one without a word.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "pipscover/engines/_dancing_links.c"
DIGEST = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

setup(ext_modules=[Extension("pipscover.engines._dancing_links", [SOURCE], extra_compile_args=["-O2"],
                             define_macros=[("SOURCE_DIGEST", f'"{DIGEST}"')], optional=True)])
