"""The compiled search for Double Seven only: :mod:`septet.fast._search_body` run with this game's
kernel bound, so that numba compiles and caches this game's code alone (``search_double_seven.*``
cache files). See :mod:`septet.fast.search`."""

from __future__ import annotations

import inspect

from septet.fast import _search_body
from septet.fast import double_seven as _kernel

exec(compile(inspect.getsource(_search_body), __file__, "exec"))
K = _kernel
G = 1
ROLLOUT = _kernel.playout_fast
