"""Load benchmark of ``septet serve``: concurrent tables of bots and simulated people over
WebSocket on loopback.

For each table count (default 50 and 200) it starts a fresh server process (SQLite file in a
temporary directory unless --db is given), creates that many tables of ``--game`` with one
simulated person and ``--bots`` bots each, connects every person over WebSocket, and for
``--seconds`` answers each offered move with a random legal one (after ``--think`` seconds).
Move latency is the time from sending a move to receiving its ``ack`` (the move validated,
applied, committed to the database and acknowledged). It prints a table and writes
bench/results/bench_server.json.

    python bench/bench_server.py                    # 50 and 200 tables, flip7, table pace
    python bench/bench_server.py --think 0.1 --bot-delay 0.1   # stress: ten times the pace
    python bench/bench_server.py --tables 10 --seconds 5 --game double-seven
    python bench/bench_server.py --server http://127.0.0.1:8000   # a server started by hand

The default pace is a person thinking 1 s on average (uniform 0-2 s) and bots waiting 0.8 s
(``septet serve``'s default), on 2-player tables (one person, one random bot).

Target: p99 under 100 ms at 200 tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db_url: str, port: int, bot_delay: float) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "septet.cli", "serve", "--port", str(port), "--db", db_url]
    cmd += ["--bot-delay", str(bot_delay), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def person(
    base: str,
    ws_base: str,
    table: str,
    cookie: str,
    until: float,
    think: float,
    seed: int,
    latencies: list[float],
    counts: dict[str, int],
) -> None:
    rng = random.Random(seed)
    async with connect(
        f"{ws_base}/ws/tables/{table}", additional_headers={"Cookie": cookie}, max_size=2**22
    ) as ws:
        sent_at: float | None = None
        while time.monotonic() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, until - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] == "ack" and sent_at is not None:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
                counts["moves"] += 1
            elif msg["type"] == "error":
                counts["errors"] += 1
                sent_at = None
            elif msg["type"] == "state":
                if msg["table"]["status"] == "finished":
                    counts["finished"] += 1
                    break
                if msg["legal"] and sent_at is None:
                    if think:
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                    choice = rng.choice(msg["legal"])["a"]
                    sent_at = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "move", "version": msg["version"], "action": choice})
                    )


async def run_load(args: argparse.Namespace, tables: int, db_url: str) -> dict[str, Any]:
    if args.server:  # a server started by hand (its own --bot-delay applies)
        proc = None
        base = args.server.rstrip("/")
    else:
        port = free_port()
        proc = start_server(db_url, port, args.bot_delay)
        base = f"http://127.0.0.1:{port}"
    ws_base = "ws" + base[4:]
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            ids, cookies = [], []
            for i in range(tables):
                r = await http.post("/api/guest", json={"name": f"p{i}"})
                cookie = f"septet_token={r.cookies['septet_token']}"
                http.cookies.clear()
                seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * args.bots
                r = await http.post(
                    "/api/tables",
                    json={"game": args.game, "options": {}, "seats": seats},
                    headers={"Cookie": cookie},
                )
                r.raise_for_status()
                ids.append(r.json()["id"])
                cookies.append(cookie)
            v0 = sum([(await http.get(f"/api/tables/{t}")).json()["version"] for t in ids])
            latencies: list[float] = []
            counts = {"moves": 0, "errors": 0, "finished": 0}
            start = time.monotonic()
            until = start + args.seconds
            await asyncio.gather(
                *(
                    person(base, ws_base, t, c, until, args.think, i, latencies, counts)
                    for i, (t, c) in enumerate(zip(ids, cookies, strict=True))
                )
            )
            elapsed = time.monotonic() - start
            v1 = sum([(await http.get(f"/api/tables/{t}")).json()["version"] for t in ids])
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {
        "tables": tables,
        "seconds": round(elapsed, 2),
        "person_moves": counts["moves"],
        "person_moves_per_s": round(counts["moves"] / elapsed, 1),
        "steps_per_s": round((v1 - v0) / elapsed, 1),
        "p50_ms": round(pct(0.50), 2),
        "p99_ms": round(pct(0.99), 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "errors": counts["errors"],
        "games_finished": counts["finished"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--game", default="flip7")
    ap.add_argument("--bots", type=int, default=1, help="bots per table (besides the person)")
    ap.add_argument(
        "--bot-delay", type=float, default=0.8, help="seconds before a bot moves (as serve)"
    )
    ap.add_argument("--think", type=float, default=1.0, help="mean thinking time of a person")
    ap.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--server", default="", help="use a running server at this URL instead")
    args = ap.parse_args()
    rows = []
    for n in args.tables:
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
            rows.append(asyncio.run(run_load(args, n, db)))
        r = rows[-1]
        print(
            f"{r['tables']:>5} tables  {r['person_moves_per_s']:>7} person moves/s  "
            f"{r['steps_per_s']:>7} steps/s  p50 {r['p50_ms']:>7} ms  p99 {r['p99_ms']:>7} ms  "
            f"errors {r['errors']}",
            flush=True,
        )
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    result = {
        "benchmark": "bench_server",
        "game": args.game,
        "bots_per_table": args.bots,
        "bot_delay_s": args.bot_delay,
        "think_s": args.think,
        "db": "sqlite" if not args.db else args.db.split(":")[0],
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "rows": rows,
    }
    (out / "bench_server.json").write_text(json.dumps(result, indent=1))
    print(f"wrote {out / 'bench_server.json'}")


if __name__ == "__main__":
    main()
