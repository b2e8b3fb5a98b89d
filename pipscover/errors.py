"""The one exception type pipscover raises for input a user can fix.

Readers, the model and the decoders raise `PipsError` with a message that names the file, the puzzle
and the problem; the command line alone turns it into one line on stderr and exit code 2.
"""


class PipsError(Exception):
    """Bad input: a puzzle, solution or model file that cannot be used as given."""
