"""bulk.Background: the writes a broker file's export runs beside the file, and what they raise."""
import threading

import pytest

from app.db import bulk


def test_the_work_runs_on_another_thread_and_join_waits_for_it():
    seen: list[str] = []
    release = threading.Event()

    def work() -> None:
        release.wait(5)
        seen.append(threading.current_thread().name)

    writer = bulk.Background(work)
    assert seen == []  # the caller goes on meanwhile
    release.set()
    writer.join()
    assert seen == ["bulk-writes"]


def test_what_the_work_raises_is_raised_by_join():
    def work() -> None:
        raise RuntimeError("the database refused the rows")

    writer = bulk.Background(work)
    with pytest.raises(RuntimeError, match="refused the rows"):
        writer.join()
