"""How `--help` and usage errors read: placeholders a person would write, choices listed, errors in our words.

Typer names a parameter by its Python type (`<list[Path]>`, `<int range> [x>=1]`, `<str>`, a choice list folded
mid-word at 80 columns, `{PUZZLES}...` in the usage line) and passes on its validator's sentences ("Input should
be greater than or equal to 1", "'1.5' is not a valid int"). `humanize` gives every parameter of a command a
placeholder (the one its definition names, else one read off its name and type), says a number's range in its
help, in words, and lists long choices there, where they wrap between words; `usage_error` says what was wrong
with a value as the rest of pipscover does.

Docstrings are wrapped by hand at the source's width; typer's rich mode keeps those line breaks, so a paragraph
read at 80 columns broke mid-line. `humanize` joins each paragraph's lines and lets the terminal wrap it.

Typer draws help from methods of each parameter and of its type, which differ between its versions (0.2x
before 0.29 on click's types, 0.29 on pydantic's); the few that print a type are replaced on the parameter
itself (or on its own copy of its type), never on a class that others share.
"""

from __future__ import annotations

import copy
import inspect
import re
import sys
from typing import Any

import typer

from pipscover.errors import brief

try:  # typer 0.2x carries its own copy of click; older typers use click itself
    from typer._click import Context
    from typer._click.globals import get_current_context
except ImportError:  # pragma: no cover
    from click import Context  # type: ignore[assignment]  # the same class, before typer 0.29
    from click.globals import get_current_context  # type: ignore[no-redef]  # the same, before typer 0.20

CHOICES_INLINE = 20  # choices whose `a|b|c` is at most this long stay in the placeholder; longer ones go in the help
PLACEHOLDERS = {"int": "N", "float": "NUMBER"}  # by type; else the option's own name, `--card CARD`
NAMED = {  # by the parameter's name in the code, where its option's name does not say what it takes
    "timeout": "SECONDS", "output": "FILE", "svg": "FILE", "backend": "NAME", "backends": "NAME",
    "scheduler": "ADDRESS", "retry": "STATUS", "x": "COLUMN", "y": "COLUMN", "by": "COLUMN", "first": "DAY",
    "last": "DAY", "base": "URL", "cache": "FOLDER",
}


def humanize(command: Any, help_names: list[str] | None = None) -> None:
    """Give every parameter of `command` and of its loaded subcommands a readable placeholder, in place."""
    help_names = help_names or command.context_settings.get("help_option_names", ["--help"])
    if command.help:
        command.help = unwrapped(command.help)
    for subcommand in getattr(command, "commands", {}).values():
        humanize(subcommand, help_names)
    # The help option is made on first use, for a context; made now (and kept by the command), it reads too.
    help_option = command.get_help_option(Context(command, help_option_names=help_names))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        _ascii_digits(param)
        _named_paths(param)
        if param.param_type_name == "argument":
            _argument(param)
        else:
            _option(param)


def unwrapped(text: str) -> str:
    """`text` with each paragraph on one line, for the terminal to wrap; indented paragraphs (examples) and
    click's `\\b` (keep as written) ones stay as they are."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        paragraph if paragraph.startswith((" ", "\b")) else " ".join(paragraph.split("\n")) for paragraph in paragraphs)


def _ascii_digits(param: Any) -> None:
    """A number's digits are ASCII: click reads it with int() or float(), which take any Unicode digit ('３' as 3,
    '٣' too), where numbers in files and in --numbers are refused unless ASCII (`is_written_whole_number`). Set
    on the parameter's own copy of its type; typer 0.29 reads numbers with pydantic, not `_number_class`."""
    number = getattr(getattr(param, "type", None), "_number_class", None)
    if number is None:
        return

    def ascii_number(value: Any) -> Any:
        if isinstance(value, str) and not value.isascii():
            raise ValueError(value)
        return number(value)

    param.type = copy.copy(param.type)
    param.type._number_class = ascii_number


def _named_paths(param: Any) -> None:
    """A path given as an empty word is refused: pathlib reads '' as '.', so `pipscover solve "$FILE"` with FILE
    unset solved every puzzle of the current folder."""
    if _kind(param) != "path" or not hasattr(param, "type"):
        return
    param.type = copy.copy(param.type)
    convert = param.type.convert

    def named(value: Any, param: Any, ctx: Any) -> Any:
        if value == "":
            raise Refused("''", "an empty name names no file (. is the current folder)")
        return convert(value, param, ctx)

    param.type.convert = named


def _option(param: Any) -> None:
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        param.metavar = ""  # a flag takes no value
        return
    low, high = bounds(param)
    if low is not None or high is not None:
        param.help = f"{param.help or ''} {_range(low, high)}.".strip()
        param._get_number_range_help_str = lambda: None  # typer 0.29
        if hasattr(param, "type"):  # typer before 0.29 asks the type
            param.type = copy.copy(param.type)
            param.type._describe_range = lambda: ""
    if param.metavar is not None:  # named where it is defined
        return
    choices = _choices(param)
    if choices:
        inline = "|".join(choices)
        if len(inline) <= CHOICES_INLINE:
            param.metavar = inline
            return
        param.metavar = NAMED.get(param.name) or param.name.upper()
        if not all(choice in (param.help or "") for choice in choices):
            param.help = f"{param.help or ''} One of: {', '.join(choices)}.".strip()
        return
    long_name = next((opt for opt in param.opts if opt.startswith("--")), param.name)
    kind = _kind(param)
    param.metavar = NAMED.get(param.name) or ("PATH" if kind == "path" else PLACEHOLDERS.get(kind)) or (
        long_name.lstrip("-").upper())


def _argument(param: Any) -> None:
    """An argument is shown by its name, `PUZZLE...` (`[PUZZLE...]` when optional), in usage and help alike."""
    name = param.metavar
    if name is None:
        name = param.name.upper().removesuffix("_FILE")
        name = name.removesuffix("S") + "..." if param.nargs == -1 else name
    param.metavar = name
    in_usage = name if param.required else f"[{name}]"
    param.display_type_rich = lambda ctx: None  # typer 0.29: the name says what it takes
    param._usage_display_name = lambda: in_usage
    param.make_metavar = lambda ctx=None, usage=False: in_usage if usage else name  # before 0.29
    if hasattr(param, "type"):
        param.type = copy.copy(param.type)
        param.type.get_metavar = lambda *args, **kwargs: ""


def _choices(param: Any) -> list[str]:
    described = getattr(param, "type_descriptor", None)  # typer 0.29
    if described is not None:
        found = described.choices if described.is_choice else None
    else:
        found = getattr(getattr(param, "type", None), "choices", None)
    return [str(getattr(choice, "value", choice)) for choice in found or ()]


def bounds(param: Any) -> tuple[Any, Any]:
    """The least and most a number option takes (None: no bound), in either typer."""
    if hasattr(param, "min"):  # typer 0.29 keeps a range on the parameter
        return param.min, param.max
    return getattr(param.type, "min", None), getattr(param.type, "max", None)


def _kind(param: Any) -> str:
    """`int`, `float`, `path` or another type name, in either typer."""
    described = getattr(param, "type_descriptor", None)
    if described is not None:
        annotation = described.annotation
        if described.is_list:
            annotation = getattr(annotation, "__args__", (str,))[0]
        return "path" if described.is_path else getattr(annotation, "__name__", "")
    return param.type.name.split()[0]  # "int range" -> "int"


def _range(low: Any, high: Any) -> str:
    if low is None:
        return f"At most {high:,}"
    return f"At least {low:,}" if high is None else f"From {low:,} to {high:,}"


class Refused(typer.BadParameter):
    """A value an option's callback refused, with the reason in our words: `--timeout -1: must be ...`."""

    def __init__(self, value: object, reason: str) -> None:
        super().__init__(reason)
        self.value = value


class OptionsRefused(typer.BadParameter):
    """Options that do not go together, or that the command cannot take (`--all` with `--limit`), refused
    before any work: printed as a refused value is, after the command's name and with where its help is
    (they were bare lines, where a refused value said `count: --jobs 0: ... (see pipscover count --help)`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, ctx=get_current_context(silent=True))

    def format_message(self) -> str:
        return self.message


def usage_error(error: Any) -> str:
    """The message of a click usage error: for a refused value, the option, the value and why, in our words."""
    param = getattr(error, "param", None)
    if param is None or not hasattr(param, "opts"):
        return _sentence(error.format_message())
    if type(error).__name__ == "MissingParameter":  # click's, or typer's copy of it since 0.20
        return f"missing {param.human_readable_name}"
    named = next((opt for opt in param.opts if opt.startswith("--")), None) or param.human_readable_name
    if isinstance(error, Refused):
        return f"{named} {brief(error.value)}: {error.message}"
    value = _refused_value(error)
    return f"{named}{'' if value is None else f' {brief(value)}'}: {_reason(param, error)}"


def _refused_value(error: Any) -> Any:
    """The value a parameter refused: from the validator's error (typer 0.29) or click's sentence."""
    errors = getattr(error.__cause__, "errors", None)
    if errors is not None:
        return errors()[0].get("input")
    said = re.match(r"'?(.*?)'? is not", str(error.message))
    return said.group(1) if said else None


def _reason(param: Any, error: Any) -> str:
    choices = _choices(param)
    if choices:
        return "choose one of " + ", ".join(choices)
    low, high = bounds(param)
    kind = _kind(param)
    refused, readable = str(_refused_value(error)), sys.get_int_max_str_digits()  # (0: no limit)
    if kind == "int" and re.fullmatch(r"[+-]?[0-9]+", refused) and 0 < readable < len(refused):
        return f"a number of more than {readable} digits, too long to read"
    if low is not None or high is not None:
        value = _refused_value(error)
        try:  # (as a whole number where one is asked: `-n 1.5` and `-n 1e3` were "must be at least 1")
            (int if kind == "int" else float)(value if str(value).isascii() else "not ASCII")
        except (TypeError, ValueError):
            return f"not a {'whole number' if kind == 'int' else 'number'} ({_range(low, high).lower()})"
        return f"must be {_range(low, high).lower()}"
    if kind == "int":
        return "not a whole number"
    if kind == "float":
        return "not a number"
    return _sentence(str(error.message).removeprefix("Value error, "))


def _sentence(message: str) -> str:
    """Click's message with a lower-case start and no full stop, to sit inside one line."""
    return message[:1].lower() + message[1:].rstrip(".")
