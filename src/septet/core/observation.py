"""Observation tensors declared as named pieces (the model: OpenSpiel's observers, e.g.
``open_spiel/python/games/kuhn_poker.py``, whose ``pieces`` list gives the flat tensor, its size
and its named views).

An engine declares its observation once, as an :class:`ObservationSpec`: an ordered list of
:class:`Piece` (name, shape, meaning, true bounds). Everything else follows from it: the offsets
the encoder writes at, the tensor's length (``Game.observation_size``), the bounds of the RL
spaces, the normalised option, the named dict view (``spec.as_dict(tensor)``) and the layout
table of the documentation (``spec.markdown()``). Standard library only.

>>> spec = ObservationSpec([
...     Piece("hand", (3,), "cards held, one per card", 0, 1),
...     Piece("score", (2,), "points of each seat, me first", 0, 10),
... ])
>>> spec.size, spec.offsets["score"]
(5, 3)
>>> spec.as_dict([1.0, 0.0, 1.0, 4.0, 7.0])["score"]
[4.0, 7.0]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Piece:
    """One named block of an observation tensor.

    Attributes:
        name: a short identifier (``"hand"``, ``"taken"``), unique in its spec.
        shape: the block's shape, row-major (``(n, 49)``: one row of 49 per seat); its size is the
            product (``()`` is one value).
        meaning: one line for the documentation table: what each value is, its unit or scale.
        low: the least value any element can take, in every reachable position (a float, or one
            float per element).
        high: the greatest value (a float, or one per element); ``high >= low`` everywhere.

    Raises:
        ValueError: a negative dimension, a per-element bound of the wrong length, or ``high <
            low``.
    """

    name: str
    shape: tuple[int, ...]
    meaning: str
    low: float | tuple[float, ...] = 0.0
    high: float | tuple[float, ...] = 1.0

    def __post_init__(self) -> None:
        if any(d < 0 for d in self.shape):
            raise ValueError(f"piece {self.name!r}: negative dimension in {self.shape}")
        lows, highs = self.lows(), self.highs()
        if any(h < lo for lo, h in zip(lows, highs, strict=True)):
            raise ValueError(f"piece {self.name!r}: a high bound below its low bound")

    @property
    def size(self) -> int:
        """Number of values: the product of ``shape``."""
        return math.prod(self.shape)

    def _expand(self, bound: float | tuple[float, ...], which: str) -> tuple[float, ...]:
        if isinstance(bound, tuple):
            if len(bound) != self.size:
                raise ValueError(
                    f"piece {self.name!r}: {len(bound)} {which} bounds for {self.size} values"
                )
            return tuple(float(b) for b in bound)
        return (float(bound),) * self.size

    def lows(self) -> tuple[float, ...]:
        """The low bound of each element (length ``size``)."""
        return self._expand(self.low, "low")

    def highs(self) -> tuple[float, ...]:
        """The high bound of each element (length ``size``)."""
        return self._expand(self.high, "high")


def _bound_text(b: float | tuple[float, ...]) -> str:
    if isinstance(b, tuple):
        distinct = sorted(set(b))
        if len(distinct) == 1:
            return _bound_text(distinct[0])
        return f"{_bound_text(distinct[0])}..{_bound_text(distinct[-1])} (per value)"
    return f"{b:g}"


def _reshape(flat: list[Any], shape: tuple[int, ...]) -> Any:
    if len(shape) <= 1:
        return flat if shape else flat[0]
    step = len(flat) // shape[0]
    return [_reshape(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


class ObservationSpec:
    """The layout of an observation tensor: an ordered list of :class:`Piece`.

    Args:
        pieces: the blocks, in tensor order.
        title: an optional heading for :meth:`markdown`.

    Raises:
        ValueError: two pieces with the same name.
    """

    __slots__ = ("_high", "_low", "offsets", "pieces", "size", "title")

    def __init__(self, pieces: Iterable[Piece], title: str = "") -> None:
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self.title = title
        self.offsets: dict[str, int] = {}
        """Start index of each piece, by name."""
        at = 0
        for p in self.pieces:
            if p.name in self.offsets:
                raise ValueError(f"two pieces named {p.name!r}")
            self.offsets[p.name] = at
            at += p.size
        self.size: int = at
        """Length of the flat tensor."""
        self._low: tuple[float, ...] | None = None
        self._high: tuple[float, ...] | None = None

    def __repr__(self) -> str:
        return f"ObservationSpec({self.size} values: {', '.join(p.name for p in self.pieces)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObservationSpec) and other.pieces == self.pieces

    def __hash__(self) -> int:
        return hash(self.pieces)

    # ----- lookup -------------------------------------------------------------------------
    def piece(self, name: str) -> Piece:
        """The piece called ``name``.

        Raises:
            KeyError: no such piece.
        """
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(f"no piece {name!r}; pieces: {', '.join(q.name for q in self.pieces)}")

    def slice(self, name: str) -> slice:
        """The flat index range of piece ``name``."""
        start = self.offsets[name]
        return slice(start, start + self.piece(name).size)

    def extend(self, *pieces: Piece, title: str = "") -> ObservationSpec:
        """A new spec with ``pieces`` appended (an information state built on an observation)."""
        return ObservationSpec(self.pieces + pieces, title or self.title)

    # ----- bounds -------------------------------------------------------------------------
    @property
    def low(self) -> tuple[float, ...]:
        """The low bound of every element (length ``size``)."""
        if self._low is None:
            self._low = tuple(v for p in self.pieces for v in p.lows())
        return self._low

    @property
    def high(self) -> tuple[float, ...]:
        """The high bound of every element (length ``size``)."""
        if self._high is None:
            self._high = tuple(v for p in self.pieces for v in p.highs())
        return self._high

    def out_of_bounds(self, tensor: Sequence[float]) -> list[str]:
        """Why ``tensor`` is not a valid observation: a wrong length, or each element outside its
        piece's bounds (``"taken[2] = 3 > 1"``); ``[]`` when it is valid."""
        if len(tensor) != self.size:
            return [f"length {len(tensor)}, expected {self.size}"]
        out: list[str] = []
        low, high = self.low, self.high
        for p in self.pieces:
            start = self.offsets[p.name]
            for i in range(p.size):
                v = float(tensor[start + i])
                if not low[start + i] <= v <= high[start + i]:
                    side = (
                        f"< {low[start + i]:g}" if v < low[start + i] else f"> {high[start + i]:g}"
                    )
                    out.append(f"{p.name}[{i}] = {v:g} {side}")
        return out

    def normalize(self, tensor: Sequence[float]) -> list[float]:
        """Each element mapped from ``[low, high]`` to ``[0, 1]`` (``(x - low) / (high - low)``;
        0 where ``high == low``). Length ``size``.

        Raises:
            ValueError: a tensor of the wrong length.
        """
        if len(tensor) != self.size:
            raise ValueError(f"tensor of length {len(tensor)}, expected {self.size}")
        return [
            (float(x) - lo) / (hi - lo) if hi > lo else 0.0
            for x, lo, hi in zip(tensor, self.low, self.high, strict=True)
        ]

    # ----- views --------------------------------------------------------------------------
    def zeros(self) -> list[float]:
        """A tensor of zeros to fill (length ``size``)."""
        return [0.0] * self.size

    def as_dict(self, tensor: Any) -> dict[str, Any]:
        """The tensor cut into its pieces, by name, each in its shape: nested lists for a list,
        reshaped views for an array that has ``reshape`` (NumPy, PyTorch). A piece of shape
        ``()`` is one value.

        Raises:
            ValueError: a tensor of the wrong length.
        """
        if len(tensor) != self.size:
            raise ValueError(f"tensor of length {len(tensor)}, expected {self.size}")
        out: dict[str, Any] = {}
        for p in self.pieces:
            start = self.offsets[p.name]
            block = tensor[start : start + p.size]
            if hasattr(block, "reshape"):
                out[p.name] = block.reshape(p.shape) if p.shape else block[0]
            else:
                out[p.name] = _reshape(list(block), p.shape)
        return out

    def markdown(self, symbols: dict[str, int] | None = None) -> str:
        """The layout as a Markdown table: offset, shape, bounds and meaning of each piece.

        Args:
            symbols: optional names for dimensions, shown instead of the numbers
                (``{"n": 3}`` writes a dimension of 3 as ``n``); offsets stay numeric.
        """
        sym = {v: k for k, v in (symbols or {}).items()}
        lines = []
        if self.title:
            lines += [f"**{self.title}** ({self.size} values)", ""]
        lines += ["| offset | piece | shape | low | high | meaning |", "|---|---|---|---|---|---|"]
        for p in self.pieces:
            shape = "×".join(sym.get(d, str(d)) for d in p.shape) or "1"
            lines.append(
                f"| {self.offsets[p.name]} | `{p.name}` | {shape} | {_bound_text(p.low)} | "
                f"{_bound_text(p.high)} | {p.meaning} |"
            )
        return "\n".join(lines)


__all__ = ["ObservationSpec", "Piece"]
