"""The shared rules test kit: generic invariants every game must satisfy.

Each game's tests call :func:`check_game` for each supported player count (and option set). It
plays seeded random games and checks, step by step (the costly checks on a sample of steps):

- every legal action applies; the list has no duplicates and no two actions lead to the same
  position with the same events (indistinguishable choices);
- ``str(action)`` round-trips through ``Game.action_from_str`` and ``Game.parse_action``; player
  actions round-trip through ``action_to_id``/``id_to_action`` with distinct ids in range;
- a sample of illegal actions (other ids of the fixed encoding, chance outcomes at a player node
  and player actions at a chance node) raises :class:`IllegalActionError` and leaves
  ``to_json()`` unchanged;
- chance probabilities are positive and sum to 1, with distinct outcomes;
- ``clone()`` is independent (applying to the clone leaves the original unchanged) and complete:
  every slot of the clone equals the original's and shares no mutable container with it
  (:func:`check_fields`); a State that declares ``FIELDS`` (:mod:`septet.core.fields`) declares
  every slot but the contract's own;
- ``to_json``/``from_json`` round-trips;
- ``view(seat)`` is JSON-serialisable and unchanged by ``determinize(seat)``, and the
  determinized state is playable to the end (no hidden information leaks; the determinization is
  consistent);
- where the game declares its observation (``Game.observation_spec``), every seat's
  ``observation_tensor`` lies within the declared bounds and is unchanged by
  ``determinize(seat)``;
- games end within ``max_game_length``; replaying the record gives an identical state;
- at the end, ``winners`` are seats, ``returns`` agree with ``winners``, and an optional
  ``score_oracle`` (the game's scoring rule recomputed independently) agrees with ``scores`` and
  ``winners``.

It raises :class:`KitFailure` (an ``AssertionError``) naming the check, the game, the seed and
the step.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from septet.core.errors import IllegalActionError
from septet.core.fields import shared_mutables
from septet.core.game import Action, Game, State
from septet.core.observation import ObservationSpec
from septet.core.record import GameRecord, replay
from septet.core.types import CHANCE, TERMINAL

ScoreOracle = Callable[[State], tuple[Sequence[float], Sequence[int]]]
"""Recomputes ``(scores, winners)`` of a terminal state from its fields, independently."""


class KitFailure(AssertionError):
    """A generic invariant broken by a game (the message says which, with game, seed and step)."""


@dataclass
class KitReport:
    """What :func:`check_game` did: counts for the test's own assertions and for logs."""

    games: int = 0
    steps: int = 0
    chance_steps: int = 0
    deep_checks: int = 0
    illegal_rejected: int = 0
    max_length: int = 0
    lengths: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)

    def add_game(self, length: int, winners: Sequence[int]) -> None:
        """Count one finished game of ``length`` steps won by ``winners`` (seats)."""
        self.games += 1
        self.steps += length
        self.lengths.append(length)
        self.max_length = max(self.max_length, length)
        for w in winners:
            self.wins[w] += 1


def kit_games(default: int) -> int:
    """The number of random games to play: ``SEPTET_KIT_GAMES`` if set (CI sets it), else
    ``default``."""
    value = os.environ.get("SEPTET_KIT_GAMES")
    return int(value) if value else default


def _fail(check: str, ctx: str, detail: str) -> KitFailure:
    return KitFailure(f"[{check}] {ctx}: {detail}")


def _dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _position(state: State) -> str:
    return json.dumps(state.state_dict(), sort_keys=True)


def check_game(
    game: Game[Any],
    num_players: int,
    num_games: int = 200,
    seed: int = 0,
    *,
    score_oracle: ScoreOracle | None = None,
    deep_check_rate: float = 0.05,
    illegal_samples: int = 4,
    policy: Callable[[State, random.Random], Action] | None = None,
) -> KitReport:
    """Play ``num_games`` seeded random games of ``game`` with ``num_players`` seats and check the
    invariants listed in the module docstring.

    Args:
        game: the game with its options.
        num_players: seats.
        num_games: games to play (game ``i`` uses seed ``(seed, i)``).
        seed: base seed.
        score_oracle: independent recomputation of ``(scores, winners)`` at the end.
        deep_check_rate: share of steps on which the costly checks run (clone, JSON round trip,
            determinize, distinct positions, illegal actions); the first step of a game always.
        illegal_samples: illegal actions tried per deep check.
        policy: chooses player actions (default uniform random); chance is always exact.

    Returns:
        A :class:`KitReport`.

    Raises:
        KitFailure: the first invariant broken.
    """
    report = KitReport(wins=[0] * num_players)
    for g in range(num_games):
        rng = random.Random(f"kit:{game.name}:{num_players}:{seed}:{g}")
        chooser: Chooser | None = None
        if policy is not None:

            def chooser(
                state: State,
                options: Sequence[Action],
                r: random.Random = rng,
                pol: Callable[[State, random.Random], Action] = policy,
            ) -> Action:
                return pol(state, r) if state.current_player >= 0 else state.sample_chance(r)

        check_one_game(
            game,
            num_players,
            rng,
            label=f"game={g} seed={seed}",
            report=report,
            score_oracle=score_oracle,
            deep_check_rate=deep_check_rate,
            illegal_samples=illegal_samples,
            choose=chooser,
        )
    return report


Chooser = Callable[[State, Sequence[Action]], Action]
"""Picks the next step: ``choose(state, options)`` with the legal actions at a player node or the
chance outcomes at a chance node (a hypothesis test draws from ``options``)."""


def check_one_game(
    game: Game[Any],
    num_players: int,
    rng: random.Random,
    *,
    label: str = "",
    report: KitReport | None = None,
    score_oracle: ScoreOracle | None = None,
    deep_check_rate: float = 0.05,
    illegal_samples: int = 4,
    choose: Chooser | None = None,
) -> State:
    """Play one game to the end with every check of :func:`check_game`; return the final state.

    Args:
        rng: drives the random choices and the sampling of deep checks.
        choose: picks each step (default: uniform over legal actions, exact chance). A hypothesis
            test passes ``lambda state, options: data.draw(st.sampled_from(options))`` so a
            failing game shrinks to a short one.
        label: names the game in failure messages.

    Raises:
        KitFailure: the first invariant broken.
    """
    if report is None:
        report = KitReport(wins=[0] * num_players)
    bound = game.max_game_length(num_players)
    n_ids = game.num_distinct_actions(num_players)
    state = game.new_state(num_players)
    seen_chance: list[Action] = []  # recent moves of each kind, tried where they are illegal
    seen_player: list[Action] = []
    step = 0
    while not state.is_terminal:
        ctx = f"{game!r} players={num_players} {label} step={step}"
        if step > bound:
            raise _fail("length", ctx, f"game longer than max_game_length={bound}")
        deep = step == 0 or rng.random() < deep_check_rate
        action = _choose_step(
            game, state, num_players, n_ids, rng, ctx, report, seen_chance, seen_player, choose
        )
        if deep:
            report.deep_checks += 1
            seen = (seen_chance, seen_player)
            report.illegal_rejected += _deep_checks(
                game, state, num_players, n_ids, rng, ctx, *seen, illegal_samples
            )
        try:
            events = state.apply(action)
        except IllegalActionError as exc:
            raise _fail("apply", ctx, f"legal action {action} was rejected: {exc}") from exc
        if not isinstance(events, list):
            raise _fail("events", ctx, "apply must return a list of events")
        step += 1
    _check_end(state, num_players, score_oracle, f"{game!r} players={num_players} {label} end")
    report.add_game(step, state.winners())
    return state


def _choose_step(
    game: Game[Any],
    state: State,
    num_players: int,
    n_ids: int,
    rng: random.Random,
    ctx: str,
    report: KitReport,
    seen_chance: list[Action],
    seen_player: list[Action],
    choose: Chooser | None,
) -> Action:
    """Check the node (chance or player) and pick the action to play from it."""
    player = state.current_player
    if player == CHANCE:
        seen_chance.append(_check_chance_node(state, ctx))
        report.chance_steps += 1
        if choose is None:
            return state.sample_chance(rng)
        return choose(state, [o for o, _ in state.chance_outcomes()])
    if not (0 <= player < num_players):
        raise _fail("current_player", ctx, f"bad current_player {player}")
    legal = _check_player_node(game, state, num_players, n_ids, ctx)
    seen_player.extend(legal[:2])
    return choose(state, legal) if choose else legal[rng.randrange(len(legal))]


def _check_end(state: State, num_players: int, score_oracle: ScoreOracle | None, ctx: str) -> None:
    """A finished game: terminal, no actions, a consistent result, and a record that replays."""
    if state.current_player != TERMINAL:
        raise _fail("terminal", ctx, "is_terminal but current_player is not TERMINAL")
    if state.legal_actions() or state.chance_outcomes():
        raise _fail("terminal", ctx, "a terminal state offers actions")
    _check_result(state, num_players, score_oracle, ctx)
    _check_replay(state, ctx)


def _check_chance_node(state: State, ctx: str) -> Action:
    if state.legal_actions():
        raise _fail("chance", ctx, "legal_actions() must be empty at a chance node")
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise _fail("chance", ctx, "a chance node without outcomes")
    total = 0.0
    for outcome, p in outcomes:
        if not (p > 0.0):
            raise _fail("chance", ctx, f"outcome {outcome} has probability {p}")
        total += p
    if not math.isclose(total, 1.0, rel_tol=1e-9, abs_tol=1e-9):
        raise _fail("chance", ctx, f"probabilities sum to {total}, not 1")
    if len({o for o, _ in outcomes}) != len(outcomes):
        raise _fail("chance", ctx, "duplicate chance outcomes")
    for outcome, _ in outcomes[:3]:
        _check_notation(state.game, state, outcome, ctx)
    return outcomes[0][0]


def _check_player_node(
    game: Game[Any], state: State, num_players: int, n_ids: int, ctx: str
) -> list[Action]:
    if state.chance_outcomes():
        raise _fail("player", ctx, "chance_outcomes() must be empty at a player node")
    legal = state.legal_actions()
    if not legal:
        raise _fail("player", ctx, "no legal action at a player node")
    if len(set(legal)) != len(legal):
        raise _fail("legal", ctx, f"duplicate legal actions: {legal}")
    ids = set()
    for a in legal:
        _check_notation(game, state, a, ctx)
        i = game.action_to_id(a, num_players)
        if not (0 <= i < n_ids):
            raise _fail("encoding", ctx, f"action_to_id({a}) = {i} outside range({n_ids})")
        if game.id_to_action(i, num_players) != a:
            raise _fail("encoding", ctx, f"id_to_action(action_to_id({a})) != {a}")
        ids.add(i)
    if len(ids) != len(legal):
        raise _fail("encoding", ctx, "two legal actions share an id")
    return legal


def _check_notation(game: Game[Any], state: State, action: Action, ctx: str) -> None:
    text = str(action)
    try:
        back = game.action_from_str(text)
    except IllegalActionError as exc:
        raise _fail("notation", ctx, f"action_from_str({text!r}) failed: {exc}") from exc
    if back != action:
        raise _fail("notation", ctx, f"action_from_str({text!r}) = {back!r}, not {action!r}")
    try:
        parsed = game.parse_action(state, text)
    except IllegalActionError as exc:
        raise _fail(
            "notation", ctx, f"parse_action({text!r}) rejected a legal action: {exc}"
        ) from exc
    if parsed != action:
        raise _fail("notation", ctx, f"parse_action({text!r}) = {parsed!r}, not {action!r}")


def _slots_of(cls: type) -> list[str]:
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return [n for n in names if n not in ("__weakref__", "__dict__")]


def check_fields(state: State, ctx: str = "") -> None:
    """Check that ``clone()`` copies every field and aliases none (issue 17: fields declared once).

    For each slot of the state's class: the clone's value equals the original's and shares no
    mutable container with it (:func:`septet.core.fields.shared_mutables`); ``to_json`` of the
    clone equals the original's. Where the class declares ``FIELDS`` (a tuple of
    :class:`septet.core.fields.Field`), every slot outside the contract's own (``game``,
    ``num_players``, ``history``) must be declared there.

    Raises:
        KitFailure: naming the check ``fields`` and the slot.
    """
    cls = type(state)
    slots = _slots_of(cls)
    declared = getattr(cls, "FIELDS", None)
    entries_shared = {f.name for f in declared or () if getattr(f, "shared_entries", False)}
    if declared is not None:
        names = {f.name for f in declared}
        own = {"game", "num_players", "history"}
        missing = [n for n in slots if n not in names and n not in own]
        if missing:
            raise _fail("fields", ctx, f"slots not declared in {cls.__name__}.FIELDS: {missing}")
    twin = state.clone()
    for name in slots:
        if name == "game":
            continue
        a = getattr(state, name, _UNSET)
        b = getattr(twin, name, _UNSET)
        if a is _UNSET and b is _UNSET:
            continue
        if b is _UNSET:
            raise _fail("fields", ctx, f"clone() does not set {name!r}")
        if a != b:
            raise _fail("fields", ctx, f"clone() changes {name!r}: {a!r} != {b!r}")
        if name in entries_shared:
            shared = [name] if a is b and isinstance(a, list) else []
        else:
            shared = shared_mutables(a, b, name)
        if shared:
            raise _fail("fields", ctx, f"clone() shares mutable {', '.join(shared[:3])}")
    if _dump(twin) != _dump(state):
        raise _fail("fields", ctx, "to_json() of the clone differs from the original's")


_UNSET = object()


def _deep_checks(
    game: Game[Any],
    state: State,
    num_players: int,
    n_ids: int,
    rng: random.Random,
    ctx: str,
    seen_chance: list[Action],
    seen_player: list[Action],
    illegal_samples: int,
) -> int:
    """All per-position checks in order (the rng draws in a fixed order); returns rejections."""
    before = _dump(state)
    if getattr(type(state), "FIELDS", None) is not None:
        check_fields(state, ctx)
    _check_json_round_trip(state, num_players, before, ctx)
    _check_determinize(game, state, num_players, rng, before, ctx)
    _check_clone(game, state, num_players, rng, before, ctx)
    _check_distinct_successors(state, rng, ctx)
    candidates = _illegal_candidates(
        game, state, num_players, n_ids, rng, seen_chance, seen_player, illegal_samples
    )
    return _check_illegal(state, candidates, before, ctx)


def _check_json_round_trip(state: State, num_players: int, before: str, ctx: str) -> None:
    """``from_json(to_json())`` gives the same position, actions, views and scores."""
    try:
        copy = State.from_json(json.loads(before))
    except Exception as exc:
        raise _fail("json", ctx, f"from_json(to_json()) failed: {exc!r}") from exc
    if _dump(copy) != before:
        raise _fail("json", ctx, "from_json(to_json()) differs from the original")
    if copy.current_player != state.current_player or copy.legal_actions() != state.legal_actions():
        raise _fail("json", ctx, "the restored state offers other actions")
    # A field that to_json forgets shows in what the restored state shows or scores.
    for viewer in [*range(num_players), None]:
        if copy.view(viewer) != state.view(viewer):
            raise _fail("json", ctx, f"the restored state shows seat {viewer} another view")
    if copy.scores() != state.scores():
        raise _fail("json", ctx, "the restored state has other scores")
    # Views are JSON.
    for viewer in [*range(num_players), None]:
        try:
            json.dumps(state.view(viewer))
        except TypeError as exc:
            raise _fail("view", ctx, f"view({viewer}) is not JSON-serialisable: {exc}") from exc


def _check_determinize(
    game: Game[Any], state: State, num_players: int, rng: random.Random, before: str, ctx: str
) -> None:
    """Determinize keeps each seat's view, observation and (to move) legal actions; it plays on."""
    try:
        spec: ObservationSpec | None = game.observation_spec(num_players)
    except NotImplementedError:
        spec = None
    for seat in range(num_players):
        view_text = json.dumps(state.view(seat), sort_keys=True)
        det = state.determinize(seat, random.Random(rng.random()))
        if _dump(state) != before:
            raise _fail("determinize", ctx, f"determinize({seat}) changed the state")
        if json.dumps(det.view(seat), sort_keys=True) != view_text:
            raise _fail(
                "determinize",
                ctx,
                f"view({seat}) differs after determinize({seat}): hidden "
                "information leaks into the view or the determinization is inconsistent",
            )
        if det.current_player != state.current_player:
            raise _fail("determinize", ctx, "determinized state has another player to move")
        if spec is not None:
            _check_observation(spec, state, det, seat, ctx)
        if state.current_player == seat and det.legal_actions() != state.legal_actions():
            raise _fail(
                "determinize",
                ctx,
                "the seat to move has other legal actions after "
                "determinize (its information set would differ)",
            )
    det = state.determinize(rng.randrange(num_players), random.Random(rng.random()))
    _playout(det, random.Random(rng.random()), game.max_game_length(num_players), ctx)


def _check_observation(
    spec: ObservationSpec, state: State, det: State, seat: int, ctx: str
) -> None:
    """The seat's observation is within its declared bounds and the same after determinize."""
    obs = state.observation_tensor(seat)
    bad = spec.out_of_bounds(obs)
    if bad:
        raise _fail(
            "observation",
            ctx,
            f"observation_tensor({seat}) outside its declared bounds: {', '.join(bad[:3])}",
        )
    if det.observation_tensor(seat) != obs:
        raise _fail(
            "observation",
            ctx,
            f"observation_tensor({seat}) differs after determinize({seat}): it holds "
            "something the seat cannot see",
        )


def _check_clone(
    game: Game[Any], state: State, num_players: int, rng: random.Random, before: str, ctx: str
) -> None:
    """A clone equals the original, and playing it out leaves the original unchanged."""
    clone = state.clone()
    if _dump(clone) != before:
        raise _fail("clone", ctx, "clone differs from the original")
    _playout(clone, random.Random(rng.random()), game.max_game_length(num_players), ctx)
    if _dump(state) != before:
        raise _fail("clone", ctx, "playing on a clone changed the original")


def _check_distinct_successors(state: State, rng: random.Random, ctx: str) -> None:
    """Distinct legal actions (a sample of 12) lead to distinct positions or events."""
    if state.current_player < 0:
        return
    legal = state.legal_actions()
    sample = legal if len(legal) <= 12 else rng.sample(legal, 12)
    positions: dict[tuple[str, str], Action] = {}
    for a in sample:
        c = state.clone()
        events = c.apply(a)
        # Indistinguishable = same position and same events: two choices that end in one
        # position but are told apart at the table (discarding one card or another just as
        # the round ends) are both real choices.
        key = (_position(c), json.dumps([e.to_json() for e in events], sort_keys=True))
        if key in positions:
            raise _fail(
                "legal", ctx, f"{positions[key]} and {a} lead to the same position and events"
            )
        positions[key] = a


def _illegal_candidates(
    game: Game[Any],
    state: State,
    num_players: int,
    n_ids: int,
    rng: random.Random,
    seen_chance: list[Action],
    seen_player: list[Action],
    illegal_samples: int,
) -> list[Action]:
    """Actions to try that are not legal here: random ids, and moves of the other node kind."""
    candidates: list[Action] = []
    if state.current_player == CHANCE:
        candidates.extend(seen_player[-illegal_samples:])
    else:
        legal_set = set(state.legal_actions())
        for _ in range(illegal_samples):
            a = game.id_to_action(rng.randrange(n_ids), num_players)
            if a not in legal_set:
                candidates.append(a)
        candidates.extend(c for c in seen_chance[-2:] if c not in legal_set)
    return candidates


def _check_illegal(state: State, candidates: list[Action], before: str, ctx: str) -> int:
    """Each candidate (not a chance outcome here) is rejected and changes nothing; the count."""
    rejected = 0
    outcomes = {o for o, _ in state.chance_outcomes()}
    for a in candidates:
        if a in outcomes:
            continue
        try:
            state.apply(a)
        except IllegalActionError:
            rejected += 1
        else:
            raise _fail(
                "illegal",
                ctx,
                f"apply accepted {a}, which is not in legal_actions() "
                "(a missing legal action, or apply does not validate)",
            )
        if _dump(state) != before:
            raise _fail("illegal", ctx, f"rejected action {a} changed the state")
    return rejected


def _playout(state: State, rng: random.Random, bound: int, ctx: str) -> None:
    steps = len(state.history)
    while not state.is_terminal:
        if steps > bound:
            raise _fail("length", ctx, f"playout longer than max_game_length={bound}")
        if state.current_player == CHANCE:
            a = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            if not legal:
                raise _fail("player", ctx, "no legal action at a player node (in a playout)")
            a = legal[rng.randrange(len(legal))]
        try:
            state.apply(a)
        except IllegalActionError as exc:
            raise _fail("apply", ctx, f"legal action {a} rejected in a playout: {exc}") from exc
        steps += 1


def _check_result(
    state: State, num_players: int, score_oracle: ScoreOracle | None, ctx: str
) -> None:
    scores = state.scores()
    winners = state.winners()
    if len(scores) != num_players:
        raise _fail("scores", ctx, f"{len(scores)} scores for {num_players} seats")
    if not winners or len(set(winners)) != len(winners):
        raise _fail("winners", ctx, f"bad winners {winners}")
    if any(not (0 <= w < num_players) for w in winners):
        raise _fail("winners", ctx, f"winners {winners} are not seats")
    returns = state.returns()
    if len(returns) != num_players:
        raise _fail("returns", ctx, "one return per seat expected")
    best = max(returns)
    if sorted(s for s in range(num_players) if returns[s] == best) != sorted(winners):
        raise _fail("returns", ctx, f"returns {returns} disagree with winners {winners}")
    if score_oracle is not None:
        want_scores, want_winners = score_oracle(state)
        if list(want_scores) != list(scores):
            raise _fail("oracle", ctx, f"scores {scores}, scoring rule gives {list(want_scores)}")
        if sorted(want_winners) != sorted(winners):
            raise _fail("oracle", ctx, f"winners {winners}, scoring rule gives {want_winners}")


def _check_replay(state: State, ctx: str) -> None:
    record = GameRecord.of(state)
    again = replay(GameRecord.from_json(json.dumps(record.to_json())))
    if _dump(again) != _dump(state):
        raise _fail("replay", ctx, "replaying the record gives another state")
