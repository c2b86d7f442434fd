"""The arena: many games between agents, seats rotated, with statistics, ratings and plots.

- :mod:`septet.arena.stats`: Wilson intervals, score summaries, seat advantage (standard library).
- :mod:`septet.arena.schedule`: which agents sit where in game ``i``, and its seed.
- :mod:`septet.arena.runner`: play the schedule in-process, in worker processes or on Ray.
- :mod:`septet.arena.report`: per-agent tables, openskill ratings, result files and plots.
- :mod:`septet.arena.cli`: ``septet simulate`` and ``septet bench``.
- :func:`match`: the same as ``septet simulate``, from Python, returning the report.
"""

from septet.arena.match import match

__all__ = ["match"]
