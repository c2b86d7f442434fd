"""The one clock by which every deadline is decided (DESIGN.md, "Players and time").

A deadline is written, compared and swept with :meth:`Clock.now` only, so a test moves the
clock instead of sleeping for hours:

- :class:`SystemClock`: the real time (the default).
- :class:`ManualClock`: a clock a test in the same process moves by hand.
- :class:`OffsetFileClock`: the real time plus an offset in seconds read from a file. **Test
  only**: ``SEPTET_TEST_CLOCK_FILE=/path`` makes ``septet serve`` and ``septet bots`` use it,
  so a test can move the clock of several processes at once by rewriting the file. No site
  should set it.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Protocol

ENV_CLOCK_FILE = "SEPTET_TEST_CLOCK_FILE"
"""Test only: a file holding the seconds to add to the real time (see :class:`OffsetFileClock`)."""


class Clock(Protocol):
    """What decides deadlines: ``now()``, timezone-aware UTC."""

    def now(self) -> datetime:
        """The current time (timezone-aware UTC)."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        """The current time (timezone-aware UTC)."""
        return datetime.now(UTC)


class ManualClock:
    """A clock moved by hand (tests in one process).

    Args:
        start: the time to start at (default: the real time now).
    """

    def __init__(self, start: datetime | None = None) -> None:
        self.at = start or datetime.now(UTC)

    def now(self) -> datetime:
        """The clock's time."""
        return self.at

    def advance(self, hours: float = 0.0, seconds: float = 0.0) -> None:
        """Move the clock forward by ``hours`` and ``seconds``."""
        self.at += timedelta(hours=hours, seconds=seconds)


class OffsetFileClock:
    """The real time plus the number of seconds written in ``path`` (a missing or unreadable
    file counts as 0). **Test only** (see the module's description).

    Args:
        path: the offset file (text: a number of seconds, e.g. ``86400``).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def offset(self) -> float:
        """The offset in seconds now in the file (0 when missing or not a number)."""
        try:
            return float(self.path.read_text().strip() or 0)
        except (OSError, ValueError):
            return 0.0

    def now(self) -> datetime:
        """The real time moved by the file's offset."""
        return datetime.now(UTC) + timedelta(seconds=self.offset())

    @staticmethod
    def write(path: str | os.PathLike[str], seconds: float) -> None:
        """Set the offset of every clock reading ``path`` (atomically: a reader never sees
        half a number)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(f"{seconds}\n")
        tmp.replace(target)


def clock_from_env() -> Clock:
    """:class:`OffsetFileClock` when ``$SEPTET_TEST_CLOCK_FILE`` is set (tests only), else
    :class:`SystemClock`."""
    path = os.environ.get(ENV_CLOCK_FILE, "").strip()
    return OffsetFileClock(path) if path else SystemClock()
