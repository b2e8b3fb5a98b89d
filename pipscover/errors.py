"""The one exception type pipscover raises for input a user can fix.

Readers, the model and the decoders raise `PipsError` with a message that names the file, the puzzle
and the problem; the command line alone turns it into one line on stderr and exit code 2.
"""

import math
import reprlib
from enum import StrEnum
from typing import NoReturn


class PipsError(Exception):
    """Bad input: a puzzle, solution or model file that cannot be used as given; the message says where and why.

    >>> from pipscover import parse
    >>> try:
    ...     parse('{"dominoes": [[1, 2]]}', "bad.json")
    ... except PipsError as error:
    ...     print(error)
    bad.json: the puzzle is blank or incomplete: it needs 'dominoes' and 'regions'
    """


class NoSolution(PipsError, ValueError):
    """A puzzle with no solution, given to what needs one (`sample`'s draws): a `PipsError` naming the puzzle,
    and a `ValueError` as `sample` first raised it, so that a script catches it by its meaning, not by a message.

    >>> from pipscover import parse, sample
    >>> [summed] = parse('{"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "sum", '
    ...                  '"target": 4}]}', "four.json")  # its one domino sums to 3
    >>> try:
    ...     sample(summed, 1)
    ... except NoSolution as error:
    ...     print(error)
    four.json: no solution to draw
    """


class Choice(StrEnum):
    """A name from a fixed set (a difficulty, what a count counts, a board's shape), each equal to its name; one
    that is none of them is a `PipsError` naming the choices, not the `ValueError` a plain enum raises.

    >>> class Colour(Choice):
    ...     RED = "red"
    ...     BLUE = "blue"
    >>> Colour("red") is Colour.RED, Colour.RED == "red"
    (True, True)
    >>> Colour("Red")
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: 'Red' is not a valid Colour; choose one of: red, blue
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        raise PipsError(f"{shown(value)} is not a valid {cls.__name__}; choose one of: {', '.join(cls)}")


def is_whole_number(value: object) -> bool:
    """Whether `value` is a whole number as an argument that counts or sizes something must be: an int (or
    anything `operator.index` takes), never a bool, a float or a string. The API's limits, sizes and memory caps
    ask it, so that 1.5 or True is refused in one message rather than failing deep inside.

    >>> [is_whole_number(value) for value in (3, 3.0, True, "3")]
    [True, False, False, False]
    """
    return not isinstance(value, bool) and hasattr(value, "__index__")


def is_written_whole_number(text: str) -> bool:
    """Whether `text` writes a whole number >= 0 in ASCII digits, as a file or an option given as text must:
    `str.isdigit` also takes '²' and '٣', which `int` then refuses or reads, and `int` takes '３' (fullwidth)
    and '1_000'. More than 4000 digits is refused as well: Python's `int` refuses them.

    >>> [is_written_whole_number(text) for text in ("42", "\uff14\uff12", "\u00b2", "1_000", "-1", " 4")]
    [True, False, False, False, False, False]
    """
    return len(text) <= 4000 and text.isascii() and text.isdigit()


def shown(value: object) -> str:
    """A value from the input as an error message quotes it: short, shallow, on one line.

    A hostile file can hold a string of megabytes or a list nested 100,000 deep; the message shows
    the start of it.

    >>> shown([[[[[[1]]]]]])
    '[[[[...]]]]'
    >>> len(shown("x" * 10**6))
    60
    """
    return " ".join(_REPR.repr(value).split())


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlist, _REPR.maxdict, _REPR.maxlong = 3, 60, 60, 6, 4, 40


def brief(value: object, longest: int = 40) -> str:
    """A refused value as the message quotes it: whole up to `longest` characters, else its ends and its length
    (a 4,000-digit --seed was quoted whole).

    >>> brief("9" * 4000)
    '999999999999999999...999999999999999999 (4000 characters)'
    """
    text = str(value)
    return text if len(text) <= longest else f"{text[:18]}...{text[-18:]} ({len(text)} characters)"


def counted(number: int, noun: str, plural: str = "") -> str:
    """A number of things as every count is written for people: `1 domino`, `1,500 dominoes` (`plural` where the
    noun does not take an s); a number past 10^18 as `more than 10^N`, read from its bits, since one of
    4,300 digits has no str().

    >>> counted(1, "puzzle"), counted(1500, "domino", "dominoes"), counted(3 * 10**30, "cell")
    ('1 puzzle', '1,500 dominoes', 'more than 10^30 cells')
    """
    written = f"{number:,}" if number < 10**18 else f"more than 10^{int((number.bit_length() - 1) * math.log10(2))}"
    return f"{written} {noun if number == 1 else plural or noun + 's'}"


def printable_path(path: object) -> str:
    """A file's name as outputs and messages show it: bytes that are not UTF-8 (a name written under another
    encoding, which Python keeps as lone surrogates) shown as U+FFFD, as `ls` shows them as `?`; written
    as they were, they ended every SVG, CNF and strict terminal that the name reached in a traceback.

    >>> import os
    >>> printable_path(os.fsdecode(b"caf\\xe9.txt"))
    'caf\ufffd.txt'
    """
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def on_one_line(text: str) -> str:
    """`text` with each character that a line cannot show (a line break, a tab, a right-to-left override) written
    as its escape, so that a file's name in a headline keeps it on one line, read in order.

    >>> print(on_one_line("two\\nlines\\u202e.txt"))
    two\\nlines\\u202e.txt
    """
    return "".join(each if each.isprintable() else each.encode("unicode_escape").decode("ascii") for each in text)
