"""Double Seven in words, English and Japanese: the table (from a view), actions, events and the
rules. Used by the terminal, logs and the web client; only views reach this module.

Player words only: tiles by their animal (「キツネ」), families as "3 foxes and 1 clover" /
「キツネ3枚＋クローバー1枚」, the rulebook's calls (Seven!, Double Seven!, Rainbow!, Clear! /
「空っぽ！」, Pass!). Seats are written ``P{n}`` for the consumer to replace with names
(``septet.core.text``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from septet.core.text import seat_ref
from septet.core.types import JSON, Event

from . import actions as A
from .tiles import (
    CLOVER,
    NAMES_EN,
    NAMES_JA,
    PLURALS_EN,
    Family,
    counts_from_json,
    family_from_str,
    tile_name,
)


def _ja(lang: str) -> bool:
    return lang == "ja"


def _list(items: Sequence[str], lang: str) -> str:
    items = list(items)
    if _ja(lang):
        return "、".join(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _a(tile: int, lang: str) -> str:
    """One tile in a sentence: ``"a fox"`` / ``"キツネ"``."""
    return tile_name(tile, lang) if _ja(lang) else f"a {NAMES_EN[tile]}"


def _count(tile: int, n: int, lang: str) -> str:
    """``"3 foxes"``, ``"1 clover"`` / ``"キツネ3枚"``."""
    if _ja(lang):
        return f"{NAMES_JA[tile]}{n}枚"
    return f"{n} {NAMES_EN[tile] if n == 1 else PLURALS_EN[tile]}"


def _tiles(counts: list[int], lang: str) -> str:
    parts = []
    for t, c in enumerate(counts):
        if c:
            name = tile_name(t, lang)
            parts.append(f"{name}×{c}" if c > 1 else name)
    return ("、" if _ja(lang) else ", ").join(parts) or ("なし" if _ja(lang) else "none")


def family_text(f: Family, lang: str = "en") -> str:
    """A family in words: ``"3 foxes and 1 clover"`` / ``"キツネ3枚＋クローバー1枚"``."""
    a, k, c = f
    text = _count(a, k, lang)
    if c:
        text += ("＋" if _ja(lang) else " and ") + _count(CLOVER, c, lang)
    return text


def _added(animal: int, k: int, c: int, lang: str) -> str:
    """Tiles added to a family: ``"2 foxes and 1 clover"`` / ``"キツネ2枚とクローバー1枚"``."""
    parts = []
    if k:
        parts.append(_count(animal, k, lang))
    if c:
        parts.append(_count(CLOVER, c, lang))
    return ("と" if _ja(lang) else " and ").join(parts)


def _fam_from_json(d: Mapping[str, Any]) -> Family:
    return (NAMES_EN.index(str(d["animal"])), int(d["animals"]), int(d["clovers"]))


def _fam(text: Any, lang: str) -> str:
    return family_text(family_from_str(str(text)), lang)


_PHASES_JA = {
    "deal": "配布",
    "first_player": "スタートプレイヤーを決める",
    "flip": "タイルをめくる",
    "draw": "ドロー",
    "rainbow": "レインボー！の宣言",
    "actions": "アクション",
    "two_for_one_draw": "2対1のトレードのドロー",
    "discard": "ターン終了の捨て札",
    "over": "ゲーム終了",
}
_PHASES_EN = {
    "deal": "setup",
    "first_player": "choosing who starts",
    "flip": "flip",
    "draw": "draw",
    "rainbow": "Rainbow?",
    "actions": "actions",
    "two_for_one_draw": "two-for-one draw",
    "discard": "end-of-turn discard",
    "over": "game over",
}


def _me(seat: int, me: Any, lang: str) -> str:
    ref = seat_ref(seat)
    if me is not None and seat == me:
        return ref + ("（あなた）" if _ja(lang) else " (you)")
    return ref


def render(view: Mapping[str, JSON], lang: str = "en") -> str:
    """The table as plain text (several lines) from a view: the reserve, the tokens, the end
    trigger, then each player's points, tokens, rack and families; at the end the winner and
    the tie-break."""
    ja = _ja(lang)
    n = int(view["num_players"])
    me = view["seat"]
    turn = int(view["turn"])
    lines = []
    phase = str(view["phase"])
    if phase == "over":
        lines.append("ダブルセブン — ゲーム終了" if ja else "Double Seven — game over")
    elif ja:
        ph = _PHASES_JA.get(phase, phase)
        who = f"{_me(turn, me, lang)}の手番" if turn >= 0 else "準備中"
        lines.append(f"ダブルセブン — {who}（{ph}）")
    else:
        ph = _PHASES_EN.get(phase, phase)
        who = f"{_me(turn, me, lang)} to play" if turn >= 0 else "setting up"
        lines.append(f"Double Seven — {who} ({ph})")
    display = _tiles(counts_from_json(view["display"]), lang)
    removed = _tiles(counts_from_json(view["removed"]), lang)
    holder = view["double_seven"]
    if ja:
        lines.append(f"山札（裏向き）{view['pile']}枚・表向き：{display}・除外：{removed}")
        t77 = "未獲得" if holder is None else f"{seat_ref(int(holder))}が獲得"
        lines.append(f"「7」トークン残り{view['sevens_left']}枚・「77」トークン：{t77}")
    else:
        lines.append(
            f"Reserve: {view['pile']} face down · face up: {display} · out of the game: {removed}"
        )
        t77 = "not taken yet" if holder is None else f"held by {seat_ref(int(holder))}"
        lines.append(f"7 tokens left: {view['sevens_left']} · 77 token: {t77}")
    if view["end_triggered_by"] is not None:
        by = seat_ref(int(view["end_triggered_by"]))
        lines.append(
            f"{by}がゲーム終了のきっかけを作った：他のプレイヤーは最後の手番を1回ずつ行う"
            if ja
            else f"{by} triggered the end of the game: everyone else plays one last turn"
        )
    for s in range(n):
        lines += _seat_lines(view, s, lang)
    scores = view["scores"]
    breakdown = view.get("score_breakdown")
    if phase == "over" and breakdown:
        lines.append("得点の内訳：" if ja else "Points by source:")
        for s, b in enumerate(breakdown):
            words = [family_text(_fam_from_json(f), lang) for f in view["families"][s]]
            lines.append("  " + _breakdown_text(seat_ref(s), b, words, lang))
    if view["winners"]:
        ws = [seat_ref(int(x)) for x in view["winners"]]
        if ja:
            lines.append("勝者：" + "・".join(ws))
        else:
            lines.append(("Winner: " if len(ws) == 1 else "Winners: ") + _list(ws, lang))
        tie = view.get("tie_break")
        if tie:
            lines.append(_tie_text(tie, scores, lang))
    return "\n".join(lines)


def _seat_lines(view: Any, s: int, lang: str) -> list[str]:
    """Seat ``s``: points, tokens and rack (its tiles for the viewer, else the size and the known
    tiles), then its families."""
    ja = _ja(lang)
    me = view["seat"]
    turn = int(view["turn"])
    phase = str(view["phase"])
    scores = view["scores"]
    lines = []
    mark = "▶ " if s == turn and phase != "over" else "  "
    rack = view["racks"][s]
    if s == me and view["rack"] is not None:
        rack_text = _tiles(counts_from_json(view["rack"]), lang)
    else:
        known = counts_from_json(rack["known"])
        size = int(rack["size"])
        rack_text = f"{size}枚" if ja else f"{size} tile{'s' if size != 1 else ''}"
        if sum(known):
            rack_text += (
                f"（公開：{_tiles(known, lang)}）" if ja else (f" (known: {_tiles(known, lang)})")
            )
    fams = [_fam_from_json(f) for f in view["families"][s]]
    fam_text = " | ".join(family_text(f, lang) for f in fams) or ("なし" if ja else "none")
    sevens = int(view["sevens"][s])
    if ja:
        tokens = f"、「7」トークン{sevens}枚" if sevens else ""
        if view["double_seven"] == s:
            tokens += "、「77」トークン"
        lines.append(f"{mark}{_me(s, me, lang)}：{scores[s]:g}点{tokens}・ラック：{rack_text}")
        lines.append(f"     家族：{fam_text}")
    else:
        tokens = f", {sevens} × 7 token{'s' if sevens != 1 else ''}" if sevens else ""
        if view["double_seven"] == s:
            tokens += ", the 77 token"
        lines.append(f"{mark}{_me(s, me, lang)}: {scores[s]:g} points{tokens} · rack: {rack_text}")
        lines.append(f"     families: {fam_text}")
    return lines


def _breakdown_text(who: str, b: Mapping[str, Any], fams: Sequence[str], lang: str) -> str:
    """A seat's points by source (DS-8.1), ``fams`` its families in words: ``"P1: 26 for family
    tiles (7 foxes, 8 swans …) + 2 for 7 tokens + 2 for the 77 token = 30"``."""
    ja = _ja(lang)
    if ja:
        text = f"{who}：家族のタイル{b['tile_points']}点"
        if fams:
            text += f"（{'、'.join(fams)}）"
        if b["sevens"]:
            text += f"＋「7」トークン{b['sevens']}点"
        if b["seventy_seven"]:
            text += f"＋「77」トークン{b['seventy_seven']}点"
        return text + f"＝{b['total']}点"
    text = f"{who}: {b['tile_points']} for family tiles"
    if fams:
        text += f" ({', '.join(fams)})"
    if b["sevens"]:
        text += f" + {b['sevens']} for 7 tokens"
    if b["seventy_seven"]:
        text += f" + {b['seventy_seven']} for the 77 token"
    return text + f" = {b['total']}"


def _tie_text(tie: Mapping[str, Any], scores: Sequence[Any], lang: str) -> str:
    """The tie-break in words (DS-8.2)."""
    ja = _ja(lang)
    tied = [seat_ref(int(s)) for s in tie["tied"]]
    pts = f"{float(scores[int(tie['tied'][0])]):g}"
    if tie.get("by") == "77":
        w = seat_ref(int(tie["winner"]))
        if ja:
            return f"{'と'.join(tied)}が{pts}点で同点。「77」トークンを持つ{w}の勝ち"
        return f"{_list(tied, lang)} tie on {pts} points; the 77 token gives {w} the win"
    if ja:
        return f"{'と'.join(tied)}が{pts}点で同点。勝利を分け合う"
    return f"{_list(tied, lang)} tie on {pts} points and share the win"


def describe_action(action: Any, lang: str = "en") -> str:
    """An action in player words (``"Start a family of 3 foxes"`` /
    ``"キツネ3枚で家族を作る"``); chance outcomes likewise."""
    ja = _ja(lang)
    if isinstance(action, A.Draw):
        return "裏向きのタイルを引く" if ja else "Draw a face-down tile"
    if isinstance(action, A.Take):
        t = tile_name(action.tile, lang)
        return f"表向きの{t}を取る" if ja else f"Take the face-up {t}"
    if isinstance(action, A.Rainbow):
        if action.declare:
            return "レインボー！を宣言する" if ja else "Declare Rainbow!"
        return "レインボー！を宣言しない" if ja else "Don't declare Rainbow"
    if isinstance(action, A.Start):
        f = family_text(action.family, lang)
        return f"{f}で家族を作る" if ja else f"Start a family of {f}"
    if isinstance(action, A.Expand):
        f = family_text(action.family, lang)
        add = _added(action.family[0], action.animals, action.clovers, lang)
        return f"{f}の家族に{add}を加える" if ja else f"Add {add} to your family of {f}"
    if isinstance(action, A.Exchange):
        f, g = family_text(action.family, lang), family_text(action.other, lang)
        q = seat_ref(action.seat)
        if ja:
            return f"自分の家族（{f}）を{q}の家族（{g}）と交換する"
        return f"Exchange your {f} for {q}'s {g}"
    if isinstance(action, A.Retrieve):
        f = family_text(action.family, lang)
        q = seat_ref(action.seat)
        t = tile_name(action.family[0], lang)
        if ja:
            return f"{q}の家族（{f}）のクローバーを自分の{t}と取り替える"
        return f"Take the clover from {q}'s family of {f}, putting your {t} in its place"
    if isinstance(action, A.TwoForOne):
        pair = _pair(action.first, action.second, lang)
        return f"2対1のトレード：{pair}を出す" if ja else f"Two for one: put out {pair}"
    if isinstance(action, A.Pass):
        return "パス！（手番を終える）" if ja else "Pass! (end your turn)"
    if isinstance(action, A.Discard):
        t = tile_name(action.tile, lang)
        return f"{t}を1枚捨てる（ゲームから除外）" if ja else f"Discard a {t} (out of the game)"
    if isinstance(action, A.Deal):
        return "タイルを1枚配る" if ja else "Deal a tile"
    if isinstance(action, A.FirstPlayer):
        who = seat_ref(action.seat)
        return f"{who}が最初のプレイヤー" if ja else f"{who} plays first"
    if isinstance(action, A.Flip):
        t = tile_name(action.tile, lang)
        return f"{t}を表向きにする" if ja else f"Turn a {t} face up"
    if isinstance(action, A.PileDraw):
        t = tile_name(action.tile, lang)
        return f"裏向きのタイルは{t}" if ja else f"The face-down tile is a {t}"
    return str(action)


def _pair(x: int, y: int, lang: str) -> str:
    """Two tiles: ``"a deer and a rabbit"``, ``"2 deer"`` / ``"鹿とウサギ"``, ``"鹿2枚"``."""
    if x == y:
        return _count(x, 2, lang)
    return f"{_a(x, lang)}{'と' if _ja(lang) else ' and '}{_a(y, lang)}"


def _tile(d: Mapping[str, Any], key: str) -> int:
    return NAMES_EN.index(str(d[key]))


def _event_en(k: str, who: str, d: Mapping[str, Any], seat: int | None) -> str | None:
    if k == "dealt":
        return f"{who} is dealt {_a(_tile(d, 'tile'), 'en')}"
    if k == "first_player":
        return f"{who} plays first"
    if k == "turn":
        return f"It is {who}'s turn"
    if k == "flip":
        return f"{_a(_tile(d, 'tile'), 'en').capitalize()} is turned face up"
    if k == "take":
        return f"{who} takes the face-up {tile_name(_tile(d, 'tile'))}"
    if k == "draw":
        return f"{who} draws a face-down tile"
    if k == "drew":
        return f"{who} drew {_a(_tile(d, 'tile'), 'en')}"
    if k == "rainbow":
        rack = _list([NAMES_EN[NAMES_EN.index(str(x))] for x in d["rack"]], "en")
        return f"Rainbow! {who} shows their rack ({rack}) to draw one more tile"
    if k == "start":
        return f"{who} starts a family of {_fam(d['family'], 'en')}"
    if k == "expand":
        old, new = family_from_str(str(d["family"])), family_from_str(str(d["new_family"]))
        add = _added(old[0], new[1] - old[1], new[2] - old[2], "en")
        return f"{who} adds {add} to their {family_text(old)}: now {family_text(new)}"
    if k == "seven":
        return f"Seven! {who}'s family reaches {_fam(d['family'], 'en')} and {who} takes a 7 token"
    if k == "double_seven":
        return f"Double Seven! {who} takes the 77 token"
    if k == "exchange":
        q = seat_ref(int(d["with_seat"]))
        f, g = _fam(d["family"], "en"), _fam(d["other"], "en")
        return f"{who} exchanges their {f} for {q}'s {g}"
    if k == "retrieve":
        fam = family_from_str(str(d["family"]))
        src = int(d["from_seat"])
        whose = "their own" if src == seat else f"{seat_ref(src)}'s"
        return (
            f"{who} takes the clover from {whose} family of {family_text(fam)}, putting "
            f"{_a(fam[0], 'en')} in its place"
        )
    if k == "two_for_one":
        x, y = (NAMES_EN.index(str(t)) for t in d["tiles"])
        return f"{who} puts {_pair(x, y, 'en')} face up to draw another tile (two for one)"
    if k == "clear":
        return f"Clear! {who}'s rack is empty"
    if k == "pass":
        return f"Pass! {who} ends their turn"
    if k == "discard":
        return f"{who} discards {_a(_tile(d, 'tile'), 'en')}: it leaves the game"
    if k == "end_triggered":
        if d.get("reason") == "double_seven":
            why = f"{who} took the 77 token"
        else:
            why = f"{who} drew the last tile"
        return f"{why}: after this turn everyone else plays one last turn"
    if k == "game_over":
        return "Game over: " + _game_over(d, "en")
    return None


def _event_ja(k: str, who: str, d: Mapping[str, Any], seat: int | None) -> str | None:
    if k == "dealt":
        return f"{who}に{tile_name(_tile(d, 'tile'), 'ja')}が配られた"
    if k == "first_player":
        return f"{who}から始める"
    if k == "turn":
        return f"{who}の手番"
    if k == "flip":
        return f"{tile_name(_tile(d, 'tile'), 'ja')}が表向きになった"
    if k == "take":
        return f"{who}が表向きの{tile_name(_tile(d, 'tile'), 'ja')}を取った"
    if k == "draw":
        return f"{who}が裏向きのタイルを引いた"
    if k == "drew":
        return f"{who}が引いたのは{tile_name(_tile(d, 'tile'), 'ja')}"
    if k == "rainbow":
        rack = _list([tile_name(NAMES_EN.index(str(x)), "ja") for x in d["rack"]], "ja")
        return f"レインボー！{who}がラックを公開し（{rack}）、もう1枚引く"
    if k == "start":
        return f"{who}が家族を作った：{_fam(d['family'], 'ja')}"
    if k == "expand":
        old, new = family_from_str(str(d["family"])), family_from_str(str(d["new_family"]))
        add = _added(old[0], new[1] - old[1], new[2] - old[2], "ja")
        return f"{who}が家族に{add}を加えた：{family_text(old, 'ja')} → {family_text(new, 'ja')}"
    if k == "seven":
        return f"セブン！{who}の家族が{_fam(d['family'], 'ja')}になり、{who}が「7」トークンを獲得"
    if k == "double_seven":
        return f"ダブルセブン！{who}が「77」トークンを獲得"
    if k == "exchange":
        q = seat_ref(int(d["with_seat"]))
        f, g = _fam(d["family"], "ja"), _fam(d["other"], "ja")
        return f"{who}が自分の家族（{f}）を{q}の家族（{g}）と交換した"
    if k == "retrieve":
        fam = family_from_str(str(d["family"]))
        src = int(d["from_seat"])
        whose = "自分" if src == seat else seat_ref(src)
        t = tile_name(fam[0], "ja")
        return (
            f"{who}が{whose}の家族（{family_text(fam, 'ja')}）のクローバーを{t}と取り替えて回収した"
        )
    if k == "two_for_one":
        x, y = (NAMES_EN.index(str(t)) for t in d["tiles"])
        return f"{who}が2対1のトレードで{_pair(x, y, 'ja')}を表向きに出し、別のタイルを1枚引く"
    if k == "clear":
        return f"空っぽ！{who}のラックが空になった"
    if k == "pass":
        return f"パス！{who}が手番を終えた"
    if k == "discard":
        return f"{who}が{tile_name(_tile(d, 'tile'), 'ja')}を1枚捨てた（ゲームから除外）"
    if k == "end_triggered":
        if d.get("reason") == "double_seven":
            why = f"{who}が「77」トークンを獲得した"
        else:
            why = f"{who}が最後のタイルを引いた"
        return f"{why}ので、この手番の後、他のプレイヤーが最後の手番を1回ずつ行う"
    if k == "game_over":
        return "ゲーム終了：" + _game_over(d, "ja")
    return None


def _game_over(d: Mapping[str, Any], lang: str) -> str:
    """``"P1 wins with 22 points (P0 18, P1 22, P2 20)"``, with the tie-break (DS-8.2)."""
    ja = _ja(lang)
    scores = [float(x) for x in d.get("scores") or []]
    winners = [int(x) for x in d.get("winners") or []]
    unit = "点" if ja else ""
    table = ("、" if ja else ", ").join(f"{seat_ref(s)} {x:g}{unit}" for s, x in enumerate(scores))
    if not winners or not scores:
        return "勝者なし" if ja else "no winner"
    best = max(scores)
    tied = [s for s, x in enumerate(scores) if x == best]
    names = [seat_ref(w) for w in winners]
    if len(tied) > 1 and len(winners) == 1:
        text = _tie_text({"tied": tied, "by": "77", "winner": winners[0]}, scores, lang)
    elif len(winners) > 1:
        text = _tie_text({"tied": winners, "by": "shared", "winner": None}, scores, lang)
    elif ja:
        text = f"{names[0]}が{best:g}点で勝ち"
    else:
        text = f"{names[0]} wins with {best:g} points"
    return f"{text}（{table}）" if ja else f"{text} ({table})"


def describe_event(event: Event, lang: str = "en") -> str:
    """An event as a sentence, e.g. ``"Seven! P1's family reaches 7 frogs and P1 takes a 7
    token"`` / ``"セブン！P1の家族がカエル7枚になり、P1が「7」トークンを獲得"``."""
    s = event.seat
    who = seat_ref(s) if s is not None else ""
    fn = _event_ja if _ja(lang) else _event_en
    text = fn(event.kind, who, event.data, s)
    return text if text is not None else f"{event.kind} {dict(event.data)}"


RULES_EN = """\
# Double Seven

2 to 4 players. Build families of animals; every tile in your families scores a point.

## The game

- 91 tiles: 8 animals × 11 (bird, squirrel, fox, butterfly, swan, frog, deer, rabbit) and 3
  clovers, which are wild.
- Eight 7 tokens (+1 point each) and one 77 token (+2 points).
- Everyone starts with 3 secret tiles on their rack. A random player starts; play goes
  clockwise.

## Your turn

1. **Flip**: if no tile of the reserve is face up and the pile is not empty, turn one face up.
2. **Draw** tiles one at a time, each the top face-down tile or any face-up one: 3 tiles if your
   rack was empty, otherwise 2.{rainbow}
3. **Actions**, as many as you like, in any order:
   - **Start a family**: 2 or more tiles of one animal (clovers allowed, at least one animal),
     not an animal you already have a family of.
   - **Expand** one of your families with that animal and/or clovers.
     **Seven!**: growing a family from 6 or fewer tiles to 7 or more takes a 7 token.
     **Double Seven!**: {double_seven} The 77 token triggers the end of the game.
   - **Exchange** one of your families for another player's family of exactly the same size.
   - **Take a clover** from any family, putting a tile of that animal from your rack in its
     place.{two_for_one}
4. The turn ends when your rack is empty (**Clear!**: next turn you draw 3) or when you pass
   (**Pass!**). With 6 or more tiles left on your rack, discard one: it leaves the game.

## End and scoring

When someone takes the 77 token or the last tile of the reserve is drawn, that turn is finished
and every other player plays one more turn. Each tile in your families scores 1 point, each 7
token 1 more, the 77 token 2 more; tiles on your rack score nothing. Most points wins; in a tie
the player with the 77 token wins, otherwise the tied players share the win.

## Rulings of this implementation

- Starting a family of 7 or more, exchanges and clover retrievals never earn a 7 token; a family
  already at 7 or more earns nothing more when it grows.
- You may not receive by exchange a family just like one you gave away this turn.
- Rainbow! needs a tile left to draw; Clear! applies whenever an action empties your rack.
"""

RULES_JA = """\
# ダブルセブン

2〜4人。動物の家族を作り、家族のタイル1枚ごとに1点を得る。

## 用具と準備

- タイル91枚：8種類の動物×11枚（鳥、リス、キツネ、蝶、白鳥、カエル、鹿、ウサギ）と、\
何の動物にもなれるクローバー（ジョーカー）3枚。
- 「7」トークン8枚（各+1点）と「77」トークン1枚（+2点）。
- 各自3枚を秘密裏に引いてラックに置く。最初のプレイヤーは無作為に決め、時計回りに進む。

## 手番

1. **タイルをめくる**：表向きのタイルがなく、山札が残っていれば、1枚を表向きにする。
2. **ドロー**：山札の裏向きのタイルか表向きのタイルを1枚ずつ、ラックが空なら3枚、\
そうでなければ2枚引く。{rainbow}
3. **アクション**（何回でも、好きな順に）：
   - **家族を作る**：同じ動物2枚以上（クローバー可、動物1枚以上）。自分の前にすでに家族がある\
動物では作れない。
   - **家族を拡大する**：その動物やクローバーを加える。**セブン！**：6枚以下の家族が7枚以上に\
なったら「7」トークンを1枚取る。**ダブルセブン！**：{double_seven}「77」トークンでゲーム終了の\
きっかけになる。
   - **家族を交換する**：自分の家族1つを、他のプレイヤーのまったく同じ枚数の家族と交換する。
   - **クローバーを回収する**：どの家族からでも、その動物のタイルをラックから置いて、代わりに\
クローバーをラックに取る。{two_for_one}
4. ラックが空になる（**空っぽ！**：次の手番は3枚引く）か、パスする（**パス！**）と手番終了。\
ラックに6枚以上残っていたら1枚捨てる（ゲームから除外）。

## 終了と得点

誰かが「77」トークンを取るか、最後のタイルが引かれたら、その手番を終えた後、他のプレイヤーが\
1回ずつ手番を行ってゲーム終了。家族のタイル1枚につき1点、「7」トークン1枚につき+1点、\
「77」トークンは+2点。ラックのタイルは0点。最多得点の人の勝ち。同点なら「77」トークンを持つ人の\
勝ち、いなければ勝利を分け合う。

## この実装の裁定

- 7枚以上で家族を作っても、交換やクローバーの回収でも「7」トークンはもらえない。すでに7枚以上の\
家族を拡大しても何もない。
- その手番に交換で手放したのと同じ構成の家族を、交換で受け取ることはできない。
- レインボー！は引けるタイルが残っている時だけ。アクションでラックが空になれば、いつでも空っぽ！。
"""


def rules_text(
    lang: str = "en",
    *,
    rainbow: bool = True,
    two_for_one: bool = True,
    double_seven: str = "second_token",
) -> str:
    """The rules summary (Markdown: headings, lists) with this project's rulings, for the
    game's options; no rule ids, no notation."""
    ja = _ja(lang)
    if ja:
        rb = (
            "\n   **レインボー！**：引き終えた直後、ラックの5枚以上がすべて違う動物でクローバーが"
            "なければ、ラックを全員に見せてもう1枚引いてよい。"
            if rainbow
            else ""
        )
        t41 = (
            "\n   - **2対1のトレード**（1手番に1回）：ラックの2枚を表向きに出し、そのどちらでもない"
            "タイルを1枚引く。"
            if two_for_one
            else ""
        )
        ds = (
            "7枚以上の家族を最初に2つ持ったプレイヤーが「77」トークンを取る。"
            if double_seven == "two_families"
            else "「7」トークンを最初に2枚取ったプレイヤーが「77」トークンも取る。"
        )
        return RULES_JA.format(rainbow=rb, two_for_one=t41, double_seven=ds)
    rb = (
        "\n   **Rainbow!**: right after drawing, if your rack holds 5 or more tiles, all of "
        "different animals and no clover, you may show it to everyone and draw one more tile."
        if rainbow
        else ""
    )
    t41 = (
        "\n   - **Two for one** (once a turn): put 2 tiles of your rack face up into the reserve, "
        "then draw 1 tile that is neither of them."
        if two_for_one
        else ""
    )
    ds = (
        "the first player with two families of 7 or more takes the 77 token."
        if double_seven == "two_families"
        else "the first player to take a second 7 token also takes the 77 token."
    )
    return RULES_EN.format(rainbow=rb, two_for_one=t41, double_seven=ds)
