"""Learn to play: each guided first game, played as a server table plays it (the tutorial's
seed, the scripted bots, the newcomer's scripted moves), reaches every rule it promises, and
the API opens (and resumes) the tutorial table."""

from __future__ import annotations

import queue
from typing import Any

import pytest

from septet import games
from septet.bots import make_agent
from septet.bots.scripted import ScriptedAgent, view_key
from septet.core import Event
from septet.core.play import seat_view
from septet.core.rng import derive_rng
from septet.server.learn import LESSONS, TUTORIALS, bot_spec, lesson_payload, tutorial
from septet.server.steps import advance
from tests.server.conftest import new_guest
from tests.server.server_clients import WsClient


def play_tutorial(name: str) -> tuple[list[tuple[int, Event]], dict[int, dict[str, Any]], Any]:
    """Play ``name``'s tutorial through :func:`advance` with its scripted bots: the events with
    their versions, the newcomer's view at each of its decisions, and the final state."""
    data = tutorial(name)
    game = games.get(name, **data["options"])
    n, human, seed = data["num_players"], data["human"], data["seed"]
    agents = [make_agent(bot_spec(name), game) for _ in range(n)]
    flags = [seat != human for seat in range(n)]
    done = advance(game.new_state(n), seed, flags)
    state, events = done.state, list(done.events)
    views: dict[int, dict[str, Any]] = {}
    moves = {int(v): m for v, m in data["human_moves"].items()}
    while not state.is_terminal:
        seat, version = state.current_player, len(state.history)
        legal = state.legal_actions()
        view = seat_view(state, seat)
        if seat == human:
            views[version] = dict(view)
            action = next(a for a in legal if str(a) == moves[version])
        else:
            agent = agents[seat]
            assert isinstance(agent, ScriptedAgent)
            assert agent.scripted(view, legal) is not None, f"bot off script at {version}"
            action = agent.act(view, legal, derive_rng(seed, "seat", seat, version))
        done = advance(state, seed, flags, action, seat)
        state = done.state
        events.extend(done.events)
    assert sorted(views) == sorted(moves)  # the newcomer made exactly the scripted moves
    assert len(state.history) == data["end"]
    return events, views, state


def kinds(events: list[tuple[int, Event]], seat: int | None = None) -> set[str]:
    return {e.kind for _, e in events if seat is None or e.seat == seat}


def test_learn_double_seven_shows_every_rule() -> None:
    events, _, state = play_tutorial("double-seven")
    mine = kinds(events, 0)
    # DS-4.1 draws (face down and face up), DS-5.1 start, DS-5.3 expand and Seven!, DS-5.4
    # exchange, DS-5.5 clover retrieve, DS-4.3 Rainbow, DS-6.1 Clear!: all the newcomer's own
    assert {"draw", "take", "start", "expand", "seven", "exchange", "retrieve"} <= mine
    assert {"rainbow", "clear"} <= mine
    assert "double_seven" in kinds(events)  # DS-5.3 / DS-7.1: the end is triggered
    assert state.is_terminal


def test_learn_flip7_shows_every_rule() -> None:
    events, views, state = play_tutorial("flip7")
    mine = kinds(events, 0)
    assert {"hit", "stay", "bust", "second_chance"} <= mine  # F7V-2, F7V-9 Second Chance
    assert "flip7" in kinds(events)  # F7V-7.2: the Flip 7 bonus
    modifiers = {"+2", "+4", "+6", "+8", "+10", "x2"}
    assert any(e.kind == "draw" and e.seat == 0 and e.data["card"] in modifiers for _, e in events)
    # F7V-4.1: the newcomer chooses the target of an action card (Freeze, Flip Three)
    targets = [v["decision"]["card"] for v in views.values() if v["decision"]["kind"] == "target"]
    assert {"freeze", "flip3"} <= set(targets)
    assert state.is_terminal and max(state.scores()) >= 100  # F7V-3.7 at the tutorial's target


def test_learn_seven_shot_shows_every_rule() -> None:
    events, views, state = play_tutorial("seven-shot")
    assert sum(e.kind == "pass_chosen" and e.seat == 0 for _, e in events) == 3  # SS-5.2
    follow = [
        v for v in views.values()
        if v["led_suit"] and any(c[0] != v["led_suit"] for c in v["hand"])
        and any(c[0] == v["led_suit"] for c in v["hand"])
    ]  # fmt: skip
    void = [
        v for v in views.values() if v["led_suit"] and all(c[0] != v["led_suit"] for c in v["hand"])
    ]
    assert follow and void  # SS-3.1: must follow suit with it in hand, any card without
    won = [e.data for _, e in events if e.kind == "trick_won"]
    assert any(d["how"] == "trump" for d in won)  # SS-3.2 trump wins
    assert any(d["winner"] == 0 and d["sevens"] for d in won)  # the newcomer takes a 7
    assert "deal_end" in kinds(events)  # SS-4 / SS-5.4 the deal's points
    assert state.is_terminal


@pytest.mark.parametrize("name", list(TUTORIALS))
def test_learn_steps_have_texts_in_both_languages(name: str) -> None:
    data = tutorial(name)
    payload = lesson_payload(name)
    assert payload["steps"][0]["at"] == 0 and payload["moves"] == data["human_moves"]
    for step in data["steps"]:
        for lesson in step["lessons"]:
            text = LESSONS[name][lesson]
            assert text["en"] and text["ja"] and "P0" not in text["en"] + text["ja"]
    # every scripted bot move is keyed by a view: 16 hex digits
    assert all(len(k) == 16 and int(k, 16) >= 0 for k in data["bots"])
    assert len(payload["easy"]["seats"]) == data["num_players"]


def test_learn_scripted_agent_falls_back_off_script() -> None:
    game = games.get("flip7")
    state = game.new_state(3)
    rng = derive_rng("x", "chance")
    while state.current_player < 0:
        state.apply(state.sample_chance(rng))
    view = seat_view(state, state.current_player)
    legal = state.legal_actions()
    agent = ScriptedAgent(game, {view_key(view): "stay"})
    assert str(agent.act(view, legal, derive_rng("x", "seat"))) == "stay"
    assert agent.off_script == 0
    other = ScriptedAgent(game, {view_key(view): "no such move"})
    assert other.act(view, legal, derive_rng("x", "seat")) in legal  # greedy instead
    assert other.off_script == 1


def test_learn_api_opens_resumes_and_plays(client: Any) -> None:
    assert [g["game"] for g in client.get("/api/learn").json()["games"]] == list(TUTORIALS)
    r = client.get("/api/learn/chess")
    assert r.status_code == 404 and r.json()["error"] == "no_tutorial"
    assert "ガイド付きゲーム" in r.json()["message_ja"]
    cookie = new_guest(client, "Aki")
    headers = {"cookie": cookie}
    assert client.post("/api/learn/chess", headers=headers).status_code == 404
    first = client.post("/api/learn/seven-shot", headers=headers).json()
    assert first["resumed"] is False and first["status"] == "playing"
    assert [s["bot"] for s in first["seats"]] == [None] + [bot_spec("seven-shot")] * 2
    again = client.post("/api/learn/seven-shot", headers=headers).json()
    assert again["id"] == first["id"] and again["resumed"] is True
    # The newcomer plays the scripted moves over the WebSocket; the bots keep to the script.
    moves = tutorial("seven-shot")["human_moves"]
    inbox: queue.Queue[Any] = queue.Queue()
    ws = WsClient(client, first["id"], cookie, inbox, "aki")
    final = None
    while final is None:
        _, msg = inbox.get(timeout=60)
        assert msg is not None and msg["type"] != "error", msg
        if msg["type"] != "state":
            continue
        if msg["table"]["status"] == "finished":
            final = msg
        elif msg["legal"]:
            assert str(msg["version"]) in moves, msg["version"]
            ws.send(
                {"type": "move", "version": msg["version"], "action": moves[str(msg["version"])]}
            )
    assert final["version"] == tutorial("seven-shot")["end"]
    ws.close()
