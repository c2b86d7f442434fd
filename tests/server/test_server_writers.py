"""The store's writer threads (septet.server.store.Writers): order, errors, close."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from septet.server.store import Writers


def test_one_thread_runs_calls_in_the_order_made() -> None:
    """With one writer (SQLite's) the calls run one after the other, in the order made, on a
    thread that is not the event loop's; each caller gets its own call's result."""
    w = Writers(1)
    ran: list[int] = []
    threads: set[str] = set()

    def call(i: int) -> int:
        threads.add(threading.current_thread().name)
        time.sleep(0.001 if i % 3 else 0.004)  # uneven durations: order must still hold
        ran.append(i)
        return i * i

    async def main() -> list[int]:
        return list(await asyncio.gather(*(w.run(lambda i=i: call(i)) for i in range(40))))

    try:
        results = asyncio.run(main())
    finally:
        w.close()
    assert results == [i * i for i in range(40)]
    assert ran == list(range(40))
    assert threads == {"septet-db-0"}


def test_an_error_reaches_its_caller_only() -> None:
    """A call's exception is raised in the coroutine that awaited it, the same object; the next
    call still runs."""
    w = Writers(1)
    boom = ValueError("constraint failed")

    def fail() -> None:
        raise boom

    async def main() -> tuple[BaseException | None, int]:
        caught = None
        try:
            await w.run(fail)
        except ValueError as exc:
            caught = exc
        return caught, await w.run(lambda: 7)

    try:
        caught, after = asyncio.run(main())
    finally:
        w.close()
    assert caught is boom and after == 7


def test_close_runs_what_was_queued_then_refuses() -> None:
    """close() lets the queued calls finish (none is dropped), stops every thread, and a call
    after it is refused with RuntimeError; a cancelled caller does not stop the call."""
    w = Writers(3)
    done: list[int] = []
    gate = threading.Event()

    def slow(i: int) -> None:
        gate.wait(5)
        done.append(i)

    async def main() -> None:
        tasks = [asyncio.ensure_future(w.run(lambda i=i: slow(i))) for i in range(6)]
        await asyncio.sleep(0.05)
        tasks[0].cancel()  # its caller gives up; the write itself still happens
        gate.set()
        await asyncio.gather(*tasks[1:])

    asyncio.run(main())
    w.close()
    assert sorted(done) == list(range(6))
    assert not any(t.is_alive() for t in w._threads)
    w.close()  # again: nothing

    async def after() -> None:
        await w.run(lambda: None)

    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(after())
