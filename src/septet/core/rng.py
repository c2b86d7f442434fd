"""Seeded random number generators.

All randomness in Septet comes from ``random.Random`` objects derived from one integer seed, so a
game, a tournament or a search replays exactly. Streams are derived by name (string seeds are
hashed with SHA-512 by ``random.Random``), so adding a consumer never shifts another's stream.
"""

from __future__ import annotations

import random


def derive_rng(seed: int | str | None, *names: object) -> random.Random:
    """An independent ``random.Random`` for the stream ``names`` of ``seed``.

    ``derive_rng(7, "chance")`` and ``derive_rng(7, "seat", 2)`` never share a sequence; the same
    arguments always give the same sequence. ``seed=None`` gives a fresh, unseeded generator.
    """
    if seed is None:
        return random.Random()
    return random.Random(":".join(str(x) for x in (seed, *names)))
