"""Memory soak of ``septet serve``: table churn for ``--minutes``, printing the server's RSS.

One real server process (a fresh SQLite file, or ``--db``; bots in its own pool of processes,
``--bot-delay 0``). ``--concurrency`` players at once, each in a loop: a new guest, a table of
``--game`` with that guest and one random bot, a WebSocket, random legal moves at once until
the game ends, the socket closed; then the next table. Every ``--sample`` seconds it prints
the tables finished so far, the server's RSS (``/proc/<pid>/status`` VmRSS) and the tables the
server still holds (``/api/health``'s ``live``). At the end: the RSS after the warm-up
(``--warmup`` tables) and at the end, the growth in MB and per 1,000 tables, and ``live``
once every table has closed (it must be 0: a closed, finished table is let go).

    python bench/bench_soak.py --minutes 5
    python bench/bench_soak.py --minutes 60 --concurrency 40   # the issue's hour of churn
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import ROOT, FreshDatabase, free_port, start_server, stop


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def play_one(base: str, game: str, seed: int) -> int:
    """Create a guest and a table (guest + random bot), play it to its end with random legal
    moves, close it; returns the person's moves."""
    rng = random.Random(seed)
    # (no kept-alive connections: a game outlasts uvicorn's keep-alive, and a reused one
    # closed by the server would be a spurious error)
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        r = await http.post("/api/guest", json={"name": f"s{seed}"})
        r.raise_for_status()
        cookie = f"septet_token={r.cookies['septet_token']}"
        http.cookies.clear()
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        r = await http.post("/api/tables", json={"game": game, "options": {}, "seats": seats},
                            headers={"Cookie": cookie})  # fmt: skip
        r.raise_for_status()
        table = r.json()["id"]
    moves = 0
    sent = -1
    url = "ws" + base[4:] + f"/ws/tables/{table}"
    async with connect(url, additional_headers={"Cookie": cookie}, max_size=2**22) as ws:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] != "state":
                continue
            if msg["table"]["status"] == "finished":
                return moves
            if msg["legal"] and msg["version"] != sent:
                sent = msg["version"]
                action = rng.choice(msg["legal"])["a"]
                await ws.send(json.dumps({"type": "move", "version": sent, "action": action}))
                moves += 1


async def churn(
    base: str, game: str, until: float, concurrency: int, done: list[int], first_seed: int = 0
) -> None:
    """Play tables (:func:`play_one`) ``concurrency`` at a time until ``until`` (monotonic);
    appends each finished table's person moves to ``done``."""
    seeds = iter(range(first_seed, 10**9))

    async def player() -> None:
        while time.monotonic() < until:
            done.append(await play_one(base, game, next(seeds)))

    await asyncio.gather(*(player() for _ in range(concurrency)))


async def churn_count(
    base: str, game: str, tables: int, concurrency: int, done: list[int], first_seed: int = 0
) -> None:
    """Play exactly ``tables`` tables (:func:`play_one`), ``concurrency`` at a time; appends
    each one's person moves to ``done``."""
    seeds = iter(range(first_seed, first_seed + tables))

    async def player() -> None:
        for seed in seeds:
            done.append(await play_one(base, game, seed))

    await asyncio.gather(*(player() for _ in range(concurrency)))


async def live_tables(base: str) -> int:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        return int((await http.get("/api/health")).json()["live"])


async def soak(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    done: list[int] = []
    start = time.monotonic()
    until = start + 60 * args.minutes
    samples: list[tuple[float, int, float]] = []
    task = asyncio.get_running_loop().create_task(
        churn(base, args.game, until, args.concurrency, done)
    )
    while not task.done():
        await asyncio.wait([task], timeout=args.sample)
        row = (time.monotonic() - start, len(done), rss_mb(pid))
        samples.append(row)
        print(f"{row[0]:7.0f} s  {row[1]:6d} tables  RSS {row[2]:7.1f} MB  "
              f"live {await live_tables(base)}", flush=True)  # fmt: skip
    await task
    await asyncio.sleep(1.0)
    live = await live_tables(base)
    warm = next((s for s in samples if s[1] >= args.warmup), samples[0])
    end = (time.monotonic() - start, len(done), rss_mb(pid))
    tables = max(1, end[1] - warm[1])
    grow = end[2] - warm[2]
    print(f"after warm-up ({warm[1]} tables): RSS {warm[2]:.1f} MB; at the end ({end[1]} "
          f"tables): {end[2]:.1f} MB; growth {grow:+.1f} MB, {1000 * grow / tables:+.2f} MB "
          f"per 1,000 tables; tables still held: {live}", flush=True)  # fmt: skip
    return {"samples": samples, "tables": end[1], "person_moves": sum(done),
            "rss_warm_mb": round(warm[2], 1), "rss_end_mb": round(end[2], 1),
            "growth_mb_per_1000_tables": round(1000 * grow / tables, 2),
            "live_after": live}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--concurrency", type=int, default=20)
    ap.add_argument("--game", default="flip7")
    ap.add_argument("--sample", type=float, default=15.0, help="seconds between RSS samples")
    ap.add_argument("--warmup", type=int, default=200, help="tables before the RSS baseline")
    ap.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    args = ap.parse_args()
    db = FreshDatabase(args.db)
    port = free_port()
    proc = start_server(db.url, port, 0.0)
    try:
        result = asyncio.run(soak(args, f"http://127.0.0.1:{port}", proc.pid))
    finally:
        stop(proc)
        db.close()
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    result.update({"benchmark": "bench_soak", "game": args.game, "minutes": args.minutes,
                   "concurrency": args.concurrency})  # fmt: skip
    (out / "bench_soak.json").write_text(json.dumps(result, indent=1))
    print(f"wrote {out / 'bench_soak.json'}")


if __name__ == "__main__":
    main()
