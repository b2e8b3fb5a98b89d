"""How `--help` and usage errors read: placeholders a person would write, choices listed, errors in our words.

Typer names a parameter by its Python type (`<list[Path]>`, `<int range> [x>=1]`, `<bool>` on a flag, a choice
list folded mid-word at 80 columns) and passes on the validation library's sentences ("Input should be
greater than or equal to 1"). `humanize` gives every parameter of every command a placeholder (the one its
definition names, else one read off its type and name) and lists long choices in its help, where they wrap
between words; `usage_error` says what was wrong with a value as this project says it.
"""

from __future__ import annotations

from typing import Any

try:  # typer 0.2x carries its own copy of click; older typers use click itself
    from typer._click import Context
except ImportError:  # pragma: no cover
    from click import Context

CHOICES_INLINE = 20  # choices whose `a|b|c` is at most this long stay in the placeholder; longer ones go in the help
PLACEHOLDERS = {int: "N", float: "NUMBER"}  # by type; else the option's own name, `--card CARD`
NAMED = {  # by the parameter's name in the code, where its option's name does not say what it takes
    "timeout": "SECONDS", "output": "FILE", "svg": "FILE", "backend": "NAME", "backends": "NAME",
    "scheduler": "ADDRESS", "retry": "STATUS", "x": "COLUMN", "y": "COLUMN", "by": "COLUMN", "first": "DAY",
    "last": "DAY", "base": "URL", "cache": "FOLDER",
}


def humanize(command: Any, help_names: list[str] | None = None) -> None:
    """Give every parameter of `command` and of its subcommands a readable placeholder, in place.

    Typer draws a parameter's type beside its placeholder and a number's range as `[x>=1]`; both are turned
    off on each parameter (an argument's placeholder is its name; the range goes into the help, in words).
    """
    help_names = help_names or command.context_settings.get("help_option_names", ["--help"])
    for subcommand in getattr(command, "commands", {}).values():
        humanize(subcommand, help_names)
    # The help option is made on first use, for a context; made now (and kept by the command), it reads too.
    help_option = command.get_help_option(Context(command, help_option_names=help_names))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        _humanize(param)


def _humanize(param: Any) -> None:
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        param.metavar = ""  # a flag takes no value
        return
    if param.param_type_name == "argument":
        _argument(param)
        return
    if getattr(param, "min", None) is not None or getattr(param, "max", None) is not None:
        param.help = f"{param.help or ''} {_range(param.min, param.max)}.".strip()
        param._get_number_range_help_str = lambda: None
    if param.metavar is not None:  # named where it is defined
        return
    described = param.type_descriptor
    if described.is_choice:
        choices = [str(getattr(choice, "value", choice)) for choice in described.choices]
        inline = "|".join(choices)
        if len(inline) <= CHOICES_INLINE:
            param.metavar = inline
        else:
            param.metavar = param.name.upper()
            if not all(choice in (param.help or "") for choice in choices):
                param.help = f"{param.help or ''} One of: {', '.join(choices)}.".strip()
        return
    element = described.annotation
    if described.is_list:
        element = getattr(element, "__args__", (str,))[0]
    long_name = next((opt for opt in param.opts if opt.startswith("--")), param.name)
    param.metavar = NAMED.get(param.name) or (
        "PATH" if described.is_path else PLACEHOLDERS.get(element) or long_name.lstrip("-").upper())


def _argument(param: Any) -> None:
    """An argument is shown by its name, `PUZZLE...` (`[PUZZLE...]` when optional), in usage and help alike."""
    name = param.metavar
    if name is None:
        name = param.name.upper().removesuffix("_FILE")
        name = name.removesuffix("S") + "..." if param.nargs == -1 else name
    param.metavar = name
    param.display_type_rich = lambda ctx: None  # the name says what it takes
    param._usage_display_name = lambda: name if param.required else f"[{name}]"


def _range(low: float | None, high: float | None) -> str:
    if low is None:
        return f"At most {high:,}"
    return f"At least {low:,}" if high is None else f"From {low:,} to {high:,}"


def usage_error(error: Any) -> str:
    """The message of a click usage error, without the validation library's wording when it has some."""
    param, cause = getattr(error, "param", None), error.__cause__
    errors = getattr(cause, "errors", None)
    if param is None or errors is None:
        return _sentence(error.format_message())
    detail = errors()[0]
    named = next((opt for opt in param.opts if opt.startswith("--")), param.opts[0] if param.opts else param.name)
    value = detail.get("input")
    return f"{named} {value}: {_reason(param, detail)}"


def _reason(param: Any, detail: dict[str, Any]) -> str:
    """Why a value was refused, from one error of the validation library (its type and context)."""
    kind, bounds = detail.get("type", ""), detail.get("ctx") or {}
    described = param.type_descriptor
    if described.is_choice:
        return "choose one of " + ", ".join(str(getattr(choice, "value", choice)) for choice in described.choices)
    limits = {"greater_than_equal": ("at least", "ge"), "greater_than": ("more than", "gt"),
              "less_than_equal": ("at most", "le"), "less_than": ("less than", "lt")}
    if kind in limits:
        words, key = limits[kind]
        return f"must be {words} {bounds.get(key)}"
    if kind.startswith("int_"):
        return "not a whole number"
    if kind.startswith("float_"):
        return "not a number"
    if kind.startswith("bool_"):
        return "not true or false"
    return _sentence(str(detail.get("msg", "not a valid value")).removeprefix("Value error, "))


def _sentence(message: str) -> str:
    """Click's message with a lower-case start and no full stop, to sit inside one line."""
    return message[:1].lower() + message[1:].rstrip(".")
