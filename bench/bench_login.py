"""What a login costs (issue 24), on loopback; prints a table and writes
bench/results/bench_login.json.

``hash``: CPU per argon2id hash and per verification with the server's parameters
(:data:`septet.server.accounts.passwords.PARAMETERS`), in this process, against a plain
``sha256`` of the same password in the same run (the ratio says what the slowness buys).

``load``: one fresh ``septet serve`` (SQLite file, default argon2id and hashing queue),
``--people`` simulated people at tables of one person and one bot, moving as fast as the table
lets them (``--bot-delay``), measured in three phases of ``--seconds`` in one run: alone (the
baseline); beside ``GET /api/health`` at the login pace (the requests without a hash); beside
``--rate`` logins a second (right passwords, ``--accounts`` accounts in turn) at an even pace.
Move latency: from sending a move to its ``ack``. CPU per login in the server: the CPU time of
its hashing threads (``/proc/PID/task/*/stat``, the threads at the hashing niceness) over the
logins answered 200. A ``503 busy`` answer (the hashing queue full) is counted apart.

    python bench/bench_login.py                      # both, 20 logins/s for 10 s
    python bench/bench_login.py --rate 60 --seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import ROOT, FreshDatabase, free_port, percentile, start_server, stop
from septet.server.accounts.passwords import NICE

PASSWORD = "correct horse battery"


def hash_bench(rounds: int) -> dict[str, Any]:
    """CPU and wall milliseconds per argon2id hash and verify, and per sha256, in this process."""
    from argon2 import PasswordHasher

    from septet.server.accounts.passwords import PARAMETERS

    hasher = PasswordHasher(**PARAMETERS)  # type: ignore[arg-type]
    hasher.hash(PASSWORD)  # warm up

    def timed(fn: Any, n: int) -> tuple[float, float]:
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(n):
            fn()
        return 1000 * (time.process_time() - cpu) / n, 1000 * (time.perf_counter() - wall) / n

    stored = hasher.hash(PASSWORD)
    h_cpu, h_wall = timed(lambda: hasher.hash(PASSWORD), rounds)
    v_cpu, v_wall = timed(lambda: hasher.verify(stored, PASSWORD), rounds)
    data = PASSWORD.encode()
    s_cpu, s_wall = timed(lambda: hashlib.sha256(data).digest(), 20000)
    return {
        "parameters": PARAMETERS,
        "rounds": rounds,
        "argon2id_hash_cpu_ms": round(h_cpu, 2),
        "argon2id_hash_wall_ms": round(h_wall, 2),
        "argon2id_verify_cpu_ms": round(v_cpu, 2),
        "argon2id_verify_wall_ms": round(v_wall, 2),
        "sha256_cpu_ms": round(s_cpu, 5),
        "sha256_wall_ms": round(s_wall, 5),
        "verify_over_sha256": round(v_cpu / s_cpu) if s_cpu else None,
    }


def cpu_seconds(pid: int, nice: int | None = None) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``); with ``nice``,
    of its threads running at that niceness only (the hashing threads run at
    :data:`~septet.server.accounts.passwords.NICE`)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended
            continue
        if nice is None or int(fields[16]) == nice:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


async def new_table(http: httpx.AsyncClient, cookie: str, game: str) -> str:
    """A table of ``game``: the person (``cookie``) and one random bot; its id."""
    seats = ["human", {"kind": "bot", "bot": "random"}]
    r = await http.post("/api/tables", json={"game": game, "options": {}, "seats": seats},
                        headers={"Cookie": cookie})  # fmt: skip
    r.raise_for_status()
    return str(r.json()["id"])


async def play_one(ws: Any, until: float, rng: random.Random, lat: list[float]) -> bool:
    """Answer every offered move at one table until ``until``; True when its game finished."""
    sent_at: float | None = None
    while time.monotonic() < until:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, until - time.monotonic()))
        except TimeoutError:
            return False
        msg = json.loads(raw)
        if msg["type"] == "ack" and sent_at is not None:
            lat.append(time.perf_counter() - sent_at)
            sent_at = None
        elif msg["type"] == "error":
            sent_at = None
        elif msg["type"] == "state":
            if msg["table"]["status"] == "finished":
                return True
            if msg["legal"] and sent_at is None:
                sent_at = time.perf_counter()
                action = rng.choice(msg["legal"])["a"]
                await ws.send(json.dumps({"type": "move", "version": msg["version"],
                                          "action": action}))  # fmt: skip
    return False


async def person(base: str, cookie: str, table: str, game: str, until: float, seed: int,
                 lat: list[float]) -> None:  # fmt: skip
    """One person playing ``table``, then new tables as games end, until ``until``."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < until:
            ws_url = f"ws{base[4:]}/ws/tables/{table}"
            async with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
                finished = await play_one(ws, until, rng, lat)
            if finished and time.monotonic() < until:
                table = await new_table(http, cookie, game)


async def logins(base: str, names: list[str], rate: float, until: float) -> dict[str, Any]:
    """``rate`` logins a second until ``until``, each its own request; their answers. With
    ``names`` empty, the same pace of ``GET /api/health`` (the HTTP load without a hash)."""
    statuses: dict[int, int] = {}
    lat: list[float] = []
    tasks = []

    async def one(http: httpx.AsyncClient, name: str) -> None:
        start = time.perf_counter()
        if name:
            r = await http.post("/api/login", json={"name": name, "password": PASSWORD})
        else:
            r = await http.get("/api/health")
        lat.append(time.perf_counter() - start)
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1

    limits = httpx.Limits(max_connections=200)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        start, i = time.monotonic(), 0
        while (due := start + i / rate) < until:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            tasks.append(asyncio.ensure_future(one(http, names[i % len(names)] if names else "")))
            i += 1
        await asyncio.gather(*tasks)
    return {"sent": i, "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "login_p50_ms": round(percentile(lat, 0.5), 1),
            "login_p99_ms": round(percentile(lat, 0.99), 1)}  # fmt: skip


async def phase(args: argparse.Namespace, base: str, pid: int, cookies: list[str],
                names: list[str] | None) -> dict[str, Any]:  # fmt: skip
    """One measured phase: the people play for ``--seconds``; with ``names`` None alone, with
    ``[]`` beside cheap requests at the login pace, else beside logins of ``names``."""
    lat: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        tables = [await new_table(http, c, args.game) for c in cookies]  # before the clock
    cpu0, hash0, t0 = cpu_seconds(pid), cpu_seconds(pid, NICE), time.monotonic()
    until = t0 + args.seconds
    jobs = [person(base, c, t, args.game, until, i, lat)
            for i, (c, t) in enumerate(zip(cookies, tables, strict=True))]  # fmt: skip
    login_job = logins(base, names, args.rate, until) if names is not None else asyncio.sleep(0)
    *_, login_rows = await asyncio.gather(*jobs, login_job)
    elapsed = time.monotonic() - t0
    row: dict[str, Any] = {
        "phase": "logins" if names else ("baseline" if names is None else "requests"),
        "seconds": round(elapsed, 2),
        "moves": len(lat),
        "move_p50_ms": round(percentile(lat, 0.5), 2),
        "move_p99_ms": round(percentile(lat, 0.99), 2),
        "move_mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "server_cpu_s": round(cpu_seconds(pid) - cpu0, 3),
        "hashing_cpu_s": round(cpu_seconds(pid, NICE) - hash0, 3),
    }
    return {**row, **(login_rows or {})}


async def setup(base: str, people: int, accounts: int) -> tuple[list[str], list[str]]:
    """``people`` guests' cookies, and ``accounts`` account names with :data:`PASSWORD`."""
    cookies, names = [], []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for i in range(people):
            r = await http.post("/api/guest", json={"name": f"Player {i}"})
            r.raise_for_status()
            cookies.append(f"septet_token={r.cookies['septet_token']}")
            http.cookies.clear()
        for i in range(accounts):
            r = await http.post("/api/account", json={"name": f"Login {i}", "password": PASSWORD})
            r.raise_for_status()
            names.append(f"Login {i}")
            http.cookies.clear()
    return cookies, names


def load_bench(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The baseline phase and the login phase against one fresh server."""
    db = FreshDatabase("")
    port = free_port()
    proc = start_server(db.url, port, args.bot_delay)
    base = f"http://127.0.0.1:{port}"
    try:
        cookies, names = asyncio.run(setup(base, args.people, args.accounts))
        rows = [asyncio.run(phase(args, base, proc.pid, cookies, which))
                for which in (None, [], names)]  # fmt: skip
    finally:
        stop(proc)
        db.close()
    base_row, control, login_row = rows
    hashed = login_row.get("statuses", {}).get("200", 0)
    cpu = login_row["hashing_cpu_s"]  # the hashing threads' own CPU time
    login_row["server_cpu_ms_per_login"] = round(1000 * cpu / hashed, 1) if hashed else None
    for row in (control, login_row):
        row["p99_over_baseline"] = round(row["move_p99_ms"] / base_row["move_p99_ms"], 2)
    return rows


def show(hashing: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """The table on stdout."""
    print(f"argon2id {hashing['parameters']}")
    print(f"  hash   {hashing['argon2id_hash_cpu_ms']:8.2f} ms CPU  "
          f"{hashing['argon2id_hash_wall_ms']:8.2f} ms wall")  # fmt: skip
    print(f"  verify {hashing['argon2id_verify_cpu_ms']:8.2f} ms CPU  "
          f"{hashing['argon2id_verify_wall_ms']:8.2f} ms wall")  # fmt: skip
    print(f"  sha256 {hashing['sha256_cpu_ms']:8.5f} ms CPU  "
          f"(verify / sha256 = {hashing['verify_over_sha256']}x)")  # fmt: skip
    head = f"{'phase':9} {'moves':>6} {'p50 ms':>7} {'p99 ms':>7} {'cpu s':>6} {'logins':>18}"
    print(head)
    for r in rows:
        answers = " ".join(f"{k}:{v}" for k, v in r.get("statuses", {}).items()) or "-"
        print(f"{r['phase']:9} {r['moves']:6d} {r['move_p50_ms']:7.2f} {r['move_p99_ms']:7.2f} "
              f"{r['server_cpu_s']:6.2f} {answers:>18}")  # fmt: skip
    last = rows[-1]
    print(f"move p99 over baseline: {rows[1]['p99_over_baseline']}x with requests, "
          f"{last['p99_over_baseline']}x with logins; server CPU per login: "
          f"{last['server_cpu_ms_per_login']} ms; login p50/p99: {last['login_p50_ms']}/"
          f"{last['login_p99_ms']} ms")  # fmt: skip


def main() -> None:
    """Parse the options, run both parts, print and write the results."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rounds", type=int, default=30, help="hash: argon2id hashes and verifies")
    ap.add_argument("--rate", type=float, default=20.0, help="load: logins a second")
    ap.add_argument("--seconds", type=float, default=10.0, help="load: length of each phase")
    ap.add_argument("--people", type=int, default=4, help="load: people playing meanwhile")
    ap.add_argument("--accounts", type=int, default=20, help="load: accounts signing in")
    ap.add_argument("--game", default="flip7")
    ap.add_argument("--bot-delay", type=float, default=0.05, help="load: seconds a bot waits")
    args = ap.parse_args()
    hashing = hash_bench(args.rounds)
    rows = load_bench(args)
    show(hashing, rows)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    result = {"benchmark": "bench_login", "hash": hashing, "load": rows,
              "rate_per_s": args.rate, "people": args.people, "bot_delay_s": args.bot_delay,
              "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                          "loadavg_1m": round(os.getloadavg()[0], 2)}}  # fmt: skip
    (out / "bench_login.json").write_text(json.dumps(result, indent=1))
    print(f"wrote {out / 'bench_login.json'}")


if __name__ == "__main__":
    main()
