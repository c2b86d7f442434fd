"""Seat references in the engines' texts, and how a consumer puts names in their place.

Every engine writes a seat as ``P{n}`` (``"P2 plays the 8 of Earth"``, ``"P2が土の8を出した"``) in
``render``, ``describe_action`` and ``describe_event``. ``P{n}`` is a placeholder: a consumer that
knows the players' names puts them in with :func:`relabel` (the terminal) or the same rule in
JavaScript (``septet/web/names.js``). ``docs/events.md`` documents the convention.

English sentences are written so that a seat reference followed by a verb is the subject of the
sentence in the third person singular (``"P0 hits"``, ``"P0 is"``, ``"P0 has"``), and ``their`` /
``themselves`` only ever refer back to that subject. Because of that, :func:`relabel` can also
address the person at the screen as "you" (``"You hit"``, ``"your 5"``), which Japanese needs no
help for (``"あなたがヒットした"``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

SEAT_REF = re.compile(r"(?<![A-Za-z0-9_])P(\d{1,2})(?![0-9])")
"""A seat reference ``P{n}`` in an engine text (``n`` the seat, from 0)."""

_IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}
_SENTENCE_START = re.compile(r"(^[ \t▶•·*>]*|[.!?]\s+|\n[ \t▶•·*>]*|—\s+)$")


def seat_ref(seat: int) -> str:
    """The placeholder an engine text uses for ``seat``: ``"P2"``."""
    return f"P{seat}"


def _second_person(verb: str) -> str:
    """``"hits"`` → ``"hit"``, ``"passes"`` → ``"pass"``, ``"is"`` → ``"are"``; other words
    unchanged."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if not verb.isalpha() or not verb.islower() or not verb.endswith("s") or len(verb) < 3:
        return verb
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def relabel(
    text: str,
    names: Sequence[str],
    *,
    you: int | None = None,
    lang: str = "en",
) -> str:
    """``text`` with each ``P{n}`` (``n < len(names)``) replaced by ``names[n]``.

    Args:
        text: an engine text (a table, an action or an event line).
        names: a display name per seat.
        you: the seat of the person reading, named "you" in English: ``"P0 hits"`` →
            ``"You hit"``, ``"P1 steals P0's 5"`` → ``"Bob steals your 5"``, ``"P0 plays Flip 4!
            on themselves"`` → ``"You play Flip 4! on yourself"``. Japanese keeps
            ``names[you]`` (e.g. ``"あなた"``) as it is. ``None``: nobody is "you".
        lang: ``"en"`` or ``"ja"``.

    Returns:
        The text with names; a reference to a seat outside ``names`` stays as it is.
    """
    en_you = you is not None and lang != "ja" and 0 <= you < len(names)
    out: list[str] = []
    pos = 0
    subject_you = False
    for m in SEAT_REF.finditer(text):
        seat = int(m.group(1))
        if seat >= len(names):
            continue
        out.append(text[pos : m.start()])
        pos = m.end()
        if not (en_you and seat == you):
            out.append(names[seat])
            continue
        before = "".join(out)
        start = bool(_SENTENCE_START.search(before))
        rest = text[pos:]
        if rest.startswith("'s"):
            out.append("Your" if start else "your")
            pos += 2
            continue
        out.append("You" if start else "you")
        verb = re.match(r" ([a-z]+)\b", rest)
        if verb is not None:
            word = verb.group(1)
            new = _second_person(word)
            if new != word:
                out.append(" " + new)
                pos += verb.end()
                subject_you = True
    out.append(text[pos:])
    result = "".join(out)
    if subject_you:
        result = re.sub(r"\bthemselves\b", "yourself", result)
        result = re.sub(r"\btheir\b", "your", result)
    return result


__all__ = ["SEAT_REF", "relabel", "seat_ref"]
