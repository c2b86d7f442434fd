"""Text for people: the table (from a view), actions, events and the rules, in English and
Japanese. Used by the terminal, logs and the web client; only views reach this module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from septet.core.types import JSON, Event

from . import actions as A
from .tiles import (
    NAMES_EN,
    NAMES_JA,
    PLURALS_EN,
    Family,
    counts_from_json,
    family_from_str,
    tile_name,
)


def _tiles(counts: list[int], lang: str) -> str:
    parts = []
    for t, c in enumerate(counts):
        if c:
            name = tile_name(t, lang)
            parts.append(f"{name}×{c}" if c > 1 else name)
    empty = "なし" if lang == "ja" else "none"
    return ("、" if lang == "ja" else ", ").join(parts) or empty


def family_text(f: Family, lang: str = "en") -> str:
    """``fox ×3 + clover`` / ``キツネ×3+クローバー×1`` for a family composition."""
    a, k, c = f
    if lang == "ja":
        s = f"{NAMES_JA[a]}×{k}"
        return s + (f"+クローバー×{c}" if c else "")
    s = f"{k} {PLURALS_EN[a] if k > 1 else NAMES_EN[a]}"
    return s + (f" + {c} clover{'s' if c > 1 else ''}" if c else "")


def _fam_from_json(d: Mapping[str, Any]) -> Family:
    return (NAMES_EN.index(str(d["animal"])), int(d["animals"]), int(d["clovers"]))


def render(view: Mapping[str, JSON], lang: str = "en") -> str:
    """The table as plain text (several lines) from a view."""
    ja = lang == "ja"
    n = int(view["num_players"])
    seat = view["seat"]
    turn = int(view["turn"])
    lines = []
    title = "ダブルセブン" if ja else "Double Seven"
    phase = str(view["phase"])
    phases_ja = {
        "deal": "配布",
        "first_player": "スタートプレイヤー決定",
        "flip": "めくる",
        "draw": "ドロー",
        "rainbow": "レインボー宣言",
        "actions": "アクション",
        "two_for_one_draw": "2対1のドロー",
        "discard": "ターン終了の捨て札",
        "over": "ゲーム終了",
    }
    ph = phases_ja.get(phase, phase) if ja else phase.replace("_", " ")
    who = (f"席{turn}" if ja else f"seat {turn}") if turn >= 0 else "-"
    lines.append(f"{title} — {'手番' if ja else 'turn'}: {who} ({ph})")
    display = _tiles(counts_from_json(view["display"]), lang)
    removed = _tiles(counts_from_json(view["removed"]), lang)
    if ja:
        lines.append(f"山札(裏向き): {view['pile']}枚 · 表向き: {display} · 除外: {removed}")
        holder = view["double_seven"]
        t77 = "未獲得" if holder is None else f"席{holder}"
        lines.append(f"「7」トークン残り {view['sevens_left']} · 「77」トークン: {t77}")
    else:
        lines.append(f"Pile (face down): {view['pile']} · display: {display} · removed: {removed}")
        holder = view["double_seven"]
        t77 = "unclaimed" if holder is None else f"seat {holder}"
        lines.append(f"7 tokens left: {view['sevens_left']} · 77 token: {t77}")
    if view["end_triggered_by"] is not None:
        s = view["end_triggered_by"]
        lines.append(
            f"終了トリガー: 席{s}(最終ラウンド)" if ja else f"End triggered by seat {s}: last round"
        )
    scores = view["scores"]
    for s in range(n):
        mark = "▶ " if s == turn else "  "
        you = ("(あなた)" if ja else " (you)") if s == seat else ""
        rack = view["racks"][s]
        if s == seat and view["rack"] is not None:
            rack_text = _tiles(counts_from_json(view["rack"]), lang)
        else:
            known = counts_from_json(rack["known"])
            rack_text = (
                f"{rack['size']}枚"
                if ja
                else f"{rack['size']} tile{'s' if rack['size'] != 1 else ''}"
            )
            if sum(known):
                rack_text += f" ({'公開' if ja else 'known'}: {_tiles(known, lang)})"
        fams = [_fam_from_json(f) for f in view["families"][s]]
        fam_text = (" | ".join(family_text(f, lang) for f in fams)) or ("なし" if ja else "none")
        tokens = f" 7×{view['sevens'][s]}" if view["sevens"][s] else ""
        if view["double_seven"] == s:
            tokens += " 77"
        if ja:
            lines.append(f"{mark}席{s}{you}: {scores[s]:g}点{tokens} · ラック: {rack_text}")
            lines.append(f"     家族: {fam_text}")
        else:
            lines.append(f"{mark}seat {s}{you}: {scores[s]:g} pts{tokens} · rack: {rack_text}")
            lines.append(f"     families: {fam_text}")
    if view["winners"]:
        ws = [int(x) for x in view["winners"]]
        if ja:
            lines.append("勝者: " + "・".join(f"席{x}" for x in ws))
        elif len(ws) == 1:
            lines.append(f"Winner: seat {ws[0]}")
        else:
            lines.append(f"Winners: seats {', '.join(map(str, ws[:-1]))} and {ws[-1]}")
    return "\n".join(lines)


def describe_action(action: Any, lang: str = "en") -> str:
    """A short phrase for an action or chance outcome."""
    ja = lang == "ja"
    if isinstance(action, A.Draw):
        return "裏向きのタイルを引く" if ja else "Draw a face-down tile"
    if isinstance(action, A.Take):
        t = tile_name(action.tile, lang)
        return f"表向きの{t}を取る" if ja else f"Take the face-up {t}"
    if isinstance(action, A.Rainbow):
        if action.declare:
            return "レインボー!を宣言する" if ja else "Declare Rainbow!"
        return "レインボーを宣言しない" if ja else "Do not declare Rainbow"
    if isinstance(action, A.Start):
        f = family_text(action.family, lang)
        return f"家族を開始: {f}" if ja else f"Start a family: {f}"
    if isinstance(action, A.Expand):
        f = family_text(action.family, lang)
        add = []
        if action.animals:
            add.append(f"{tile_name(action.family[0], lang)}×{action.animals}")
        if action.clovers:
            add.append(f"{tile_name(8, lang)}×{action.clovers}")
        added = ("+" if ja else " + ").join(add)
        return f"{f}の家族を拡大: +{added}" if ja else f"Expand {f} with {added}"
    if isinstance(action, A.Exchange):
        f, g = family_text(action.family, lang), family_text(action.other, lang)
        if ja:
            return f"自分の家族({f})を席{action.seat}の家族({g})と交換"
        return f"Exchange your {f} for seat {action.seat}'s {g}"
    if isinstance(action, A.Retrieve):
        f = family_text(action.family, lang)
        t = tile_name(action.family[0], lang)
        if ja:
            return f"席{action.seat}の家族({f})からクローバーを取り、{t}で置き換える"
        return f"Retrieve a clover from seat {action.seat}'s {f}, putting a {t} in its place"
    if isinstance(action, A.TwoForOne):
        x, y = tile_name(action.first, lang), tile_name(action.second, lang)
        return f"2対1のトレード: {x}と{y}を出す" if ja else f"Two for one: put out {x} and {y}"
    if isinstance(action, A.Pass):
        return "パス!" if ja else "Pass!"
    if isinstance(action, A.Discard):
        t = tile_name(action.tile, lang)
        return f"{t}を捨てる(ゲームから除外)" if ja else f"Discard a {t} (removed from the game)"
    if isinstance(action, A.Deal):
        return "タイルを配る" if ja else "Deal a tile"
    if isinstance(action, A.FirstPlayer):
        return f"スタートプレイヤー: 席{action.seat}" if ja else f"Seat {action.seat} starts"
    if isinstance(action, A.Flip):
        t = tile_name(action.tile, lang)
        return f"{t}を表向きにする" if ja else f"Flip a {t} face up"
    if isinstance(action, A.PileDraw):
        t = tile_name(action.tile, lang)
        return f"裏向きのタイルは{t}" if ja else f"The face-down tile is a {t}"
    return str(action)


def _fam_name(text: str, lang: str) -> str:
    f = family_from_str(text)
    return family_text(f, lang)


def describe_event(event: Event, lang: str = "en") -> str:
    """A log line for an event."""
    ja = lang == "ja"
    s = event.seat
    who = (f"席{s}" if ja else f"Seat {s}") if s is not None else ""
    d = event.data
    k = event.kind

    def tn(key: str) -> str:
        return tile_name(NAMES_EN.index(str(d[key])), lang)

    if k == "dealt":
        return f"{who}にタイル({tn('tile')})" if ja else f"{who} is dealt a {tn('tile')}"
    if k == "first_player":
        return f"{who}がスタートプレイヤー" if ja else f"{who} plays first"
    if k == "turn":
        return f"{who}の手番" if ja else f"{who}'s turn"
    if k == "flip":
        return f"{tn('tile')}が表向きになった" if ja else f"A {tn('tile')} is flipped face up"
    if k == "take":
        return (
            f"{who}が表向きの{tn('tile')}を取った"
            if ja
            else f"{who} takes the face-up {tn('tile')}"
        )
    if k == "draw":
        return f"{who}が裏向きのタイルを引いた" if ja else f"{who} draws a face-down tile"
    if k == "drew":
        return f"{who}が引いたのは{tn('tile')}" if ja else f"{who} drew a {tn('tile')}"
    if k == "rainbow":
        rack = ", ".join(tile_name(NAMES_EN.index(x), lang) for x in d["rack"])
        return f"{who}: レインボー! ({rack})" if ja else f"{who}: Rainbow! ({rack})"
    if k == "start":
        f = _fam_name(str(d["family"]), lang)
        return f"{who}が家族を開始: {f}" if ja else f"{who} starts a family: {f}"
    if k == "expand":
        f, g = _fam_name(str(d["family"]), lang), _fam_name(str(d["new_family"]), lang)
        return f"{who}が家族を拡大: {f} → {g}" if ja else f"{who} expands {f} to {g}"
    if k == "seven":
        return f"{who}: セブン! 「7」トークン獲得" if ja else f"Seven! {who} takes a 7 token"
    if k == "double_seven":
        if ja:
            return f"{who}: ダブルセブン! 「77」トークン獲得"
        return f"Double Seven! {who} takes the 77 token"
    if k == "exchange":
        f, g = _fam_name(str(d["family"]), lang), _fam_name(str(d["other"]), lang)
        q = d["with_seat"]
        if ja:
            return f"{who}が家族({f})を席{q}の家族({g})と交換"
        return f"{who} exchanges {f} for seat {q}'s {g}"
    if k == "retrieve":
        f = _fam_name(str(d["family"]), lang)
        q = d["from_seat"]
        if ja:
            return f"{who}が席{q}の家族({f})からクローバーを獲得"
        return f"{who} retrieves a clover from seat {q}'s {f}"
    if k == "two_for_one":
        x, y = (tile_name(NAMES_EN.index(str(t)), lang) for t in d["tiles"])
        return (
            f"{who}: 2対1のトレード({x}、{y}を出す)" if ja else f"{who}: two for one ({x}, {y} out)"
        )
    if k == "clear":
        return f"{who}: 空っぽ!" if ja else f"{who}: Clear!"
    if k == "pass":
        return f"{who}: パス!" if ja else f"{who}: Pass!"
    if k == "discard":
        if ja:
            return f"{who}が{tn('tile')}を捨てた(ゲームから除外)"
        return f"{who} discards a {tn('tile')} (removed from the game)"
    if k == "end_triggered":
        why = d.get("reason")
        if ja:
            r = "「77」トークン" if why == "double_seven" else "最後のタイル"
            return f"ゲーム終了がトリガーされた({r}、{who})。他のプレイヤーは1ターンずつ"
        r = "the 77 token" if why == "double_seven" else "the last tile"
        return f"End of game triggered by {who} ({r}): everyone else plays one more turn"
    if k == "game_over":
        ws = [int(x) for x in d.get("winners", [])]
        sc = " / ".join(f"{x:g}" for x in d.get("scores", []))
        if ja:
            win = "・".join(f"席{x}" for x in ws) + "の勝ち" if ws else "勝者なし"
            return f"ゲーム終了: 得点 {sc}、{win}"
        if len(ws) == 1:
            who = f"Seat {ws[0]} wins"
        else:
            who = f"Seats {', '.join(map(str, ws[:-1]))} and {ws[-1]} win" if ws else "no winner"
        return f"Game over: scores {sc}; {who}"
    return f"{k} {dict(d)}"


RULES_EN = """\
# Double Seven (2-4 players)

Tiles: 8 animals x 11 (bird, squirrel, fox, butterfly, swan, frog, deer, rabbit) and 3 clovers
(wild). Eight 7 tokens (+1) and one 77 token (+2). Everyone starts with 3 secret tiles.

Your turn:
1. Flip: if no tile is face up and the pile is not empty, flip one tile face up.
2. Draw one at a time, face down or any face-up tile: 3 tiles if your rack was empty, else 2.
   Rainbow! (option): right after drawing, with 5+ tiles of all different animals and no clover,
   you may show your rack to everyone and draw one more tile.
3. Actions, any number, in any order:
   - start a family: 2+ tiles of one animal (clovers allowed, at least one animal), not an animal
     you already have a family of;
   - expand one of your families with that animal and/or clovers. Seven!: growing from 6 or fewer
     to 7+ tiles takes a 7 token. Double Seven!: the first player to take a second 7 token also
     takes the 77 token, which triggers the end (option: the first with two families of 7+);
   - exchange one of your families for another player's family of exactly the same size;
   - retrieve a clover from any family, replacing it with that animal from your rack;
   - two for one (once a turn, option): put 2 rack tiles face up into the display, then draw 1
     other tile.
4. The turn ends when your rack is empty ("Clear!": next turn you draw 3) or when you pass
   ("Pass!"). With 6+ tiles on your rack, discard one: it is removed from the game.

End: when someone takes the 77 token or the last tile of the reserve is drawn, that turn is
finished and every other player plays one more turn.
Score: 1 per tile in your families, +1 per 7 token, +2 for the 77 token. Most points wins; a tied
player with the 77 token wins, otherwise tied players share the win.

Rulings of this implementation (docs/rulings/double-seven.md): starting a family of 7+ earns no
7 token, nor do exchanges or clover retrievals; a family already at 7+ earns nothing more; you may
not receive by exchange a family of the same composition as one you gave away that turn (or the one
you give); Rainbow needs a tile left to draw; Clear! applies when an action empties the rack.
"""

RULES_JA = """\
# ダブルセブン (2〜4人)

タイル：8種類の動物×11枚（鳥、リス、キツネ、蝶、白鳥、カエル、鹿、ウサギ）とクローバー3枚\
（ジョーカー）。「7」トークン8枚（+1点）と「77」トークン1枚（+2点）。各自3枚を秘密裡に引いて\
開始。

あなたのターン：

1. めくる：表向きのタイルがなく山札が残っていれば、1枚を表向きにする。
2. ドロー：裏向きか表向きのタイルを1枚ずつ、ラックが空なら3枚、そうでなければ2枚引く。\
レインボー!（オプション）：ドロー直後に5枚以上がすべて異なる動物でクローバーがなければ、\
ラックを公開してもう1枚引ける。
3. アクション（何回でも、好きな順に）：
   - 家族の開始：同じ動物2枚以上（クローバー可、動物1枚以上）。自分の前にすでにある動物は不可。
   - 家族の拡大：その動物とクローバーを追加。セブン!：6枚以下から7枚以上になると「7」\
トークン。ダブルセブン!：「7」トークンを最初に2枚目獲得した人が「77」トークンも獲得し、\
ゲーム終了がトリガーされる（オプション：7枚以上の家族を最初に2つ持った人）。
   - 家族の交換：他のプレイヤーのまったく同じ枚数の家族と交換。
   - ジョーカーの獲得：家族のクローバーを、その動物のタイルと置き換えて取る。
   - 2対1のトレード（1ターンに1回、オプション）：2枚を表向きに出し、別のタイルを1枚引く。
4. ラックが空になる（「空っぽ!」、次のターンは3枚引く）かパス（「パス!」）でターン終了。\
ラックに6枚以上あれば1枚捨てる（ゲームから除外）。

終了：「77」トークンの獲得か、最後のタイルのドローでトリガー。そのターンを終えた後、\
他のプレイヤーが1ターンずつ行って終了。

得点：家族のタイル1枚1点、「7」トークン+1点、「77」トークン+2点。最多得点が勝ち。\
同点なら「77」トークンを持つプレイヤーの勝ち、いなければ勝利を分け合う。

この実装の裁定（docs/rulings/double-seven.md）：7枚以上で家族を開始しても、交換やジョーカー\
獲得でも「7」トークンはない。すでに7枚以上の家族の拡大でも何もない。そのターンに交換で手放した\
のと同じ構成の家族を交換で受け取ることはできない。レインボーは引けるタイルが残っている時のみ。
"""


def rules_text(lang: str = "en") -> str:
    """The rules summary with this project's rulings."""
    return RULES_JA if lang == "ja" else RULES_EN
