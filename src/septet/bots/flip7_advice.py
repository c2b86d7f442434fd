"""The Flip 7 advice of ``septet advise flip7``, as a function: one programme for the command
and the odds page (``/score/flip7/odds``).

:func:`build_position` reads a row and the cards seen into your row and the pool left;
:func:`advise_position` runs the exact expected-value programme of :mod:`.flip7_ev` within a
position budget (:data:`ADVISE_MAX_STATES`, under a second), then the bot's reduced model, then
the one-step lower bound, and says which one answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from septet.bots.flip7_ev import (
    Advice,
    BudgetExceeded,
    EVSolver,
    Row,
    advise,
    advise_lower_bound,
    check_row_open,
    fresh_pool,
    reduced_pool,
    row_from_tokens,
)
from septet.core.errors import SeptetError
from septet.games.flip7 import cards as C

ADVISE_MAX_STATES = 20_000
"""Positions the exact programme may visit for one piece of advice (under a second); beyond it
the advice uses :func:`septet.bots.flip7_ev.reduced_pool` (ten times the budget), then the
one-step lower bound."""

Method = Literal["exact", "reduced", "lower_bound"]


class AdviceInputError(SeptetError, ValueError):
    """A card list that cannot be read or that uses more copies than the deck has."""


def _tokens(text: str | Sequence[str]) -> list[str]:
    if isinstance(text, str):
        return [t for t in text.replace(",", " ").split() if t]
    return [str(t).strip() for t in text if str(t).strip()]


def build_position(
    edition: str,
    row: str | Sequence[str],
    seen: str | Sequence[str],
    opponents: Sequence[str | Sequence[str]] = (),
    decks: int = 1,
) -> tuple[list[str], tuple[int, ...]]:
    """Your row's tokens and the pool left (``decks`` fresh decks of ``edition`` shuffled
    together, less every card listed).

    Args:
        row: your row (``"12 9 5 -4"`` or a list of tokens).
        seen: other cards seen since the last shuffle (discards, busted rows).
        opponents: other players' rows.
        decks: 1 or 2 (F7V-1.5, the game's option ``decks``).

    Raises:
        AdviceInputError: an unknown card, more copies of a card than the deck holds, or a row
            that has already busted or made Flip 7.
    """
    if edition not in ("classic", "vengeance"):
        raise AdviceInputError(f"edition must be classic or vengeance, not {edition!r}")
    if decks not in (1, 2) or isinstance(decks, bool):
        raise AdviceInputError(f"decks must be 1 or 2, not {decks!r}")
    full = fresh_pool(edition, decks=decks)
    pool = list(full)
    mine = [t.lower() for t in _tokens(row)]
    for where, text in [("row", row), ("seen", seen), *(("opponent", o) for o in opponents)]:
        for tok in _tokens(text):
            kind = C.KIND_OF_TOKEN.get(tok.lower())
            if kind is None:
                raise AdviceInputError(
                    f"{where}: {tok!r} is not a card; cards are: {', '.join(C.TOKENS)}"
                )
            if pool[kind] == 0:
                raise AdviceInputError(
                    f"{where}: one {tok!r} too many: the {edition} deck"
                    f"{'s have' if decks > 1 else ' has'} {full[kind]} of them"
                )
            pool[kind] -= 1
    try:
        check_row_open(mine, edition)
    except ValueError as exc:
        raise AdviceInputError(f"row: {exc}") from None
    return mine, tuple(pool)


def _solver(edition: str, mode: str, max_states: int, pool: Sequence[int]) -> EVSolver:
    """The programme's solver: compiled when numba is installed (the same numbers,
    :mod:`septet.bots.flip7_ev_fast`), else the Python one. A pool of two decks (more copies
    of a card than one deck has, F7V-1.5) goes to the Python solver, which knows that a second
    Zero busts; the compiled programme models one deck."""
    from septet.bots.flip7_ev_fast import ev_solver

    if any(n > one for n, one in zip(pool, fresh_pool(edition), strict=True)):
        return EVSolver(edition, mode, max_states=max_states)
    return ev_solver(edition, mode, max_states=max_states)


def advise_position(
    edition: str, row: Sequence[str], pool: Sequence[int], alone: bool = False
) -> tuple[Advice, Method]:
    """The advice for your row (tokens) and the pool left, and which model gave it.

    The rule (the command's, and the odds page's): the exact programme if it visits at most
    :data:`ADVISE_MAX_STATES` positions; else the reduced model (the deck without modifier and
    action cards other than Freeze and Second Chance, as the flip7-ev bot does) within ten times
    that; else the one-step lower bound.

    It is computed in an order that wastes less. With others in a Vengeance round both models
    are the same problem, so one solver goes on past the first budget; alone in a Vengeance
    round, in the rule's order. In the classic edition the reduced model comes first, within the
    same budget. Its positions map one-to-one onto positions of
    the exact programme (the same draws with the left-out cards still in the deck; the programme
    prunes nothing), so when it does not fit, the exact programme cannot either and is not
    tried; the reduced solver then goes on within the larger budget, keeping what it computed
    (its memo), and visits the same positions as a fresh one would. The answers are those of
    trying the exact programme first.

    Args:
        alone: every other player has busted: the cards you draw are all yours (``single``
            mode of :class:`~septet.bots.flip7_ev.EVSolver`; else ``table``).

    Returns:
        ``(advice, method)``: ``"exact"``, ``"reduced"`` or ``"lower_bound"``. The chance that
        the next card busts you and the score of staying need no search: they are read from
        the real pool whichever model answered (issue 25: the reduced model's pool has fewer
        cards, so its bust chance was not the table's).
    """
    mode = "single" if alone else "table"
    position = row_from_tokens(row, edition)
    if edition == "vengeance" and not alone:
        advice, method = _advise_vengeance_table(position, pool)
    elif edition == "vengeance":
        advice, method = advise_position_plain(edition, row, pool, alone)
    else:
        advice, method = _advise_classic(position, pool, mode)
    return _exact_figures(advice, EVSolver(edition, mode), position, pool), method


def _exact_figures(advice: Advice, solver: EVSolver, position: Row, pool: Sequence[int]) -> Advice:
    """``advice`` with the bust chance of the next card taken from the real ``pool``
    (F7V-2, F7V-6.3, F7V-9), not from the pool a model solved."""
    return replace(advice, bust_probability=solver.bust_probability(position, pool))


def _advise_vengeance_table(position: Row, pool: Sequence[int]) -> tuple[Advice, Method]:
    """:func:`advise_position` in a Vengeance round with others in it.

    The programme gives away every Vengeance modifier and action you draw (flip7_ev's table
    mode drops them from the pool): the reduced model is the same problem. One solver, its
    budget raised on the way, keeps what it computed.
    """
    solver = _solver("vengeance", "table", ADVISE_MAX_STATES, pool)
    try:
        return advise(solver, position, pool), "exact"
    except BudgetExceeded:
        solver.max_states = 10 * ADVISE_MAX_STATES
    try:
        return advise(solver, position, reduced_pool(pool)), "reduced"
    except BudgetExceeded:
        return advise_lower_bound(EVSolver("vengeance", "table"), position, pool), "lower_bound"


def _advise_classic(position: Row, pool: Sequence[int], mode: str) -> tuple[Advice, Method]:
    """:func:`advise_position` in the classic edition: the reduced model first (when it does
    not fit, the exact programme cannot either), then the exact one within the same budget."""
    small = reduced_pool(pool)
    reduced = _solver("classic", mode, ADVISE_MAX_STATES, pool)
    try:
        fits: Advice | None = advise(reduced, position, small)
    except BudgetExceeded:
        fits = None
    if fits is not None:
        try:
            exact = _solver("classic", mode, ADVISE_MAX_STATES, pool)
            return advise(exact, position, pool), "exact"
        except BudgetExceeded:
            return fits, "reduced"
    reduced.max_states = 10 * ADVISE_MAX_STATES
    try:
        return advise(reduced, position, small), "reduced"
    except BudgetExceeded:
        return advise_lower_bound(EVSolver("classic", mode), position, pool), "lower_bound"


def advise_position_plain(
    edition: str, row: Sequence[str], pool: Sequence[int], alone: bool = False
) -> tuple[Advice, Method]:
    """:func:`advise_position` computed in the rule's own order (the exact programme first):
    the reference the tests and the benchmark compare it with."""
    mode = "single" if alone else "table"
    position = row_from_tokens(row, edition)
    try:
        exact = _solver(edition, mode, ADVISE_MAX_STATES, pool)
        return advise(exact, position, pool), "exact"
    except BudgetExceeded:
        pass
    advice: Advice
    method: Method
    try:
        reduced = _solver(edition, mode, 10 * ADVISE_MAX_STATES, pool)
        advice, method = advise(reduced, position, reduced_pool(pool)), "reduced"
    except BudgetExceeded:
        advice, method = advise_lower_bound(EVSolver(edition, mode), position, pool), "lower_bound"
    return _exact_figures(advice, EVSolver(edition, mode), position, pool), method


__all__ = [
    "ADVISE_MAX_STATES",
    "AdviceInputError",
    "advise_position",
    "advise_position_plain",
    "build_position",
]
