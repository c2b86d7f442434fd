"""Turn-based tables (issue 28): the injected clock, deadlines and the sweeper that enforces
them, and the "your turn" notices sent to a player's open pages.

- :mod:`~septet.server.turns.clock`: the one clock every deadline is decided by.
- :mod:`~septet.server.turns.models`: the timeout log (``septet_timeouts``).
- :mod:`~septet.server.turns.deadlines`: the table options ``pace`` / ``turn_hours`` /
  ``on_timeout``, when a move is due, the store's queries.
- :mod:`~septet.server.turns.sweeper`: plays the move of a missed deadline, exactly once.
- :mod:`~septet.server.turns.notify`: the per-player sockets (``/ws/me``) and their fan-out.

This package is imported by :mod:`septet.server.db` (its models), so it imports nothing here.
"""
