"""Memory soak of ``septet serve``: table churn for ``--minutes``, printing the server's RSS.

One real server process (a fresh SQLite file, or ``--db``; bots in its own pool of processes,
``--bot-delay 0``). ``--concurrency`` players at once, each in a loop: a new guest, a table of
``--game`` with that guest and one random bot, a WebSocket, random legal moves at once until
the game ends, the socket closed; then the next table. Every ``--sample`` seconds it prints
the tables finished so far, the server's RSS (``/proc/<pid>/status`` VmRSS) and the tables the
server still holds (``/api/health``'s ``live``). At the end: the RSS after the warm-up
(``--warmup`` tables) and at the end, the growth in MB and per 1,000 tables, and ``live``
once every table has closed (it must be 0: a closed, finished table is let go). A move
answered ``rate_limited`` is sent again after the answer's ``retry_after``; the error codes
met are counted.

``--batches N --batch-tables T`` instead: N batches of T tables, the RSS after each (every
socket closed), the growth from the first batch's end (the warm-up) to the last's, per 1,000
tables, and the last batch's; ``--idle S``: S seconds without a table at the end. ``--probe``
runs the server through ``bench/soak_server.py``, whose probe adds SQLite's heap and prepared
statements, SQLAlchemy's compiled cache, asyncio tasks, sockets (``--trace``: tracemalloc's
Python heap). ``--baseline TREE`` soaks the server of another source tree first (its
``src/``), the same way: before and after in one command.

    python bench/bench_soak.py --minutes 5
    python bench/bench_soak.py --minutes 60 --concurrency 40   # the issue's hour of churn
    git archive main | tar -x -C /tmp/base
    python bench/bench_soak.py --baseline /tmp/base --batches 6 --batch-tables 250 --probe --idle 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import ROOT, FreshDatabase, free_port, start_server, stop, tree_env, wait_healthy


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


RESEND = True
"""Whether a move answered ``rate_limited`` is sent again (``--no-resend``: as the bench did
before issue 26's fix, to show the stall)."""
STALL_S = 60.0
"""Seconds without a message after which a table counts as ``stalled`` and is left."""


async def play_one(base: str, game: str, seed: int, errors: Counter[str] | None = None) -> int:
    """Create a guest and a table (guest + random bot), play it to its end with random legal
    moves, close it; returns the person's moves. A move answered ``rate_limited`` is sent
    again after the ``retry_after`` seconds the answer advises (1 s from a server that gives
    none); every error code met is counted in ``errors``, and a table where no message came
    for :data:`STALL_S` seconds as ``stalled`` (then it is left, unfinished)."""
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
    last = ""
    url = "ws" + base[4:] + f"/ws/tables/{table}"
    async with connect(url, additional_headers={"Cookie": cookie}, max_size=2**22) as ws:
        while True:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), STALL_S))
            except TimeoutError:
                if errors is None:
                    raise
                errors["stalled"] += 1
                return moves
            if msg["type"] == "error":
                if errors is not None:
                    errors[msg["code"]] += 1
                if msg["code"] == "rate_limited" and last and RESEND:
                    await asyncio.sleep(float(msg.get("retry_after", 1.0)))
                    await ws.send(last)
                continue
            if msg["type"] != "state":
                continue
            if msg["table"]["status"] == "finished":
                return moves
            if msg["legal"] and msg["version"] != sent:
                sent = msg["version"]
                action = rng.choice(msg["legal"])["a"]
                last = json.dumps({"type": "move", "version": sent, "action": action})
                await ws.send(last)
                moves += 1


async def churn(
    base: str, game: str, until: float, concurrency: int, done: list[int], first_seed: int = 0,
    errors: Counter[str] | None = None,
) -> None:  # fmt: skip
    """Play tables (:func:`play_one`) ``concurrency`` at a time until ``until`` (monotonic);
    appends each finished table's person moves to ``done``."""
    seeds = iter(range(first_seed, 10**9))

    async def player() -> None:
        while time.monotonic() < until:
            done.append(await play_one(base, game, next(seeds), errors))

    await asyncio.gather(*(player() for _ in range(concurrency)))


async def churn_count(
    base: str, game: str, tables: int, concurrency: int, done: list[int], first_seed: int = 0,
    errors: Counter[str] | None = None,
) -> None:  # fmt: skip
    """Play exactly ``tables`` tables (:func:`play_one`), ``concurrency`` at a time; appends
    each one's person moves to ``done``."""
    seeds = iter(range(first_seed, first_seed + tables))

    async def player() -> None:
        for seed in seeds:
            done.append(await play_one(base, game, seed, errors))

    await asyncio.gather(*(player() for _ in range(concurrency)))


async def live_tables(base: str) -> int:
    """The tables the server still holds (``/api/health``'s ``live``)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        return int((await http.get("/api/health")).json()["live"])


async def probe(base: str) -> dict[str, Any]:
    """The probe of ``bench/soak_server.py`` (``{}`` from a plain ``septet serve``)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await http.get("/_soak/probe")
        return dict(r.json()) if r.status_code == 200 else {}


PROBE_SHOWN = ("traced_mb", "sqlite_mb", "sqlite_stmt_mb", "sqlite_stmts", "sqlite_connections",
               "sqlalchemy_compiled", "asyncio_tasks", "live_tables", "sockets")  # fmt: skip


def _shown(p: dict[str, Any]) -> str:
    return "  ".join(f"{k} {p[k]}" for k in PROBE_SHOWN if p.get(k) is not None)


async def soak_minutes(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    """Churn for ``--minutes``, a sample every ``--sample`` seconds."""
    done: list[int] = []
    errors: Counter[str] = Counter()
    start = time.monotonic()
    until = start + 60 * args.minutes
    samples: list[tuple[float, int, float]] = []
    task = asyncio.get_running_loop().create_task(
        churn(base, args.game, until, args.concurrency, done, errors=errors)
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
          f"per 1,000 tables; tables still held: {live}; errors {dict(errors)}",
          flush=True)  # fmt: skip
    return {"samples": samples, "tables": end[1], "person_moves": sum(done),
            "rss_warm_mb": round(warm[2], 1), "rss_end_mb": round(end[2], 1),
            "growth_mb_per_1000_tables": round(1000 * grow / tables, 2),
            "live_after": live, "errors": dict(errors)}  # fmt: skip


async def soak_batches(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    """``--batches`` batches of ``--batch-tables`` tables each; after each (every socket
    closed) the RSS and the probe. The first batch is the warm-up: the growth is from its
    end to the last batch's, per 1,000 tables. Then ``--idle`` seconds without a table."""
    done: list[int] = []
    errors: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    start = time.monotonic()
    for b in range(args.batches):
        t0 = time.monotonic()
        await churn_count(base, args.game, args.batch_tables, args.concurrency, done,
                          first_seed=b * args.batch_tables, errors=errors)  # fmt: skip
        await asyncio.sleep(1.0)
        row = {"batch": b + 1, "tables": len(done), "seconds": round(time.monotonic() - t0, 1),
               "rss_mb": round(rss_mb(pid), 1), "live": await live_tables(base),
               **await probe(base)}  # fmt: skip
        row["rss_mb"] = round(rss_mb(pid), 1)
        rows.append(row)
        grew = row["rss_mb"] - rows[-2]["rss_mb"] if len(rows) > 1 else 0.0
        print(f"batch {b + 1}: {row['tables']:6d} tables in {row['seconds']:5.1f} s  "
              f"RSS {row['rss_mb']:7.1f} MB ({grew:+.1f})  live {row['live']}  "
              f"{_shown(row)}", flush=True)  # fmt: skip
    idle = {}
    if args.idle > 0:
        await asyncio.sleep(args.idle)
        idle = {"seconds": args.idle, "rss_mb": round(rss_mb(pid), 1),
                "live": await live_tables(base), **await probe(base)}  # fmt: skip
        idle["rss_mb"] = round(rss_mb(pid), 1)
        print(f"idle {args.idle:.0f} s: RSS {idle['rss_mb']:.1f} MB  live {idle['live']}  "
              f"{_shown(idle)}", flush=True)  # fmt: skip
    warm, end = rows[0], rows[-1]
    tables = max(1, end["tables"] - warm["tables"])
    grow = end["rss_mb"] - warm["rss_mb"]
    last = end["rss_mb"] - rows[-2]["rss_mb"] if len(rows) > 1 else 0.0
    out: dict[str, Any] = {
        "batches": rows, "idle": idle, "tables": len(done), "person_moves": sum(done),
        "seconds": round(time.monotonic() - start, 1),
        "rss_warm_mb": warm["rss_mb"], "rss_end_mb": end["rss_mb"],
        "growth_mb": round(grow, 1), "growth_mb_per_1000_tables": round(1000 * grow / tables, 2),
        "last_batch_mb": round(last, 1), "errors": dict(errors),
    }  # fmt: skip
    for key in ("traced_mb", "sqlite_mb", "sqlite_stmts"):
        if warm.get(key) is not None and end.get(key) is not None:
            out[f"{key}_growth"] = round(end[key] - warm[key], 2)
    print(f"after the warm-up batch ({warm['tables']} tables): RSS {warm['rss_mb']:.1f} MB; "
          f"after {end['tables']}: {end['rss_mb']:.1f} MB; growth {grow:+.1f} MB, "
          f"{out['growth_mb_per_1000_tables']:+.2f} MB per 1,000 tables, last batch "
          f"{last:+.1f} MB; errors {dict(errors)}", flush=True)  # fmt: skip
    return out


def start_soak_server(args: argparse.Namespace, db_url: str, port: int, tree: Path | None
                      ) -> subprocess.Popen[bytes]:  # fmt: skip
    """``septet serve`` of ``tree`` (``None``: this one), or with ``--probe`` the same through
    ``bench/soak_server.py`` (its probe route; ``--trace``: tracemalloc on)."""
    if not args.probe:
        return start_server(db_url, port, 0.0, tree=tree)
    cmd = [sys.executable, str(ROOT / "bench" / "soak_server.py"), "serve", "--port", str(port),
           "--db", db_url, "--bot-delay", "0", "--log-level", "warning",
           "--guests-per-minute", "1000000"]  # fmt: skip
    cli = (tree or ROOT) / "src" / "septet" / "server" / "cli.py"
    if "access_log" in cli.read_text():
        cmd.append("--no-access-log")
    env = tree_env(tree) or dict(os.environ)
    if args.trace:
        env["SOAK_TRACE"] = "1"
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, env=env)
    return wait_healthy(proc, port)


def run_one(args: argparse.Namespace, tree: Path | None, label: str) -> dict[str, Any]:
    """One soak on a fresh database against the server of ``tree``."""
    print(f"--- {label}: {tree or ROOT}", flush=True)
    db = FreshDatabase(args.db)
    port = free_port()
    proc = start_soak_server(args, db.url, port, tree)
    soak = soak_batches if args.batches else soak_minutes
    try:
        result = asyncio.run(soak(args, f"http://127.0.0.1:{port}", proc.pid))
    finally:
        stop(proc)
        db.close()
    result["tree"] = str(tree or ROOT)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument(
        "--batches",
        type=int,
        default=0,
        help="batches of --batch-tables tables (instead of --minutes)",
    )
    ap.add_argument("--batch-tables", type=int, default=250)
    ap.add_argument("--idle", type=float, default=0.0, help="seconds without tables at the end")
    ap.add_argument("--concurrency", type=int, default=20)
    ap.add_argument("--game", default="flip7")
    ap.add_argument("--sample", type=float, default=15.0, help="seconds between RSS samples")
    ap.add_argument("--warmup", type=int, default=200, help="tables before the RSS baseline")
    ap.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    ap.add_argument(
        "--probe",
        action="store_true",
        help="run the server through bench/soak_server.py and print its probe",
    )
    ap.add_argument("--trace", action="store_true", help="with --probe: tracemalloc on")
    ap.add_argument(
        "--baseline",
        default="",
        help="a source tree (its src/) to soak first, the same way: the before",
    )
    ap.add_argument(
        "--no-resend",
        action="store_true",
        help="do not send again a move answered rate_limited (the old bench)",
    )
    ap.add_argument(
        "--stall",
        type=float,
        default=60.0,
        help="seconds without a message: the table counts as stalled",
    )
    args = ap.parse_args()  # fmt: skip
    global RESEND, STALL_S
    RESEND, STALL_S = not args.no_resend, args.stall
    result: dict[str, Any] = {}
    if args.baseline:
        result["before"] = run_one(args, Path(args.baseline).resolve(), "before")
    result["after" if args.baseline else "run"] = after = run_one(args, None, "this tree")
    if args.baseline and args.batches:
        before = result["before"]
        for key in ("growth_mb_per_1000_tables", "last_batch_mb", "sqlite_mb_growth",
                    "sqlite_stmts_growth", "traced_mb_growth"):  # fmt: skip
            if key in before and key in after:
                print(f"{key}: before {before[key]}, after {after[key]}", flush=True)
        b, a = before["growth_mb_per_1000_tables"], after["growth_mb_per_1000_tables"]
        if a > 0:
            print(f"growth per 1,000 tables: after/before {a / b:.3f} (before {b / a:.1f}x)")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    result.update({"benchmark": "bench_soak", "game": args.game, "minutes": args.minutes,
                   "batches": args.batches, "batch_tables": args.batch_tables,
                   "concurrency": args.concurrency, "probe": args.probe})  # fmt: skip
    (out / "bench_soak.json").write_text(json.dumps(result, indent=1))
    print(f"wrote {out / 'bench_soak.json'}")


if __name__ == "__main__":
    main()
