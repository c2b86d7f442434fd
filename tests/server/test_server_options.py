"""The lobby's option descriptions (``septet.server.options``): kinds, choices derived from the
options dataclass (Literal types, metadata), Japanese help from the engines' metadata; and an empty
option value meaning "the default" when a table is created."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from septet import games
from septet.core.errors import OptionError
from septet.server.options import describe_options
from tests.server.conftest import new_guest


@dataclass(frozen=True)
class _Opts:
    mode: Literal["fast", "slow"] = "fast"
    level: Literal[1, 2, 3] | None = None
    colour: str = field(default="red", metadata={"choices": ("red", "blue"), "help": "colour"})
    name: str = field(default="x", metadata={"help": "any name: red or blue"})
    style: str = field(default="plain", metadata={"help": "plain or fancy (or wild)"})
    count: int = 3
    ratio: float = 0.5
    on: bool = True

    def __post_init__(self) -> None:
        if self.style not in ("plain", "fancy"):
            raise OptionError(f"style must be plain or fancy, not {self.style!r}")


def _by_name(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in items}


def test_describe_options_kinds_and_choices() -> None:
    opts = _by_name(describe_options("test", _Opts))
    assert [c["value"] for c in opts["mode"]["choices"]] == ["fast", "slow"]  # Literal
    assert [c["value"] for c in opts["level"]["choices"]] == [1, 2, 3]  # Literal | None
    assert [c["value"] for c in opts["colour"]["choices"]] == ["red", "blue"]  # metadata
    assert opts["name"]["choices"] is None and opts["name"]["kind"] == "text"  # free text
    # A validated string without a Literal type or metadata choices stays free text: choices
    # are never guessed from help texts.
    assert opts["style"]["choices"] is None and opts["style"]["kind"] == "text"
    kinds = {n: opts[n]["kind"] for n in ("count", "ratio", "on")}
    assert kinds == {"count": "int", "ratio": "float", "on": "bool"}
    assert opts["on"]["help_i18n"] == {"en": "", "ja": ""}


def test_bundled_games_choices_and_japanese_help() -> None:
    flip7 = _by_name(describe_options("flip7", games.game_class("flip7").options_type))
    edition = flip7["edition"]
    assert edition["kind"] == "choice" and edition["default"] == "vengeance"
    assert [(c["value"], c["ja"]) for c in edition["choices"]] == [
        ("vengeance", "復讐心とともに"),
        ("classic", "クラシック"),
    ]
    assert flip7["target"]["kind"] == "int" and flip7["target"]["choices"] is None
    assert flip7["target"]["help_i18n"]["ja"] == "勝利に必要な点数（標準200）"
    ds = _by_name(describe_options("double-seven", games.game_class("double-seven").options_type))
    assert [c["value"] for c in ds["double_seven"]["choices"]] == ["second_token", "two_families"]
    assert ds["rainbow"]["kind"] == "bool" and ds["rainbow"]["label"]["ja"] == "レインボー"


def test_games_endpoint_and_empty_option_means_default(client: Any) -> None:
    listed = {g["name"]: g for g in client.get("/api/games").json()}
    tiny = _by_name(listed["tiny-sevens"]["options"])["target"]
    assert (tiny["default"], tiny["help"], tiny["kind"], tiny["choices"]) == (7, "", "int", None)
    edition = _by_name(listed["flip7"]["options"])["edition"]
    assert [c["value"] for c in edition["choices"]] == ["vengeance", "classic"]
    cookie = {"Cookie": new_guest(client, "Aki")}
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    body = {"game": "tiny-sevens", "options": {"target": " "}, "seats": seats}
    r = client.post("/api/tables", json=body, headers=cookie)
    assert r.status_code == 200, r.text
    assert r.json()["options"] == {"target": 7}
    body["options"] = {"target": 0}
    r = client.post("/api/tables", json=body, headers=cookie)
    assert r.status_code == 400 and r.json()["error"] == "bad_game"
