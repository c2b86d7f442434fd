"""Pydantic schemas of what clients send: HTTP bodies and WebSocket messages.

Everything a client sends is validated here before the server looks at it: lengths are bounded,
unknown fields are refused, and the game itself validates options (``OptionError``) and moves
(``IllegalActionError``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]
OptionValue = Annotated[str, StringConstraints(max_length=64)] | int | float | bool


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GuestIn(_Strict):
    """``POST /api/guest``: the display name of a new (or renamed) guest."""

    name: Name


class SeatIn(_Strict):
    """One seat of a new table: a person, or a bot named by its agent spec."""

    kind: Literal["human", "bot"] = "human"
    bot: Annotated[str, StringConstraints(max_length=32)] | None = None


class TableIn(_Strict):
    """``POST /api/tables``: the game, its options and the seats (their number is the number of
    players)."""

    game: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    options: dict[Annotated[str, StringConstraints(max_length=40)], OptionValue] = Field(
        default_factory=dict, max_length=24
    )
    seats: list[SeatIn] = Field(min_length=1, max_length=12)


class JoinIn(_Strict):
    """``POST /api/tables/{id}/join``: a seat index, or none for the first free one."""

    seat: Annotated[int, Field(ge=0, le=11)] | None = None


class MoveMsg(_Strict):
    """WebSocket: play ``action`` (notation) on state ``version``."""

    type: Literal["move"]
    version: Annotated[int, Field(ge=0)]
    action: Annotated[str, StringConstraints(min_length=1, max_length=300)]


class ReplaceMsg(_Strict):
    """WebSocket: hand an absent player's seat to a bot."""

    type: Literal["replace"]
    seat: Annotated[int, Field(ge=0, le=11)]


class PingMsg(_Strict):
    """WebSocket: keep-alive; answered with ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[MoveMsg | ReplaceMsg | PingMsg, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[MoveMsg | ReplaceMsg | PingMsg] = TypeAdapter(ClientMessage)
"""Validates a client's WebSocket message (``CLIENT_MESSAGE.validate_json(text)``)."""
