"""Load benchmarks of ``septet serve``, on loopback; each prints a table with ratios against a
baseline run in the same command, and writes JSON under bench/results/.

``moves`` (default): concurrent tables of bots and simulated people over WebSocket. For each
table count it starts fresh servers, creates that many tables of ``--game`` with one simulated
person and ``--bots`` bots each, connects every person, and for ``--seconds`` answers each
offered move with a random legal one (after ``--think`` seconds). Move latency: from sending a
move to receiving its ``ack`` (validated, applied, committed, acknowledged). ``--layout both``
runs each table count on one process and then on two ``septet serve --redis`` processes (tables
spread over them, a ``septet bots`` worker; PostgreSQL and Redis needed), and gives the ratio.

    python bench/bench_server.py                    # 50 and 200 tables, flip7, table pace
    python bench/bench_server.py --tables 1000 --layout both \
        --db postgresql://postgres@127.0.0.1/test --redis redis://127.0.0.1:6379/0
    python bench/bench_server.py --think 0.1 --bot-delay 0.1   # stress: ten times the pace

``health``: ``GET /api/health`` latency (p50/p99, 20 requests a second) while ``--bot-tables``
tables of four ISMCTS bots (Strong) play, with the bots in the server's own threads (how Septet
ran them before) and then in its pool of bot processes (now), in one run:

    python bench/bench_server.py health --bot-tables 12 --seconds 20

``flood``: another player's bot reply time while one address floods the bot queue, both
conditions in one run on one server (``--trust-proxy``: the flood comes from 10.0.0.66, the
player from 10.0.0.7, as behind a proxy). First without a flood, then after fresh guests of one
address have asked for ``--flood-tables`` tables of four ``bot:strong`` (those past the cap
per address are refused, 429), a table of the player and one ``--reply-bot`` bot: the time
from the state that hands the turn to the bot to the state with its move (the server's
``--bot-delay`` included), p50/p99 of each condition and their ratio (goal: p99 within 2x):

    python bench/bench_server.py flood --flood-tables 60 --seconds 30

The default pace is a person thinking 1 s on average (uniform 0-2 s) and bots waiting 0.8 s
(``septet serve``'s default), on 2-player tables (one person, one random bot).
Targets: move p99 under 100 ms at 200 tables on one process, under 50 ms at 1,000 tables on two.
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


#: Set by ``--cprofile``: servers run under bench/cprof_serve.py, their statistics files here.
CPROFILE = False
PROFILES: list[Path] = []


def print_profile(path: Path, top: int = 25) -> None:
    """The ``top`` functions of a cProfile file by own time, as shares of the profiled time."""
    import pstats

    st = pstats.Stats(str(path))
    total = sum(v[2] for v in st.stats.values()) or 1.0  # type: ignore[attr-defined]
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])  # type: ignore[attr-defined]
    print(f"-- {path.name}: own time of the event loop's thread, top {top}")
    for (file, line, func), (_, calls, own, cum, _) in rows[:top]:
        where = f"{Path(file).name}:{line} {func}"
        print(f"  {own / total:6.1%} own  {cum / total:6.1%} cum  {calls:>9} calls  {where}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tree_env(tree: Path | None) -> dict[str, str] | None:
    """The environment of a child running the ``septet`` of ``tree`` (``None``: this one's)."""
    if tree is None:
        return None
    return {**os.environ, "PYTHONPATH": str(tree / "src")}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(
    db_url: str, port: int, bot_delay: float, *extra: str, tree: Path | None = None
) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "septet.cli", "serve", "--port", str(port), "--db", db_url]
    if CPROFILE:  # the event loop's thread under cProfile (bench/cprof_serve.py)
        out = ROOT / "bench" / "results" / f"cprofile-{port}.prof"
        out.parent.mkdir(parents=True, exist_ok=True)
        PROFILES.append(out)
        cmd[1:3] = [str(ROOT / "bench" / "cprof_serve.py"), str(out)]
    cmd += ["--bot-delay", str(bot_delay), "--log-level", "warning"]
    cmd += ["--guests-per-minute", "1000000", *extra]  # the bench creates a guest per table
    cli = (tree or ROOT) / "src" / "septet" / "server" / "cli.py"
    if "access_log" in cli.read_text():  # (a tree of before the access log has none)
        cmd.append("--no-access-log")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, env=tree_env(tree))
    return wait_healthy(proc, port)


def wait_healthy(proc: subprocess.Popen[bytes], port: int) -> subprocess.Popen[bytes]:
    """``proc`` once its ``/api/health`` on ``port`` answers 200 (90 s at most: then it is
    killed and the bench exits)."""
    end = time.monotonic() + 90
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def start_worker(
    db_url: str, redis: str, prefix: str, bot_delay: float, tree: Path | None = None
) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "septet.cli", "bots", "--redis", redis, "--db", db_url]
    cmd += ["--redis-prefix", prefix, "--bot-delay", str(bot_delay), "--log-level", "warning"]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, env=tree_env(tree))


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


class Site:
    """The server processes of one run: ``one`` (embedded) or ``two`` (``--redis``, a worker)."""

    def __init__(
        self, args: argparse.Namespace, layout: str, db_url: str, *extra: str,
        tree: Path | None = None,
    ) -> None:  # fmt: skip
        self.procs: list[subprocess.Popen[bytes]] = []
        self.servers: list[subprocess.Popen[bytes]] = []
        self.bases: list[str] = []
        extra_args = list(extra)
        if layout == "two":
            prefix = f"bench-{os.getpid()}-{time.monotonic_ns()}"
            extra_args += ["--redis", args.redis, "--redis-prefix", prefix]
            self.procs.append(start_worker(db_url, args.redis, prefix, args.bot_delay, tree))
        for _ in range(2 if layout == "two" else 1):
            port = free_port()
            server = start_server(db_url, port, args.bot_delay, *extra_args, tree=tree)
            self.procs.append(server)
            self.servers.append(server)
            self.bases.append(f"http://127.0.0.1:{port}")

    def cpu(self) -> float:
        """CPU seconds of the server processes so far (their bot processes not included)."""
        return sum(cpu_seconds(p.pid) for p in self.servers)

    def close(self) -> None:
        for proc in self.procs:
            stop(proc)


class FreshDatabase:
    """A database of its own for one run: an SQLite file, or a new PostgreSQL schema."""

    def __init__(self, url: str) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.schema = ""
        if not url:
            self.url = f"sqlite:///{Path(self.tmp.name) / 'bench.sqlite3'}"
            return
        from sqlalchemy import create_engine, text

        from septet.server.config import normalize_database_url

        base = normalize_database_url(url)
        self.schema = f"bench_{os.getpid()}_{time.monotonic_ns()}"
        self.admin = create_engine(base)
        with self.admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        sep = "&" if "?" in base else "?"
        self.url = f"{base}{sep}options=-csearch_path%3D{self.schema}"

    def close(self) -> None:
        if self.schema:
            from sqlalchemy import text

            with self.admin.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
            self.admin.dispose()
        self.tmp.cleanup()


async def person(
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


async def make_tables(
    args: argparse.Namespace, bases: list[str], tables: int, seats: list[Any]
) -> list[tuple[str, str, str]]:
    """``tables`` tables spread over ``bases``: ``(base, table id, creator's cookie)``."""
    out = []
    clients = [httpx.AsyncClient(base_url=b, timeout=60) for b in bases]
    try:
        for i in range(tables):
            http = clients[i % len(clients)]
            r = await http.post("/api/guest", json={"name": f"p{i}"})
            r.raise_for_status()
            cookie = f"septet_token={r.cookies['septet_token']}"
            http.cookies.clear()
            r = await http.post(
                "/api/tables",
                json={"game": args.game, "options": {}, "seats": seats},
                headers={"Cookie": cookie},
            )
            r.raise_for_status()
            out.append((bases[i % len(bases)], r.json()["id"], cookie))
    finally:
        for c in clients:
            await c.aclose()
    return out


async def versions(made: list[tuple[str, str, str]]) -> int:
    """The sum of the tables' versions (20 requests at a time)."""
    gate = asyncio.Semaphore(20)
    async with httpx.AsyncClient(timeout=120) as http:

        async def one(base: str, table: str) -> int:
            async with gate:
                return int((await http.get(f"{base}/api/tables/{table}")).json()["version"])

        got = await asyncio.gather(*(one(b, t) for b, t, _ in made))
    return sum(got)


def percentile(values: list[float], p: float) -> float:
    lat = sorted(values)
    return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")


async def run_load(
    args: argparse.Namespace, tables: int, bases: list[str], site: Site | None = None
) -> dict[str, Any]:
    # (the object form of seats: servers of before the short forms read it too)
    seats: list[Any] = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * args.bots
    made = await make_tables(args, bases, tables, seats)
    v0 = await versions(made)
    latencies: list[float] = []
    counts = {"moves": 0, "errors": 0, "finished": 0}
    cpu0 = site.cpu() if site is not None else 0.0
    spy = None
    if args.profile and site is not None:  # py-spy on the first server, the load's window only
        (ROOT / "bench" / "results").mkdir(parents=True, exist_ok=True)
        record = [args.profile, "record", "-p", str(site.servers[0].pid), "-o",
                  str(ROOT / "bench" / "results" / f"profile-{tables}-{len(bases)}.txt"),
                  "-f", "raw", "-d", str(int(args.seconds)), "-r", "50"]  # fmt: skip
        spy = subprocess.Popen(record, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if CPROFILE and site is not None:  # profile the measured window only
        for p in site.servers:
            os.kill(p.pid, signal.SIGUSR1)
    start = time.monotonic()
    until = start + args.seconds
    await asyncio.gather(
        *(
            person("ws" + b[4:], t, c, until, args.think, i, latencies, counts)
            for i, (b, t, c) in enumerate(made)
        )
    )
    elapsed = time.monotonic() - start
    cpu = site.cpu() - cpu0 if site is not None else 0.0
    if CPROFILE and site is not None:
        for p in site.servers:
            os.kill(p.pid, signal.SIGUSR2)
        time.sleep(2)  # (the statistics are written)
    if spy is not None:
        spy.wait(60)
    v1 = await versions(made)
    return {
        "server_cpu_s": round(cpu, 2),
        "person_moves_per_cpu_s": round(counts["moves"] / cpu, 1) if cpu else None,
        "tables": tables,
        "processes": len(bases),
        "seconds": round(elapsed, 2),
        "person_moves": counts["moves"],
        "person_moves_per_s": round(counts["moves"] / elapsed, 1),
        "steps_per_s": round((v1 - v0) / elapsed, 1),
        "p50_ms": round(percentile(latencies, 0.50), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "mean_ms": round(1000 * statistics.fmean(latencies), 2) if latencies else None,
        "errors": counts["errors"],
        "games_finished": counts["finished"],
    }


def moves_bench(args: argparse.Namespace) -> list[dict[str, Any]]:
    layouts = ["one", "two"] if args.layout == "both" else [args.layout]
    if "two" in layouts and not (args.redis and args.db.startswith("postgres")):
        raise SystemExit("--layout two/both needs --redis URL and --db postgresql://...")
    rows = []
    trees: list[tuple[str, Path | None]] = [("", None)]
    if args.before:  # before and after, back to back for each table count and layout
        trees = [("before", Path(args.before).resolve()), ("after", ROOT)]
    for n in args.tables:
        for layout in layouts:
            for label, tree in trees:
                row = _one_row(args, n, layout, tree)
                row["tree"] = label
                rows.append(row)
                _print_row(row, next(r for r in rows if r["tables"] == n))
    return rows


def _one_row(args: argparse.Namespace, n: int, layout: str, tree: Path | None) -> dict[str, Any]:
    if args.server:
        return asyncio.run(run_load(args, n, [args.server.rstrip("/")]))
    db = FreshDatabase(args.db)
    site = Site(args, layout, db.url, tree=tree)
    try:
        row = asyncio.run(run_load(args, n, site.bases, site))
    finally:
        site.close()
        db.close()
    return row


def _print_row(row: dict[str, Any], base: dict[str, Any]) -> None:
    row["p99_vs_first"] = round(row["p99_ms"] / base["p99_ms"], 3) if base["p99_ms"] else None
    print(
        f"{row.get('tree', ''):>6} {row['tables']:>5} tables  {row['processes']} process(es)  "
        f"{row['person_moves_per_s']:>7} person moves/s  "
        f"{row['person_moves_per_cpu_s']} person moves per server CPU-s  "
        f"p50 {row['p50_ms']:>7} ms  p99 {row['p99_ms']:>7} ms  "
        f"(p99 x{row['p99_vs_first']} of the first row)  errors {row['errors']}",
        flush=True,
    )


async def sample_health(base: str, seconds: float) -> list[float]:
    out: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.perf_counter()
            (await http.get("/api/health")).raise_for_status()
            out.append(time.perf_counter() - t0)
            await asyncio.sleep(0.05)
    return out


async def health_run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for i in range(args.bot_tables):  # a guest may have 3 tables of bots: one per table
            r = await http.post("/api/guest", json={"name": f"b{i}"})
            cookie = f"septet_token={r.cookies['septet_token']}"
            http.cookies.clear()
            r = await http.post(
                "/api/tables",
                json={"game": args.game, "options": {}, "seats": ["bot:strong"] * 4},
                headers={"Cookie": cookie},
            )
            r.raise_for_status()
    await asyncio.sleep(1.0)
    lat = await sample_health(base, args.seconds)
    return {"requests": len(lat), "p50_ms": round(percentile(lat, 0.5), 2),
            "p99_ms": round(percentile(lat, 0.99), 2)}  # fmt: skip


def health_bench(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for label, workers in (("threads (before)", "0"), ("processes (now)", str(args.bot_workers))):
        db = FreshDatabase(args.db)
        port = free_port()
        proc = start_server(db.url, port, args.bot_delay, "--bot-workers", workers)
        try:
            row = asyncio.run(health_run(args, f"http://127.0.0.1:{port}"))
        finally:
            stop(proc)
            db.close()
        row.update({"bots_in": label, "bot_tables": args.bot_tables})
        rows.append(row)
    for row in rows:
        row["p99_vs_before"] = round(row["p99_ms"] / rows[0]["p99_ms"], 3)
        print(
            f"bots in {row['bots_in']:<17} {row['bot_tables']} tables of 4 ISMCTS bots: "
            f"/api/health p50 {row['p50_ms']:>8} ms  p99 {row['p99_ms']:>8} ms  "
            f"(p99 x{row['p99_vs_before']} of before)",
            flush=True,
        )
    return rows


async def reply_times(
    base: str, address: str, seconds: float, bot: str, think: float
) -> list[float]:
    """A player at ``address`` (``X-Forwarded-For``) with one ``bot`` plays for ``seconds``
    (random legal moves after ``think`` s); returns the bot's reply times (seconds from the
    state handing it the turn to the next state)."""
    rng = random.Random(7)
    fwd = {"X-Forwarded-For": address}
    out: list[float] = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        async with httpx.AsyncClient(base_url=base, timeout=60, headers=fwd) as http:
            r = await http.post("/api/guest", json={"name": "victim"})
            r.raise_for_status()
            cookie = f"septet_token={r.cookies['septet_token']}"
            http.cookies.clear()
            body = {"game": "flip7", "options": {}, "seats": ["human", f"bot:{bot}"]}
            r = await http.post("/api/tables", headers={"Cookie": cookie}, json=body)
            r.raise_for_status()
            table = r.json()["id"]
        url = "ws" + base[4:] + f"/ws/tables/{table}"
        headers = {"Cookie": cookie, **fwd}
        async with connect(url, additional_headers=headers, max_size=2**22) as ws:
            waiting_since: float | None = None
            sent = -1
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic()))
                except TimeoutError:
                    break
                msg = json.loads(raw)
                if msg["type"] != "state":
                    continue
                now = time.perf_counter()
                if waiting_since is not None:
                    out.append(now - waiting_since)
                    waiting_since = None
                if msg["table"]["status"] == "finished":
                    break
                if msg["legal"]:
                    if msg["version"] != sent:
                        sent = msg["version"]
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                        action = rng.choice(msg["legal"])["a"]
                        await ws.send(
                            json.dumps({"type": "move", "version": sent, "action": action})
                        )
                elif msg["table"]["status"] == "playing" and msg["version"] > 0:
                    waiting_since = now  # the bot is to move
    return out


async def flood_tables(base: str, count: int) -> dict[str, int]:
    """Fresh guests of address 10.0.0.66 each ask for a table of four Strong bots; returns how
    many were made and refused."""
    made = refused = 0
    fwd = {"X-Forwarded-For": "10.0.0.66"}
    async with httpx.AsyncClient(base_url=base, timeout=60, headers=fwd) as http:
        for i in range(count):
            http.cookies.clear()
            r = await http.post("/api/guest", json={"name": f"f{i}"})
            if r.status_code != 200:
                refused += 1
                continue
            cookie = f"septet_token={r.cookies['septet_token']}"
            http.cookies.clear()
            body = {"game": "flip7", "options": {}, "seats": ["bot:strong"] * 4}
            r = await http.post("/api/tables", headers={"Cookie": cookie}, json=body)
            if r.status_code == 200:
                made += 1
            else:
                refused += 1
    return {"made": made, "refused": refused}


def _quantiles(lat: list[float]) -> dict[str, Any]:
    return {"replies": len(lat), "p50_ms": round(percentile(lat, 0.5), 1),
            "p99_ms": round(percentile(lat, 0.99), 1)}  # fmt: skip


async def flood_run(args: argparse.Namespace, base: str) -> list[dict[str, Any]]:
    rows = []
    calm = await reply_times(base, "10.0.0.7", args.seconds, args.reply_bot, args.think)
    rows.append({"condition": "no flood", **_quantiles(calm)})
    flood = await flood_tables(base, args.flood_tables)
    await asyncio.sleep(1.0)
    busy = await reply_times(base, "10.0.0.7", args.seconds, args.reply_bot, args.think)
    rows.append({"condition": "flood", **flood, **_quantiles(busy)})
    return rows


def flood_bench(args: argparse.Namespace) -> list[dict[str, Any]]:
    db = FreshDatabase(args.db)
    port = free_port()
    proc = start_server(db.url, port, args.bot_delay, "--trust-proxy", "--bot-workers",
                        str(args.bot_workers))  # fmt: skip
    try:
        rows = asyncio.run(flood_run(args, f"http://127.0.0.1:{port}"))
    finally:
        stop(proc)
        db.close()
    for row in rows:
        row["p99_vs_no_flood"] = round(row["p99_ms"] / rows[0]["p99_ms"], 3)
        extra = (
            f"  (flood tables made {row['made']}, refused {row['refused']})"
            if "made" in row
            else ""
        )
        print(
            f"{row['condition']:>8}: the other table's {args.reply_bot} bot replied "
            f"{row['replies']} times, p50 {row['p50_ms']:>7} ms  p99 {row['p99_ms']:>7} ms  "
            f"(p99 x{row['p99_vs_no_flood']} of no flood){extra}",
            flush=True,
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("mode", nargs="?", choices=["moves", "health", "flood"], default="moves")
    ap.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--game", default="flip7")
    ap.add_argument("--bots", type=int, default=1, help="bots per table (besides the person)")
    ap.add_argument(
        "--bot-delay", type=float, default=0.8, help="seconds before a bot moves (as serve)"
    )
    ap.add_argument("--think", type=float, default=1.0, help="mean thinking time of a person")
    ap.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--redis", default="", help="Redis URL (for --layout two/both)")
    ap.add_argument("--layout", choices=["one", "two", "both"], default="one")
    ap.add_argument("--server", default="", help="use a running server at this URL instead")
    ap.add_argument("--before", default="", help="a source tree (folder) to run first as the "
                    "baseline of each row (PYTHONPATH=<tree>/src), then this one")  # fmt: skip
    ap.add_argument("--profile", default="", help="py-spy binary: record the first server "
                    "(bench/results/profile-<tables>-<layout>.txt, collapsed stacks)")  # fmt: skip
    ap.add_argument("--bot-tables", type=int, default=12, help="health: tables of 4 ISMCTS bots")
    ap.add_argument("--bot-workers", type=int, default=2, help="health, flood: the bot processes")
    ap.add_argument("--flood-tables", type=int, default=60, help="flood: tables asked for")
    ap.add_argument("--reply-bot", default="normal", help="flood: the other table's bot")
    ap.add_argument("--cprofile", action="store_true", help="run each server under "
                    "cProfile (bench/cprof_serve.py), print its top functions")  # fmt: skip
    args = ap.parse_args()
    global CPROFILE
    CPROFILE = args.cprofile
    benches = {"health": health_bench, "flood": flood_bench, "moves": moves_bench}
    rows = benches[args.mode](args)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    name = "bench_server.json" if args.mode == "moves" else f"bench_server_{args.mode}.json"
    result = {
        "benchmark": f"bench_server {args.mode}",
        "game": args.game,
        "bots_per_table": args.bots,
        "bot_delay_s": args.bot_delay,
        "think_s": args.think,
        "db": "sqlite" if not args.db else args.db.split(":")[0],
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "rows": rows,
    }
    (out / name).write_text(json.dumps(result, indent=1))
    print(f"wrote {out / name}")
    for prof in PROFILES:
        if prof.exists():
            print_profile(prof)


if __name__ == "__main__":
    main()
