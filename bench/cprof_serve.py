"""Run ``septet serve`` with cProfile on its event loop's thread: ``bench_server.py --cprofile``.

    python bench/cprof_serve.py OUT.prof serve --port 8000 ...

The arguments after the output path are ``septet``'s. Profiling starts at SIGUSR1 and stops at
SIGUSR2, which writes the statistics to ``OUT.prof`` (so that the bench profiles its measured
window only, not the tables' creation); without the signals, the whole run is profiled and
written when the server stops. Read them with ``python -m pstats OUT.prof`` or the top entries
``bench_server.py`` prints. cProfile slows the profiled thread (every call is counted): its
figures are shares of the thread's time, not speeds.
"""

from __future__ import annotations

import cProfile
import signal
import sys
from typing import Any


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]
    from septet.cli import main as septet_main

    prof = cProfile.Profile()
    prof.enable()  # until SIGUSR1 says the window starts (then from there)
    state = {"signalled": False}

    def start(signum: int, frame: Any) -> None:
        state["signalled"] = True
        prof.disable()
        prof.clear()
        prof.enable()

    def stop(signum: int, frame: Any) -> None:
        prof.disable()
        prof.dump_stats(out)

    def term(signum: int, frame: Any) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    # uvicorn shuts down on SIGTERM, then raises the signal again with the handler it found:
    # this one, so that the statistics are written instead of the process dying of it.
    signal.signal(signal.SIGTERM, term)
    sys.argv = ["septet", *argv]
    try:
        septet_main()
    except SystemExit:
        pass
    finally:
        if not state["signalled"]:
            prof.disable()
            prof.dump_stats(out)


if __name__ == "__main__":
    main()
