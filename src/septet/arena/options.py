"""Game options from the command line (``--option target=100``) and the shared CLI error helper.

Options arrive as strings; :func:`parse_options` converts each to the type of the field of the
game's options dataclass (``bool``, ``int``, ``float``, ``str``, ``Literal[...]``, an ``Enum``,
``X | None``, a tuple of those) and raises :class:`OptionError` with a sentence otherwise. The
game's own ``__post_init__`` then checks the values.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from septet.core.errors import OptionError
from septet.core.game import Game

_TRUE = {"1", "true", "yes", "y", "on"}
_FALSE = {"0", "false", "no", "n", "off"}


def _coerce(name: str, text: str, tp: Any) -> Any:
    """Convert ``text`` to type ``tp`` (a resolved annotation); raise OptionError."""
    origin = typing.get_origin(tp)
    if tp is Any or tp is object:
        return text
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if type(None) in args and text.strip().lower() in ("none", "null", ""):
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(name, text, arg)
            except OptionError as exc:
                errors.append(str(exc))
        raise OptionError("; ".join(errors) or f"option {name}: bad value {text!r}")
    if origin is typing.Literal:
        choices = typing.get_args(tp)
        for choice in choices:
            if str(choice).lower() == text.strip().lower():
                return choice
        raise OptionError(
            f"option {name} must be one of {', '.join(str(c) for c in choices)}, not {text!r}"
        )
    if origin in (tuple, list, frozenset, set):
        args = typing.get_args(tp)
        item_tp = args[0] if args else str
        items = [t for t in (s.strip() for s in text.split(",")) if t]
        values = [_coerce(name, item, item_tp) for item in items]
        return origin(values)
    if tp is bool:
        low = text.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionError(f"option {name} is true or false, not {text!r}")
    if tp is int:
        try:
            return int(text.strip())
        except ValueError:
            raise OptionError(f"option {name} is a whole number, not {text!r}") from None
    if tp is float:
        try:
            return float(text.strip())
        except ValueError:
            raise OptionError(f"option {name} is a number, not {text!r}") from None
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        for member in tp:
            if text.strip().lower() in (str(member.value).lower(), member.name.lower()):
                return member
        raise OptionError(
            f"option {name} must be one of {', '.join(str(m.value) for m in tp)}, not {text!r}"
        )
    return text.strip()


def parse_options(game_cls: type[Game[Any]], items: Iterable[str]) -> dict[str, Any]:
    """Read ``["target=100", "edition=classic"]`` into typed keyword options for ``game_cls``.

    Raises:
        OptionError: an item without ``=``, an unknown option (the message lists the known
            ones), or a value that does not convert to the option's type.
    """
    fields = {f.name: f for f in dataclasses.fields(game_cls.options_type)}
    try:
        hints = typing.get_type_hints(game_cls.options_type)
    except Exception:  # unresolvable annotations: fall back to the defaults' types
        hints = {}
    out: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or not key:
            raise OptionError(f"option {item!r} is not of the form name=value")
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise OptionError(f"{game_cls.name} has no option {key!r}; options are: {known}")
        tp = hints.get(key)
        if tp is None:
            default = fields[key].default
            tp = type(default) if default is not dataclasses.MISSING else str
        out[key] = _coerce(key, value, tp)
    return out


def make_game(name: str, items: Iterable[str] = ()) -> Game[Any]:
    """The registered game ``name`` with the command-line options ``items`` (``k=v`` strings).

    Raises:
        UnknownGameError: no such game.
        OptionError: a bad option (see :func:`parse_options`) or a value the game rejects.
    """
    from septet import games

    cls = games.game_class(name)
    return cls(**parse_options(cls, items))


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping each spec's own ``key=value``
    parameters: ``"you,ismcts:iterations=200,rollout=greedy,random"`` gives ``["you",
    "ismcts:iterations=200,rollout=greedy", "random"]`` (a piece with ``=`` but no ``:`` continues
    the spec before it)."""
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if out and "=" in piece and ":" not in piece and ":" in out[-1]:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def build_agent(spec: str, game: Game[Any]) -> Any:
    """``septet.bots.make_agent(spec, game)``, with any failure of a bot's factory (a missing
    module, a bad parameter) turned into :class:`OptionError`-style sentences.

    Raises:
        AgentSpecError: unknown agent or bad parameters.
        OptionError: the bot could not be built for another reason.
    """
    from septet.bots import make_agent
    from septet.core.errors import SeptetError

    try:
        return make_agent(spec, game)
    except SeptetError:
        raise
    except Exception as exc:  # a bot that fails to build is the user's problem to hear about
        raise OptionError(f"agent {spec!r} cannot be built for {game.name}: {exc}") from exc


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn Septet's errors (unknown game, option, agent, record) into ``error: ...`` on stderr
    and exit code 2, for Typer commands (never a traceback)."""
    import typer
    from rich.console import Console
    from rich.markup import escape

    from septet.core.errors import SeptetError

    try:
        yield
    except SeptetError as exc:
        Console(stderr=True, soft_wrap=True).print(
            f"[red]error:[/red] {escape(str(exc))}", highlight=False
        )
        raise typer.Exit(2) from None


def probe_writable(path: Path) -> None:
    """Check, before a long run, that the file ``path`` can be written: its folder is created
    and the file opened for appending; a file that did not exist is removed again.

    Raises:
        OSError: the folder or the file cannot be written.
    """
    existed = path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8"):
        pass
    if not existed:
        path.unlink()


__all__ = [
    "build_agent",
    "make_game",
    "parse_options",
    "probe_writable",
    "split_specs",
    "user_errors",
]
