"""Integer action encodings declared as a versioned list of kinds (issue 17, item 4).

A game's player actions get fixed integer ids (``Game.action_to_id``) that trained policies
depend on. Instead of offsets computed by hand, an engine declares an :class:`ActionEncoding`:
an ordered list of :class:`ActionKind`, each with its arguments (:class:`Arg`: a name and a range
of small integers) and, where not every combination exists, a constraint. The ids follow:

- kinds take consecutive blocks of ids, in the order declared;
- inside a kind, its argument tuples are numbered in lexicographic order (the first argument
  the most significant), skipping the tuples the constraint refuses.

Any edit that moves an id must raise ``version``: environments carry it in their metadata and
records in ``action_encoding``; tests pin a sample of ids of every game.

The same declaration gives the *compact* form of an action (a short sequence of small choices:
the kind, then each argument in turn, see :class:`ChoiceSequence`), the tokens of the
information-state history, and the documentation table (:meth:`ActionEncoding.markdown`).
Chance outcomes are declared the same way (``chance_kinds``) for the history; they have no ids.

Standard library only.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

Args = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of an action kind: an integer in ``range(start, start + size)``.

    Attributes:
        name: e.g. ``"seat"``, ``"tile"``, ``"animals"``.
        size: how many values (0 makes the kind empty).
        start: the first value (``1`` for a count that is never 0).
        meaning: one line for the documentation.
    """

    name: str
    size: int
    start: int = 0
    meaning: str = ""

    @property
    def values(self) -> range:
        """The values this argument takes."""
        return range(self.start, self.start + self.size)


@dataclass(frozen=True, slots=True)
class ActionKind:
    """A kind of action and its arguments.

    Attributes:
        name: the kind's name, usually the first word of its notation (``"expand"``).
        args: its arguments, most significant first.
        meaning: one line for the documentation (with the rule id).
        where: a constraint on the argument values (``lambda a, b: a < b``), or ``None`` when
            every combination is an action.
        where_text: the constraint in words, for the documentation.
    """

    name: str
    args: tuple[Arg, ...] = ()
    meaning: str = ""
    where: Callable[..., bool] | None = None
    where_text: str = ""

    def tuples(self) -> Iterable[Args]:
        """Every argument tuple of the kind, in id order."""
        combos = itertools.product(*(a.values for a in self.args))
        if self.where is None:
            return combos
        where = self.where
        return (t for t in combos if where(*t))


class ActionEncoding:
    """The integer encoding of a game's player actions for one player count.

    Args:
        game: the game's registry name (for messages and the fingerprint).
        version: raise it whenever an id moves.
        kinds: the player-action kinds, in id order.
        chance_kinds: the chance-outcome kinds (no ids; for history tokens).
        args_of: ``action -> (kind name, argument values)`` for every player action and chance
            outcome of the game; raises ``ValueError`` for anything else.
        build: ``(kind name, argument values) -> action``, the inverse of ``args_of``.

    Raises:
        ValueError: two kinds with the same name.
    """

    def __init__(
        self,
        game: str,
        version: int,
        kinds: Sequence[ActionKind],
        args_of: Callable[[Hashable], tuple[str, Args]],
        build: Callable[[str, Args], Hashable],
        chance_kinds: Sequence[ActionKind] = (),
    ) -> None:
        self.game = game
        self.version = version
        self.kinds: tuple[ActionKind, ...] = tuple(kinds)
        self.chance_kinds: tuple[ActionKind, ...] = tuple(chance_kinds)
        self._args_of = args_of
        self._build = build
        self.kind_index: dict[str, int] = {}
        """Index of each kind, player kinds first, then chance kinds."""
        for i, k in enumerate(self.kinds + self.chance_kinds):
            if k.name in self.kind_index:
                raise ValueError(f"{game}: two action kinds named {k.name!r}")
            self.kind_index[k.name] = i
        self.offsets: dict[str, int] = {}
        """First id of each player-action kind."""
        self.sizes: dict[str, int] = {}
        """Number of ids of each player-action kind."""
        self._tables: dict[str, tuple[list[Args], dict[Args, int]]] = {}
        at = 0
        for k in self.kinds:
            self.offsets[k.name] = at
            if k.where is None:
                n = 1
                for a in k.args:
                    n *= a.size
            else:
                listed = list(k.tuples())
                self._tables[k.name] = (listed, {t: i for i, t in enumerate(listed)})
                n = len(listed)
            self.sizes[k.name] = n
            at += n
        self.size: int = at
        """Number of player-action ids."""
        self._starts = [self.offsets[k.name] for k in self.kinds]
        self._by_name = {k.name: k for k in self.kinds + self.chance_kinds}
        self._id_cache: dict[Hashable, int] = {}
        self._action_cache: dict[int, Hashable] = {}

    def __repr__(self) -> str:
        return f"<ActionEncoding {self.game} v{self.version}: {self.size} ids>"

    # ----- ids ----------------------------------------------------------------------------
    def kind(self, name: str) -> ActionKind:
        """The kind called ``name`` (player or chance).

        Raises:
            KeyError: no such kind.
        """
        return self._by_name[name]

    def encode(self, kind: str, args: Args) -> int:
        """The id of the player action ``kind(args)``.

        Raises:
            ValueError: not a player kind, an argument out of range, or refused by the kind's
                constraint.
        """
        k = self._by_name.get(kind)
        if k is None or kind not in self.offsets:
            raise ValueError(f"{self.game}: {kind!r} is not a player-action kind")
        if len(args) != len(k.args):
            raise ValueError(f"{self.game}: {kind} takes {len(k.args)} arguments, not {args!r}")
        table = self._tables.get(kind)
        if table is not None:
            i = table[1].get(tuple(args))
            if i is None:
                raise ValueError(f"{self.game}: {kind}{tuple(args)} is not in the encoding")
            return self.offsets[kind] + i
        i = 0
        for a, v in zip(k.args, args, strict=True):
            if not a.start <= v < a.start + a.size:
                raise ValueError(
                    f"{self.game}: {kind} argument {a.name}={v} outside "
                    f"{a.start}..{a.start + a.size - 1}"
                )
            i = i * a.size + (v - a.start)
        return self.offsets[kind] + i

    def decode(self, action_id: int) -> tuple[str, Args]:
        """``(kind name, argument values)`` of a player-action id.

        Raises:
            ValueError: ``action_id`` outside ``range(size)``.
        """
        if not 0 <= action_id < self.size:
            raise ValueError(f"{self.game}: action id {action_id} out of range({self.size})")
        lo, hi = 0, len(self.kinds) - 1
        while lo < hi:  # the last kind starting at or before the id (skips empty kinds)
            mid = (lo + hi + 1) // 2
            if self._starts[mid] <= action_id:
                lo = mid
            else:
                hi = mid - 1
        k = self.kinds[lo]
        i = action_id - self._starts[lo]
        table = self._tables.get(k.name)
        if table is not None:
            return k.name, table[0][i]
        values = []
        for a in reversed(k.args):
            i, r = divmod(i, a.size)
            values.append(a.start + r)
        return k.name, tuple(reversed(values))

    def args_of(self, action: Hashable) -> tuple[str, Args]:
        """``(kind name, argument values)`` of a player action or chance outcome.

        Raises:
            ValueError: not an action of the game.
        """
        return self._args_of(action)

    def id_of(self, action: Hashable) -> int:
        """The id of a player action (cached).

        Raises:
            ValueError: not a player action of the encoding.
        """
        try:
            return self._id_cache[action]
        except KeyError:
            pass
        kind, args = self._args_of(action)
        i = self.encode(kind, args)
        self._id_cache[action] = i
        return i

    def action(self, action_id: int) -> Hashable:
        """The player action with id ``action_id`` (cached).

        Raises:
            ValueError: id out of range.
        """
        try:
            return self._action_cache[action_id]
        except KeyError:
            pass
        act = self._build(*self.decode(action_id))
        self._action_cache[action_id] = act
        return act

    # ----- compact form -------------------------------------------------------------------
    @property
    def max_args(self) -> int:
        """The most arguments a player-action kind has."""
        return max((len(k.args) for k in self.kinds), default=0)

    @property
    def compact_size(self) -> int:
        """Choices per step of the compact form: the most of the number of kinds and of any
        argument's values."""
        sizes = [len(self.kinds)] + [a.size for k in self.kinds for a in k.args]
        return max(sizes)

    def compact_path(self, action_id: int) -> Args:
        """The compact form of an id: ``(kind index, argument 0 - start, argument 1 - start,
        ...)``, each below :attr:`compact_size`."""
        kind, args = self.decode(action_id)
        k = self._by_name[kind]
        return (self.kind_index[kind], *(v - a.start for a, v in zip(k.args, args, strict=True)))

    @property
    def choice_tensor_size(self) -> int:
        """Length of :meth:`choice_tensor`: kinds + max_args x compact_size + max_args + 1."""
        return len(self.kinds) + self.max_args * self.compact_size + self.max_args + 1

    def choice_tensor(self, prefix: Sequence[int]) -> list[float]:
        """The progress of a compact choice, for a policy's input: the kind chosen (one-hot over
        the kinds), each argument chosen so far (one-hot over ``compact_size`` each), and which
        choice comes next (one-hot over ``max_args + 1``). Length :attr:`choice_tensor_size`."""
        kinds, width = len(self.kinds), self.compact_size
        out = [0.0] * self.choice_tensor_size
        if prefix:
            out[prefix[0]] = 1.0
            for j, v in enumerate(prefix[1:]):
                out[kinds + j * width + v] = 1.0
        out[kinds + self.max_args * width + len(prefix)] = 1.0
        return out

    # ----- documentation ------------------------------------------------------------------
    def fingerprint(self) -> str:
        """A short text that changes whenever an id could move (kinds, arguments, constraints'
        sizes): tests pin it with the version."""
        parts = [f"{self.game}/v{self.version}"]
        for k in self.kinds:
            args = ",".join(f"{a.name}:{a.start}+{a.size}" for a in k.args)
            parts.append(f"{k.name}({args})={self.sizes[k.name]}")
        return ";".join(parts)

    def markdown(self) -> str:
        """The encoding as a Markdown table: kind, arguments, first id, number of ids."""
        lines = [
            f"Encoding `{self.game}` version {self.version}: {self.size} ids.",
            "",
            "| first id | ids | kind | arguments | meaning |",
            "|---|---|---|---|---|",
        ]
        for k in self.kinds:
            args = ", ".join(
                f"{a.name} {a.start}..{a.start + a.size - 1}" if a.size else f"{a.name} (none)"
                for a in k.args
            )
            if k.where_text:
                args += f" ({k.where_text})"
            lines.append(
                f"| {self.offsets[k.name]} | {self.sizes[k.name]} | `{k.name}` | {args or '–'} | "
                f"{k.meaning} |"
            )
        return "\n".join(lines)


class ChoiceSequence:
    """One decision made as a short sequence of small choices (the compact action form).

    The first choice is the kind (its index in ``encoding.kinds``), then each argument in turn
    (its value minus the argument's start). Only choices that lead to a legal action are
    offered; a choice with a single option is made automatically, except that the first choice
    of a decision is always left to the player.

    Args:
        encoding: the game's encoding.
        legal_ids: the legal player-action ids of the decision (not empty).

    Raises:
        ValueError: no legal ids.
    """

    __slots__ = ("_paths", "encoding", "prefix")

    def __init__(self, encoding: ActionEncoding, legal_ids: Iterable[int]) -> None:
        self.encoding = encoding
        self._paths: dict[Args, int] = {encoding.compact_path(i): i for i in legal_ids}
        if not self._paths:
            raise ValueError("no legal actions to choose from")
        self.prefix: list[int] = []

    def options(self) -> list[int]:
        """The choices allowed now, in increasing order."""
        k = len(self.prefix)
        pre = tuple(self.prefix)
        return sorted({p[k] for p in self._paths if p[:k] == pre and len(p) > k})

    def done(self) -> int | None:
        """The chosen action's id once the sequence is complete, else ``None``."""
        return self._paths.get(tuple(self.prefix))

    def choose(self, choice: int) -> int | None:
        """Make one choice, then every forced one after it; returns the action id once
        complete, else ``None``.

        Raises:
            ValueError: ``choice`` is not among :meth:`options` (nothing changes).
        """
        if choice not in self.options():
            raise ValueError(f"choice {choice} is not allowed now; allowed: {self.options()}")
        self.prefix.append(choice)
        while self.done() is None:
            opts = self.options()
            if len(opts) != 1:
                break
            self.prefix.append(opts[0])
        return self.done()


__all__ = ["ActionEncoding", "ActionKind", "Arg", "Args", "ChoiceSequence"]
