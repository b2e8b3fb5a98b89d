"""The machine's processor slots (`pipscover.runtime.processors`): at most one sweep of a split count per
processor, whichever worker process runs it, and a slot freed when its holder dies."""

from __future__ import annotations

import subprocess
import sys
import threading
import uuid

import pytest

from pipscover.runtime.processors import free_slot, processor_slot

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="slots live in Linux's abstract namespace")


@pytest.fixture
def name() -> str:
    """Slots of this test alone, so that a split count elsewhere on the machine is no matter."""
    return f"pipscover-test-{uuid.uuid4().hex}"


def test_a_machine_has_as_many_slots_as_asked_and_a_closed_one_is_free_again(name):
    first, second = free_slot(2, name), free_slot(2, name)
    assert first is not None and second is not None
    assert free_slot(2, name) is None
    first.close()
    again = free_slot(2, name)
    assert again is not None
    again.close(), second.close()


def _holder(name: str) -> subprocess.Popen:
    """A process that holds the one slot named `name` (it has, once this returns) until it is killed."""
    program = ("import time\nfrom pipscover.runtime.processors import free_slot\n"
               f"held = free_slot(1, {name!r})\nprint(held is not None, flush=True)\ntime.sleep(600)")
    holder = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
    return holder


def test_a_process_killed_while_it_holds_a_slot_frees_it(name):
    holder = _holder(name)
    try:
        assert free_slot(1, name) is None
    finally:
        holder.kill()
        holder.wait()
    freed = free_slot(1, name)
    assert freed is not None
    freed.close()


def test_a_computation_waiting_for_a_slot_takes_it_when_its_holder_is_killed(name):
    holder, entered = _holder(name), threading.Event()

    def compute() -> None:
        with processor_slot(1, name):
            entered.set()

    waiting = threading.Thread(target=compute)
    waiting.start()
    try:
        assert not entered.wait(0.2)
    finally:
        holder.kill()
        holder.wait()
    waiting.join(30)
    assert entered.is_set()


def test_a_computation_waits_for_a_slot_and_takes_it_when_freed(name):
    entered = threading.Event()

    def compute() -> None:
        with processor_slot(1, name):
            entered.set()

    with processor_slot(1, name):
        waiting = threading.Thread(target=compute)
        waiting.start()
        assert not entered.wait(0.2)  # it cannot hold the one slot while this block does
    waiting.join(30)
    assert entered.is_set()
