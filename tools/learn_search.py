"""Find the guided first games ("Learn to play" in the web lobby): for each game, a table seed
and a script of moves whose game shows every rule the tutorial promises, as it happens.

The game is played exactly as a server table plays it (:func:`septet.server.steps.advance`:
chance outcomes drawn from ``derive_rng(seed, "chance", index)``; bots asked from their seat's
view with ``derive_rng(seed, "seat", seat, version)``), so the same seed and the same moves give
the same game on the server. The bots play greedy; the newcomer's moves (seat 0) come from a
*teacher*: greedy, except that it picks a rule's move the first time one is legal (an exchange, a
clover retrieve, a Rainbow...) and, for a few of the candidates, a random hit or stay. Each
candidate seed is played out; the shortest game (fewest moves of the newcomer) that shows every
promised rule wins. Its script is written to ``src/septet/bots/data/scripts/learn-<game>.json``:

- ``seed``, ``game``, ``options``, ``num_players``, ``human`` (the newcomer's seat),
- ``human_moves``: version → the newcomer's move there,
- ``bots``: view key → move, for the scripted bots (``septet.bots.scripted``),
- ``steps``: ``[{"at": version, "lessons": [id, ...]}]``: where each lesson of
  ``septet.server.learn.LESSONS`` first applies (a decision's kind the first time the newcomer
  meets it, an event's kind the first time it happens),
- ``shows``: the promised rules, each with the version it happens at; ``end``: the last version.

Usage: ``python tools/learn_search.py [double-seven|flip7|seven-shot ...] [--tries N]``;
``--rekey`` keeps each game and keys its bots' moves by the views the engine gives now (run it
when a field is added to a view).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from septet import games
from septet.bots import make_agent
from septet.bots.scripted import view_key
from septet.core import Action, Event, Game, State
from septet.core.play import seat_view
from septet.core.rng import derive_rng
from septet.server.learn import LESSONS, MODIFIERS, TUTORIALS, decision_kind, event_lessons
from septet.server.steps import advance

HUMAN = 0
OUT = Path(__file__).resolve().parents[1] / "src" / "septet" / "bots" / "data" / "scripts"


@dataclass
class Played:
    """One candidate game: the newcomer's moves, the bots' scripted moves, the events, and the
    promised rules it showed (rule → version)."""

    seed: str
    human_moves: dict[int, str] = field(default_factory=dict)
    decisions: dict[int, str] = field(default_factory=dict)  # version -> decision kind
    bots: dict[str, str] = field(default_factory=dict)
    events: list[tuple[int, Event]] = field(default_factory=list)
    shows: dict[str, int] = field(default_factory=dict)
    end: int = 0
    finished: bool = False


# ----- the teachers -------------------------------------------------------------------------
def _prefer(legal: Sequence[Action], used: set[str], verbs: Sequence[str]) -> Action | None:
    for verb in verbs:
        if verb in used:
            continue
        for a in legal:
            if str(a).split(" ")[0] == verb:
                return a
    return None


def teach_double_seven(
    view: dict[str, Any], legal: Sequence[Action], used: set[str], rng: random.Random
) -> Action | None:
    """A rule's move the first time it is legal: retrieve, Rainbow, exchange, a face-up take."""
    return _prefer(legal, used, ("retrieve", "rainbow", "exchange", "take"))


def teach_flip7(
    view: dict[str, Any], legal: Sequence[Action], used: set[str], rng: random.Random
) -> Action | None:
    """Now and then a random hit or stay (so that seeds differ in how the newcomer plays)."""
    names = [str(a) for a in legal]
    if names == ["hit", "stay"] and rng.random() < 0.15:
        return legal[rng.randrange(2)]
    return None


def teach_seven_shot(
    view: dict[str, Any], legal: Sequence[Action], used: set[str], rng: random.Random
) -> Action | None:
    """Greedy throughout (the deal itself brings the rules)."""
    return None


TEACHERS: dict[str, Callable[..., Action | None]] = {
    "double-seven": teach_double_seven,
    "flip7": teach_flip7,
    "seven-shot": teach_seven_shot,
}


# ----- what a game shows --------------------------------------------------------------------
def shows_double_seven(p: Played) -> None:
    """Rules shown by the newcomer's own moves and events."""
    for v, kind in p.decisions.items():
        for verb in ("draw", "take", "start", "expand", "exchange", "retrieve"):
            if p.human_moves[v].split(" ")[0] == verb:
                p.shows.setdefault(verb, v)
        if kind == "rainbow_offer":
            p.shows.setdefault("rainbow_offer", v)
    for v, e in p.events:
        if e.seat == HUMAN and e.kind in ("seven", "rainbow", "clear"):
            p.shows.setdefault(e.kind, v)


def shows_flip7(p: Played) -> None:
    """hit, stay, bust, a modifier, an action with a target, Second Chance, Flip 7."""
    for v, kind in p.decisions.items():
        move = p.human_moves[v]
        if move in ("hit", "stay"):
            p.shows.setdefault(move, v)
        if kind.startswith("target"):
            p.shows.setdefault("target", v)
    for v, e in p.events:
        if e.seat == HUMAN and e.kind == "bust":
            p.shows.setdefault("bust", v)
        if e.seat == HUMAN and e.kind == "draw" and e.data.get("card") in MODIFIERS:
            p.shows.setdefault("modifier", v)
        if e.seat == HUMAN and e.kind == "second_chance":
            p.shows.setdefault("second_chance", v)
        if e.kind == "flip7":
            p.shows.setdefault("flip7", v)
            if e.seat == HUMAN:
                p.shows.setdefault("flip7_you", v)


def shows_seven_shot(p: Played) -> None:
    """The pass, follow suit, a void, trump, taking a 7, the deal's end."""
    for v, kind in p.decisions.items():
        if kind in ("pass", "follow", "void"):
            p.shows.setdefault(kind, v)
    for v, e in p.events:
        if e.kind == "trick_won" and e.data.get("how") == "trump":
            p.shows.setdefault("trump", v)
            if e.data.get("winner") == HUMAN:
                p.shows.setdefault("trump_you", v)
        if e.kind == "trick_won" and e.data.get("winner") == HUMAN and e.data.get("sevens"):
            p.shows.setdefault("seven", v)
        if e.kind == "deal_end":
            p.shows.setdefault("deal_end", v)


SHOWS: dict[str, Callable[[Played], None]] = {
    "double-seven": shows_double_seven,
    "flip7": shows_flip7,
    "seven-shot": shows_seven_shot,
}


# ----- playing one candidate -----------------------------------------------------------------
def play(game: Game[Any], n: int, seed: str, teacher_seed: int, limit: int) -> Played:
    """Play the candidate ``seed`` as a server table would, the newcomer taught by the game's
    teacher (``teacher_seed`` varies its random choices), for at most ``limit`` of its moves."""
    p = Played(seed)
    greedy = [make_agent("greedy", game) for _ in range(n)]
    teacher = TEACHERS[game.name]
    rng = random.Random(teacher_seed)
    used: set[str] = set()
    bots = [seat != HUMAN for seat in range(n)]
    done = advance(game.new_state(n), seed, bots)
    state: State = done.state
    p.events.extend(done.events)
    while not state.is_terminal and len(p.human_moves) < limit:
        seat = state.current_player
        version = len(state.history)
        view = seat_view(state, seat)
        legal = state.legal_actions()
        agent_rng = derive_rng(seed, "seat", seat, version)
        if seat == HUMAN:
            action = teacher(view, legal, used, rng) or greedy[seat].act(view, legal, agent_rng)
            p.human_moves[version] = str(action)
            p.decisions[version] = decision_kind(
                game.name, view, [str(a) for a in legal], str(action)
            )
            used.add(str(action).split(" ")[0])
        else:
            action = greedy[seat].act(view, legal, agent_rng)
            p.bots[view_key(view)] = str(action)
        done = advance(state, seed, bots, action, seat)
        state = done.state
        p.events.extend(done.events)
    p.end = len(state.history)
    p.finished = state.is_terminal
    SHOWS[game.name](p)
    return p


def steps_of(game_name: str, p: Played) -> list[dict[str, Any]]:
    """Where each lesson first applies: a decision's kind (``move:<kind>``) the first time the
    newcomer meets it, an event's lesson (``septet.server.learn.event_lessons``: the most
    particular one not yet shown) the first time it happens; only lessons that have texts."""
    texts = LESSONS[game_name]
    seen: set[str] = set()
    at: dict[int, list[str]] = {}

    def add(version: int, lesson: str) -> None:
        if lesson in texts and lesson not in seen:
            seen.add(lesson)
            at.setdefault(version, []).append(lesson)

    add(0, "welcome")
    items: list[tuple[int, int, list[str]]] = [
        (v, 1, [f"move:{k}"]) for v, k in p.decisions.items()
    ]
    for v, e in p.events:
        items.append((v, 0, event_lessons(game_name, e.kind, e.seat, e.data, HUMAN)))
    for v, _, ids in sorted(items, key=lambda x: (x[0], x[1])):
        fresh = [x for x in ids if x in texts and x not in seen]
        if fresh:
            add(v, fresh[0])
    return [{"at": v, "lessons": ids} for v, ids in sorted(at.items())]


def search(name: str, tries: int) -> Played | None:
    """The best of ``tries`` candidates for the tutorial of ``name``: every promised rule shown,
    the game finished, the fewest moves of the newcomer."""
    spec = TUTORIALS[name]
    game = games.get(name, **spec["options"])
    best: Played | None = None
    best_bonus = 0
    for i in range(tries):
        p = play(game, spec["players"], f"learn-{name}-{i}", i, spec["max_moves"])
        if not p.finished or any(rule not in p.shows for rule in spec["promises"]):
            continue
        bonus = sum(rule in p.shows for rule in spec.get("bonus", ()))
        key = (len(p.human_moves) - 15 * bonus,)
        if best is None or key < (len(best.human_moves) - 15 * best_bonus,):
            best, best_bonus = p, bonus
    return best


def write(name: str, p: Played) -> Path:
    """Write the script of ``p`` for the tutorial of ``name``; returns its path."""
    spec = TUTORIALS[name]
    data = {
        "game": name,
        "options": spec["options"],
        "num_players": spec["players"],
        "human": HUMAN,
        "seed": p.seed,
        "end": p.end,
        "shows": dict(sorted(p.shows.items(), key=lambda kv: kv[1])),
        "human_moves": {str(v): m for v, m in sorted(p.human_moves.items())},
        "steps": steps_of(name, p),
        "bots": dict(sorted(p.bots.items())),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"learn-{name}.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def rekey(name: str) -> Path:
    """Write ``name``'s script again for the engine as it is now, the game unchanged: its seed
    and newcomer's moves replayed with the greedy bots the search played them with, each bot
    decision keyed by the view the engine now gives (a field added to a view changes every key;
    the moves stay the same).

    Raises:
        SystemExit: the recorded game no longer plays the same (a recorded move is illegal, it
            ends at another version, or a promised rule is no longer shown): search again.
    """
    old = json.loads((OUT / f"learn-{name}.json").read_text(encoding="utf-8"))
    spec = TUTORIALS[name]
    game = games.get(name, **spec["options"])
    n, seed = spec["players"], old["seed"]
    moves = {int(v): m for v, m in old["human_moves"].items()}
    p = Played(seed)
    greedy = [make_agent("greedy", game) for _ in range(n)]
    bots = [seat != HUMAN for seat in range(n)]
    done = advance(game.new_state(n), seed, bots)
    state: State = done.state
    p.events.extend(done.events)
    while not state.is_terminal:
        seat, version = state.current_player, len(state.history)
        view = seat_view(state, seat)
        legal = state.legal_actions()
        if seat == HUMAN:
            action = next((a for a in legal if str(a) == moves.get(version)), None)
            if action is None:
                raise SystemExit(f"{name}: the newcomer's move at {version} is no longer legal")
            p.human_moves[version] = str(action)
            p.decisions[version] = decision_kind(
                game.name, view, [str(a) for a in legal], str(action)
            )
        else:
            action = greedy[seat].act(view, legal, derive_rng(seed, "seat", seat, version))
            p.bots[view_key(view)] = str(action)
        done = advance(state, seed, bots, action, seat)
        state = done.state
        p.events.extend(done.events)
    p.end, p.finished = len(state.history), state.is_terminal
    SHOWS[game.name](p)
    if p.end != old["end"] or p.human_moves.keys() != moves.keys() or p.shows != old["shows"]:
        raise SystemExit(f"{name}: the recorded game plays differently now: search again")
    return write(name, p)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(TUTORIALS))
    parser.add_argument("--tries", type=int, default=200)
    parser.add_argument(
        "--rekey",
        action="store_true",
        help="keep each game, key its bots' moves by the views of today's engine",
    )
    args = parser.parse_args(argv)
    for name in args.games:
        if args.rekey:
            print(f"{name}: rekeyed -> {rekey(name)}")
            continue
        best = search(name, args.tries)
        if best is None:
            print(f"{name}: no candidate of {args.tries} shows every rule", file=sys.stderr)
            return 1
        path = write(name, best)
        print(f"{name}: {best.seed}, {len(best.human_moves)} moves, shows {best.shows} -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
