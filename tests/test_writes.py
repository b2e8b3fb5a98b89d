"""Files written whole or not at all (`pipscover.runtime.writes`), and the writers that use it: outputs, the fetch
cache, sweep tables and plots."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from pipscover.errors import PipsError
from pipscover.runtime.writes import replacing, write_whole


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_file_gets_the_umasks_permissions_not_0600(tmp_path, umask_027):
    write_whole(tmp_path / "new.txt", "text\n")
    assert mode(tmp_path / "new.txt") == 0o640 and (tmp_path / "new.txt").read_text() == "text\n"


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    target = tmp_path / "kept.txt"
    target.write_text("old\n")
    os.chmod(target, 0o604)
    write_whole(target, "new\n")
    assert mode(target) == 0o604 and target.read_text() == "new\n"


def write_half_then_fail(target, failure: type[BaseException]) -> None:
    with replacing(target) as stream:
        stream.write("half of the new")
        raise failure


@pytest.mark.parametrize("failure", [ValueError, KeyboardInterrupt])
def test_a_failure_while_writing_leaves_the_old_file_and_no_temporary_one(tmp_path, failure):
    target = tmp_path / "table.csv"
    target.write_text("old\n")
    with pytest.raises(failure):
        write_half_then_fail(target, failure)
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["table.csv"]


def test_a_fifo_is_written_into_not_replaced(tmp_path):
    """As root, renaming the finished file over /dev/null replaced the device with a file (every command's
    output goes through `replacing`); a FIFO shows it safely."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    with replacing(fifo, binary=True) as stream:
        stream.write(b"through the pipe")
    reader.join(10)
    assert received == [b"through the pipe"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_dev_null_stays_a_device():
    write_whole(os.devnull, "nothing\n")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_plot_that_fails_to_draw_leaves_no_file(tmp_path):
    """Matplotlib refuses bad mathtext only while saving: the plot's hidden file went with it, not left behind."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from pipscover.sweep.plot import save

    figure = Figure()
    figure.add_subplot().set_title(r"$\notacommand$")
    with pytest.raises(ValueError, match="notacommand"):
        save(figure, tmp_path / "plot.png")
    assert list(tmp_path.iterdir()) == []


def test_a_table_rewrite_that_fails_leaves_the_table(tmp_path):
    from pipscover.sweep.table import ResultTable

    path = tmp_path / "rows.csv"
    path.write_text("file,status\na.json,solved\n")
    table = ResultTable(path, ["file", "status"], key=lambda row: row["file"])
    with pytest.raises(ValueError, match="not in fieldnames"):
        table._rewrite([{"file": "b.json", "status": "solved", "other": 1}])
    assert path.read_text() == "file,status\na.json,solved\n" and [p.name for p in tmp_path.iterdir()] == ["rows.csv"]


def test_an_output_into_a_missing_folder_is_one_line(tmp_path):
    from pipscover.cli.common import write_output

    with pytest.raises(PipsError, match=f"no such folder {tmp_path / 'missing'}$"):
        write_output(str(tmp_path / "missing" / "out.txt"), "text\n")
