"""Bot moves in worker processes: the pool's move is the agent's own, a bot out of time or
whose worker dies gets the fallback move, and the pool recovers."""

from __future__ import annotations

import asyncio
import time

import pytest

from septet import games
from septet.bots import make_agent
from septet.core.play import seat_view
from septet.core.rng import derive_rng
from septet.server.botpool import BotJob, BotPool, compute_move, fallback_move

pytestmark = pytest.mark.timeout(120)


def _job(spec: str, game: str = "flip7", n: int = 2) -> BotJob:
    """A bot turn some steps into a game (chance outcomes drawn from a fixed seed)."""
    g = games.get(game)
    state = g.new_state(n)
    moves: list[str] = []
    i = 0
    while len(moves) < (12 if game == "flip7" else 3) or state.current_player < 0:
        if state.is_chance_node:
            a = state.sample_chance(derive_rng("s", "chance", i))
        else:
            a = state.legal_actions()[0]
        state.apply(a)
        moves.append(str(a))
        i += 1
    return BotJob("t1", game, {}, n, tuple(moves), state.current_player, spec, "seed")


def test_server_compute_move_is_the_agents_move() -> None:
    job = _job("greedy")
    g = games.get("flip7")
    state = g.new_state(2)
    for text in job.moves:
        state.apply(g.parse_action(state, text))
    agent = make_agent("greedy", g)
    rng = derive_rng(job.seed, "seat", job.seat, job.version)
    want = str(agent.act(seat_view(state, job.seat), state.legal_actions(), rng))
    assert compute_move(job) == want
    # a worker's cached state moves on by the new steps only, and gives the same answers
    assert compute_move(job) == want
    fb = fallback_move(job)
    assert fb in [str(a) for a in state.legal_actions()] and fallback_move(job, state) == fb


def test_server_pool_moves_times_out_and_survives_a_dead_worker() -> None:
    pool = BotPool(1)

    async def run() -> None:
        ok = await pool.choose(_job("greedy"), budget=60)
        assert ok == compute_move(_job("greedy"))
        tiny = _job("test-sleep", game="tiny-sevens")
        start = time.monotonic()
        assert await pool.choose(tiny, budget=0.5) is None  # out of time
        assert time.monotonic() - start < 5
        pool.shutdown()  # the sleeping worker is let go with the pool
        assert await pool.choose(_job("test-crash", game="tiny-sevens"), budget=60) is None
        again = await pool.choose(_job("random", game="tiny-sevens"), budget=60)
        assert again in ("add 1", "add 2", "add 3")  # a new pool took over

    try:
        asyncio.run(run())
    finally:
        pool.shutdown()


def test_server_worker_takes_only_the_new_steps() -> None:
    from septet.server.botpool import NeedRecord

    job = _job("greedy")
    fresh = BotJob("t-delta", job.game, job.options, job.num_players, job.moves, job.seat,
                   job.spec, job.seed)  # fmt: skip
    with pytest.raises(NeedRecord):  # a part of the record this worker never saw
        compute_move(fresh.since(5))
    want = compute_move(fresh)  # the whole record: kept
    # the same table later: only the steps after what the worker saw travel
    g = games.get("flip7")
    state = g.new_state(2)
    for text in fresh.moves:
        state.apply(g.parse_action(state, text))
    state.apply(g.parse_action(state, want))
    more = [*fresh.moves, want]
    i = 100
    while state.is_chance_node:  # the chance outcomes after the bot's move
        outcome = state.sample_chance(derive_rng("s", "chance", i))
        state.apply(outcome)
        more.append(str(outcome))
        i += 1
    assert state.current_player >= 0
    later = BotJob("t-delta", "flip7", {}, 2, tuple(more), state.current_player, "greedy", "seed")
    part = later.since(fresh.version)
    assert part.moves == tuple(more[fresh.version :]) and part.version == later.version
    assert compute_move(part) == compute_move(later)
