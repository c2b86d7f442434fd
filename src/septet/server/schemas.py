"""Pydantic schemas of what clients send: HTTP bodies and WebSocket messages.

Everything a client sends is validated here before the server looks at it: the JSON is strict
(:mod:`septet.server.strictjson`: no NaN, no infinities), the types are strict (``"version":
"8"`` is not 8, ``true`` is not 1), lengths are bounded, unknown fields are refused, and the game
itself validates options (``OptionError``) and moves (``IllegalActionError``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    field_validator,
)

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]
OptionValue = (
    Annotated[str, StringConstraints(max_length=64)]
    | bool
    | Annotated[int, Field(ge=-(10**9), le=10**9)]
    | Annotated[float, Field(allow_inf_nan=False, ge=-1e9, le=1e9)]
)
BotName = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class GuestIn(_Strict):
    """``POST /api/guest``: the display name of a new (or renamed) guest."""

    name: Name


class SeatIn(_Strict):
    """One seat of a new table: a person, or a bot named by its level (``easy``, ``normal``,
    ``strong``) or its agent spec (``greedy``)."""

    kind: Literal["human", "bot"] = "human"
    bot: BotName | None = None


def _seat_from_text(value: Any) -> Any:
    """A seat may also be written ``"human"`` or ``"bot:<level or spec>"``."""
    if isinstance(value, str):
        if value == "human":
            return {"kind": "human"}
        if value.startswith("bot:") and len(value) > 4:
            return {"kind": "bot", "bot": value[4:]}
        raise ValueError('a seat is "human", "bot:<level>" or {"kind": ..., "bot": ...}')
    return value


class TableIn(_Strict):
    """``POST /api/tables``: the game, its options and the seats (their number is the number of
    players). A seat: ``{"kind": "human"}``, ``{"kind": "bot", "bot": "easy"}``, or the short
    forms ``"human"`` and ``"bot:easy"`` / ``"bot:normal"`` / ``"bot:strong"`` /
    ``"bot:<spec>"``."""

    game: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    options: dict[Annotated[str, StringConstraints(max_length=40)], OptionValue] = Field(
        default_factory=dict, max_length=24
    )
    seats: list[SeatIn] = Field(min_length=1, max_length=12)

    @field_validator("seats", mode="before")
    @classmethod
    def _short_seats(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [_seat_from_text(v) for v in value]
        return value


class JoinIn(_Strict):
    """``POST /api/tables/{id}/join``: a seat index, or none for the first free one."""

    seat: Annotated[int, Field(ge=0, le=11)] | None = None


class MoveMsg(_Strict):
    """WebSocket: play ``action`` (notation) on state ``version``."""

    type: Literal["move"]
    version: Annotated[int, Field(ge=0, le=10**9)]
    action: Annotated[str, StringConstraints(min_length=1, max_length=300)]


class ReplaceMsg(_Strict):
    """WebSocket: hand an absent player's seat to a bot."""

    type: Literal["replace"]
    seat: Annotated[int, Field(ge=0, le=11)]


class ChatMsg(_Strict):
    """WebSocket: say ``text`` to the table (seated players; 1-200 characters once trimmed,
    checked by the table so that the errors are the chat's own)."""

    type: Literal["chat"]
    text: str


class PingMsg(_Strict):
    """WebSocket: keep-alive; answered with ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[MoveMsg | ReplaceMsg | ChatMsg | PingMsg, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[MoveMsg | ReplaceMsg | ChatMsg | PingMsg] = TypeAdapter(ClientMessage)
"""Validates a client's WebSocket message once parsed by ``strictjson.loads``
(``CLIENT_MESSAGE.validate_python(obj, strict=True)``)."""
