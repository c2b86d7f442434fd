"""The score keeper at the real table (``/score``): shared score sheets for Flip 7, Double
Seven and Seven Shot, the Flip 7 odds, printable sheets and the JSON scoring API.

- :mod:`.sheet`: sheets, their operations (add, edit, delete, rename, undo, redo) and standings,
  scored by the engines' ``scoring`` modules (no rule is written here);
- :mod:`.models`: the sheets' tables (SQLAlchemy, on the server's declarative base; Alembic
  revision 0003 creates them); :mod:`.store`: reads and guarded appends;
- :mod:`.odds`: the Flip 7 advice of ``septet advise flip7`` for the odds page;
- :mod:`.api`: the HTTP routes (``/api/score/...``), the WebSocket hub (``/ws/score/{id}``) and
  the pages.

See ``docs/score.md``. This package imports nothing at import time, so that
:mod:`septet.server.db` can register :mod:`.models` on its base alone.
"""
