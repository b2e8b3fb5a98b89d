"""The documents stay true to the code: every name of pipscover that README.md and encodings/*.md cite in
backticks exists, every file they cite (by path or by a source file's name) exists, and every link between
them lands on a heading.

A cited name is a dotted name in backticks, alone or called (`pipscover.counting.count(puzzle, ...)`), whose
first part is pipscover's: `pipscover.x.y`; a module path relative to the package or ending one
(`engines.dlx.search_nodes`, `limits.TooBig`); or a class or function that a module of pipscover defines
(`StructuralCounter.closed_form`). It exists when importing the module and getattr-ing the rest succeeds (a
dataclass field counts as an attribute). File names (`structural.py`) and other libraries' names
(`time.process_time`, `pysat.card.CardEnc`) are not checked."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "encodings").glob("*.md"))]
PACKAGE = ROOT / "pipscover"

FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"`([^`\n]+)`")
# A whole span that is a dotted name, maybe called: the name is the first group.
DOTTED = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?")
FILE_ENDINGS = {"py", "c", "h", "so", "md", "json", "csv", "toml", "cff", "png", "svg", "txt", "ipynb",
                "cnf", "opb", "drat"}
# A path in the repository: the folder it starts with, then anything up to a space or `::`.
PATH = re.compile(r"((?:pipscover|benchmarks|tests|encodings|examples)/[^\s:`]*)(?:::(\w+))?")
# A source file cited by its name alone (`structural.py`, `test_sat.py::test_...`), wherever it is.
SOURCE = re.compile(r"(\w+\.(?:py|c|h))(?:::(\w+))?")
SOURCE_FOLDERS = ("pipscover", "benchmarks", "tests", "examples")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def spans(document: Path) -> list[str]:
    """The inline code spans of a Markdown document (fenced blocks left out)."""
    return SPAN.findall(FENCE.sub("", document.read_text(encoding="utf-8")))


@cache
def modules() -> dict[str, Path]:
    """Every module of pipscover (dotted name: its source or built file), packages included."""
    found: dict[str, Path] = {}
    for path in PACKAGE.rglob("*"):
        if path.suffix not in (".py", ".so") or "__pycache__" in path.parts:
            continue
        parts = [*path.relative_to(ROOT).parent.parts, path.name.split(".")[0]]
        if parts[-1] == "__init__":
            parts.pop()
        found.setdefault(".".join(parts), path)
    return found


@cache
def defined_names() -> dict[str, list[str]]:
    """The modules that define each top-level class, function or assigned name (from their sources)."""
    found: dict[str, list[str]] = {}
    for module, path in modules().items():
        if path.suffix != ".py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                names = [node.name]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [target.id for target in targets if isinstance(target, ast.Name)]
            else:
                continue
            for name in names:
                found.setdefault(name, []).append(module)
    return found


def has(thing: object, name: str) -> bool:
    """Whether `thing` has the attribute `name`, a dataclass's fields (not class attributes) counted."""
    if hasattr(thing, name):
        return True
    return isinstance(thing, type) and any(
        name in getattr(klass, "__annotations__", {}) or
        (dataclasses.is_dataclass(klass) and name in {field.name for field in dataclasses.fields(klass)})
        for klass in thing.__mro__)


def resolves(module: str, rest: list[str]) -> bool:
    """Whether importing `module` and getattr-ing `rest` in turn succeeds."""
    try:
        thing: object = importlib.import_module(module)
    except ImportError:
        return False
    for part in rest:
        if not has(thing, part):
            return False
        thing = getattr(thing, part, None)  # None: a dataclass field, which has nothing further to look up
    return True


def readings(name: str) -> list[tuple[str, list[str]]] | None:
    """The (module, attributes) a cited name may mean, or None when it is not pipscover's to check."""
    parts = name.split(".")
    if parts[-1] in FILE_ENDINGS:
        return None
    candidates = []
    for split in range(len(parts), 0, -1):
        head, rest = ".".join(parts[:split]), parts[split:]
        candidates += [(module, rest) for module in modules()
                       if module == head or module.endswith("." + head)]
    candidates += [(module, parts) for module in defined_names().get(parts[0], [])]
    is_ours = parts[0] == "pipscover" or any(module.rsplit(".", 1)[-1] == parts[0] for module in modules()) \
        or parts[0] in defined_names()
    return candidates if is_ours else None


def cited_names(document: Path) -> list[str]:
    """The dotted names of pipscover that `document` cites, each once, in order."""
    names = [found[1] for span in spans(document) if (found := DOTTED.fullmatch(span.strip()))]
    return [name for name in dict.fromkeys(names) if readings(name) is not None]


def stale(name: str) -> bool:
    return not any(resolves(module, rest) for module, rest in readings(name) or [])


def test_every_cited_name_exists():
    missing = [f"{document.relative_to(ROOT)}: `{name}`"
               for document in DOCUMENTS for name in cited_names(document) if stale(name)]
    assert not missing, "names the documents cite that the code does not have:\n" + "\n".join(missing)


def test_the_names_are_found_and_checked():
    """The reader sees the names the documents cite, and a name that does not exist is caught."""
    cited = {name for document in DOCUMENTS for name in cited_names(document)}
    assert {"pipscover.counting.count", "limits.TooBig", "StructuralCounter.closed_form"} <= cited
    assert not cited & {"time.process_time", "structural.py", "pysat.card.CardEnc"}
    assert stale("engines.dlx.no_such_name") and stale("pipscover.no_such_module.name")
    assert stale("StructuralCounter.no_such_method") and not stale("engines.dlx.DlxBackend")
    assert cited_files("no_such_module.py") == ([], None) and cited_files("`time.process_time`") is None


def cited_files(span: str) -> tuple[list[Path], str | None] | None:
    """The files a span may mean and the test it names after `::`, or None when it cites no file."""
    if found := PATH.fullmatch(span.strip()):
        path = ROOT / found[1]
        return ([path] if path.exists() else []), found[2]
    if found := SOURCE.fullmatch(span.strip()):
        return [path for folder in SOURCE_FOLDERS for path in (ROOT / folder).rglob(found[1])], found[2]
    return None


def test_every_cited_file_exists():
    missing = []
    for document in DOCUMENTS:
        for span in spans(document):
            if (found := cited_files(span)) is None:
                continue
            files, function = found
            if not files:
                missing.append(f"{document.relative_to(ROOT)}: `{span}` (no such file)")
            elif function and not any(f"def {function}(" in file.read_text(encoding="utf-8") for file in files):
                missing.append(f"{document.relative_to(ROOT)}: `{span}` (no such test)")
    assert not missing, "files the documents cite that the repository does not have:\n" + "\n".join(missing)


def anchors(document: Path) -> set[str]:
    """GitHub's anchors of a Markdown document's headings: lower case, punctuation dropped, spaces as dashes."""
    headings = re.findall(r"^#+\s+(.*?)\s*$", FENCE.sub("", document.read_text(encoding="utf-8")), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_every_link_between_the_documents_lands():
    broken = []
    for document in DOCUMENTS:
        for target in LINK.findall(FENCE.sub("", document.read_text(encoding="utf-8"))):
            if "://" in target or target.startswith("mailto:"):
                continue
            file, _, anchor = target.partition("#")
            linked = (document.parent / file).resolve() if file else document
            if not linked.exists():
                broken.append(f"{document.relative_to(ROOT)}: ({target}) (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{document.relative_to(ROOT)}: ({target}) (no such heading)")
    assert not broken, "links in the documents that lead nowhere:\n" + "\n".join(broken)
