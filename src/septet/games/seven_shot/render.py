"""Seven Shot as text, in English and Japanese: the table from a view, actions, events, rules.

Cards are shown with their suit symbol (``▲F7`` / ``▲火7``) so that colour is never the only cue;
suits are named with their symbol, colour and rank range (SS-1.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from septet.core.game import Action
from septet.core.types import JSON, Event
from septet.games.seven_shot.actions import Deal, FirstLeader, Pass, Play
from septet.games.seven_shot.cards import (
    RANK_OF,
    SUIT_LETTERS,
    SUIT_OF,
    SUITS,
    card_label,
    parse_card,
    suit_label,
)

_CONDITIONS = {
    "en": {
        "sevens": "a side took {thr} or more 7s (SS-4.1)",
        "seven_tricks": "a side took 7 tricks and loses (SS-4.2)",
        "hands_empty": "the hands are empty; the last trick's winner takes the indicator (SS-4.3)",
    },
    "ja": {
        "sevens": "7を{thr}枚以上獲得（SS-4.1）",
        "seven_tricks": "7回カードを獲得したので負け（SS-4.2）",
        "hands_empty": "手札がなくなり、最後のトリックの勝者が切り札表示カードを獲得（SS-4.3）",
    },
}


def _lang(lang: str) -> str:
    return "ja" if lang == "ja" else "en"


def _card(name: str, lang: str) -> str:
    try:
        return card_label(parse_card(name), lang)
    except ValueError:
        return name


def _cards(names: Any, lang: str) -> str:
    if not names:
        return "—"
    return " ".join(_card(str(n), lang) for n in names)


def _suit(letter: str, lang: str) -> str:
    return suit_label(SUIT_LETTERS.index(letter), lang)


def _seat(seat: Any, lang: str, me: Any = None) -> str:
    if lang == "ja":
        return f"席{seat}" + ("（あなた）" if seat == me and me is not None else "")
    return f"seat {seat}" + (" (you)" if seat == me and me is not None else "")


def _side_name(view: Mapping[str, JSON], side: int, lang: str) -> str:
    teams = view.get("teams")
    if teams:
        members = teams[side]
        if lang == "ja":
            return f"チーム{'AB'[side]}（席{members[0]}・{members[1]}）"
        return f"Team {'AB'[side]} (seats {members[0]} & {members[1]})"
    return _seat(side, lang)


def _hand_by_suit(names: Any, lang: str) -> str:
    groups: dict[int, list[int]] = {}
    for n in names:
        c = parse_card(str(n))
        groups.setdefault(SUIT_OF[c], []).append(c)
    parts = []
    for s in sorted(groups):
        info = SUITS[s]
        ranks = " ".join(str(RANK_OF[c]) + ("(A)" if c == 0 else "") for c in sorted(groups[s]))
        name = info.ja if lang == "ja" else info.letter
        parts.append(f"{info.symbol}{name} {ranks}")
    return "  ".join(parts) if parts else "—"


def render(view: Mapping[str, JSON], lang: str = "en") -> str:
    """The table seen in ``view`` (``SevenShotState.view``) as plain text."""
    lang = _lang(lang)
    ja = lang == "ja"
    me = view.get("seat")
    n = int(view["num_players"])
    lines: list[str] = []
    phase = str(view["phase"])
    phase_names = {
        "deal": ("dealing", "配札中"),
        "pass": ("passing cards", "カードを渡す"),
        "first_leader": ("choosing the first leader", "最初のリードを決定"),
        "play": ("tricks", "トリック"),
        "over": ("game over", "ゲーム終了"),
    }[phase]
    to_move = view.get("to_move")
    if ja:
        head = f"セブンショット — 第{view['deal_number']}ディール — {phase_names[1]}"
        if isinstance(to_move, int) and to_move >= 0:
            head += f" — 手番: {_seat(to_move, lang, me)}"
    else:
        head = f"Seven Shot — deal {view['deal_number']} — {phase_names[0]}"
        if isinstance(to_move, int) and to_move >= 0:
            head += f" — to move: {_seat(to_move, lang, me)}"
    lines.append(head)
    side_points = list(view["side_points"])
    score_parts = [f"{_side_name(view, s, lang)} {p}" for s, p in enumerate(side_points)]
    lines.append(
        (f"得点（{view['target']}点先取）: " if ja else f"Score (first to {view['target']}): ")
        + " · ".join(score_parts)
    )
    ind = view.get("trump_indicator")
    if ind:
        trump = _suit(str(view["trump"]), lang)
        lines.append(
            f"切り札: {trump} — 表示カード {_card(str(ind), lang)}"
            if ja
            else f"Trump: {trump} — indicator {_card(str(ind), lang)}"
        )
    else:
        lines.append(
            f"配札中（{view['cards_dealt']}/49枚）" if ja else f"Dealing ({view['cards_dealt']}/49)"
        )
    # Per seat.
    thr = 4 if n == 4 else 3
    # With 3 players each seat is a side: show the 7-trick and 3-seven limits (SS-4, SS-5.3).
    limits = ("", "") if n == 4 else ("/7", f"/{thr}")
    for s in range(n):
        sevens = [c for c in view["taken"][s] if RANK_OF[parse_card(str(c))] == 7]
        voids = "".join(SUITS[SUIT_LETTERS.index(v)].symbol for v in view["voids"][s])
        if ja:
            line = (
                f"  {_seat(s, lang, me)}: 手札{view['hand_sizes'][s]}枚 "
                f"トリック{view['tricks_won'][s]}{limits[0]} 7: {len(sevens)}{limits[1]}"
            )
            if sevens:
                line += f"（{_cards(sevens, lang)}）"
            if voids:
                line += f" 欠けているスート {voids}"
        else:
            line = (
                f"  {_seat(s, lang, me)}: {view['hand_sizes'][s]} cards, "
                f"{view['tricks_won'][s]}{limits[0]} tricks, {len(sevens)}{limits[1]} 7s"
            )
            if sevens:
                line += f" ({_cards(sevens, lang)})"
            if voids:
                line += f", void in {voids}"
        if phase == "pass" and view["pass_cards"]:
            line += (
                f" 渡す{view['pass_counts'][s]}/{view['pass_cards']}"
                if ja
                else f", chosen {view['pass_counts'][s]}/{view['pass_cards']} to pass"
            )
        lines.append(line)
    side_tricks = view["side_tricks"]
    side_sevens = view["side_sevens"]
    parts = []
    for s in range(len(side_points)):
        name = _side_name(view, s, lang)
        parts.append(
            f"{name}: トリック{side_tricks[s]}/7 · 7 {side_sevens[s]}/{thr}"
            if ja
            else f"{name}: {side_tricks[s]}/7 tricks · {side_sevens[s]}/{thr} 7s"
        )
    if n == 4:
        lines.append("  " + " | ".join(parts))
    # Current trick.
    trick = view.get("trick") or []
    if trick:
        played = ", ".join(f"{_seat(t['seat'], lang, me)} {_card(t['card'], lang)}" for t in trick)
        led = _suit(str(view["led_suit"]), lang)
        lines.append(
            f"現在のトリック（リード {_seat(view['leader'], lang, me)}、{led}）: {played}"
            if ja
            else f"Trick (led by {_seat(view['leader'], lang, me)}, {led}): {played}"
        )
    elif phase == "play":
        lines.append(
            f"{_seat(view['leader'], lang, me)}がリードする"
            if ja
            else f"{_seat(view['leader'], lang, me)} leads"
        )
    # Own cards.
    if view.get("hand") is not None:
        lines.append(("手札: " if ja else "Your hand: ") + _hand_by_suit(view["hand"], lang))
        if view.get("passing"):
            lines.append(
                ("渡すカード: " if ja else "Chosen to pass: ") + _cards(view["passing"], lang)
            )
        if view.get("passed"):
            lines.append(
                f"{_seat(view['passed_to'], lang)}に渡した: {_cards(view['passed'], lang)} · "
                f"{_seat(view['received_from'], lang)}から受け取った: "
                f"{_cards(view['received'], lang)}"
                if ja
                else f"Passed to {_seat(view['passed_to'], lang)}: "
                f"{_cards(view['passed'], lang)} · received from "
                f"{_seat(view['received_from'], lang)}: {_cards(view['received'], lang)}"
            )
    deals = view.get("deals") or []
    if deals:
        lines.append(describe_deal_end(deals[-1], view, lang))
    if phase == "over":
        winners = view.get("winners") or []
        who = ", ".join(_seat(w, lang, me) for w in winners)
        lines.append(f"勝者: {who}" if ja else f"Winner(s): {who}")
    return "\n".join(lines)


def describe_deal_end(summary: Mapping[str, JSON], view: Mapping[str, JSON], lang: str) -> str:
    """One line for a finished deal: the condition, any transfer, the points formula."""
    lang = _lang(lang)
    ja = lang == "ja"
    n = int(view["num_players"])
    thr = 4 if n == 4 else 3
    cond = _CONDITIONS[lang][str(summary["condition"])].format(thr=thr)
    side = int(summary["side"])
    who = _side_name(view, side, lang)
    text = (
        f"第{summary['deal']}ディール終了: {who} — {cond}"
        if ja
        else f"Deal {summary['deal']} over: {who} — {cond}"
    )
    if summary.get("transferred"):
        moved = _cards(summary["transferred"], lang)
        text += f"。7の移動: {moved}" if ja else f"; 7s moved: {moved}"
    gains = list(summary["gains"])
    got = [f"{_side_name(view, s, lang)} +{g}" for s, g in enumerate(gains) if g]
    formula = str(summary["formula"])
    if "=" in formula:  # SS-4.4 / SS-5.4 formula, at least 1
        text += f"。計算 {formula}（最低1点）→ " if ja else f"; points {formula} (min 1) → "
    else:  # SS-5.5: 2 points each
        text += "。各2点 → " if ja else "; 2 points each → "
    text += ", ".join(got)
    return text


def describe_action(action: Action, lang: str = "en") -> str:
    """A short phrase for an action: ``"play ▲F7"`` / ``"▲火7を出す"``."""
    lang = _lang(lang)
    ja = lang == "ja"
    if isinstance(action, Play):
        c = card_label(action.card, lang)
        return f"{c}を出す" if ja else f"play {c}"
    if isinstance(action, Pass):
        c = card_label(action.card, lang)
        return f"{c}を渡す" if ja else f"pass {c}"
    if isinstance(action, Deal):
        c = card_label(action.card, lang)
        return f"{c}を配る" if ja else f"deal {c}"
    if isinstance(action, FirstLeader):
        return f"最初のリードは席{action.seat}" if ja else f"seat {action.seat} leads first"
    return str(action)


def describe_event(event: Event, lang: str = "en") -> str:
    """A log line for an event of ``SevenShotState.apply``."""
    lang = _lang(lang)
    ja = lang == "ja"
    d = event.data
    seat = event.seat
    k = event.kind
    if k == "card_played":
        c = _card(str(d["card"]), lang)
        return f"席{seat}が{c}を出した" if ja else f"seat {seat} plays {c}"
    if k == "trick_won":
        how = {
            "ace": ("Aで", "with the A"),
            "trump": ("切り札で", "with a trump"),
            "suit": ("", "with the highest card of the led suit"),
        }[str(d["how"])]
        sevens = d.get("sevens") or []
        if ja:
            extra = f"（7: {_cards(sevens, lang)}）" if sevens else ""
            return f"席{seat}が{how[0]}トリックを獲得: {_cards(d['cards'], lang)}{extra}"
        extra = f" (7s: {_cards(sevens, lang)})" if sevens else ""
        return f"seat {seat} wins the trick {how[1]}: {_cards(d['cards'], lang)}{extra}"
    if k == "card_dealt":
        c = _card(str(d["card"]), lang)
        return f"席{seat}に{c}が配られた" if ja else f"seat {seat} is dealt {c}"
    if k == "trump_indicator":
        c = _card(str(d["card"]), lang)
        t = _suit(str(d["trump"]), lang)
        return f"切り札表示カード {c}: 切り札は{t}" if ja else f"trump indicator {c}: trump is {t}"
    if k == "pass_chosen":
        c = _card(str(d["card"]), lang)
        return f"席{seat}は{c}を渡すことにした" if ja else f"seat {seat} chooses {c} to pass"
    if k == "passes_done":
        return "全員がカードを渡した" if ja else "everyone has passed their cards"
    if k == "cards_received":
        cs = _cards(d["cards"], lang)
        return (
            f"席{seat}が席{d['from']}から受け取った: {cs}"
            if ja
            else f"seat {seat} receives from seat {d['from']}: {cs}"
        )
    if k == "first_leader":
        return f"最初のリードは席{seat}" if ja else f"seat {seat} leads first"
    if k == "deal_end":
        cond = _CONDITIONS[lang][str(d["condition"])].format(thr=3 if len(d["gains"]) == 3 else 4)
        team, seat_word = ("チーム", "席") if ja else ("team ", "seat ")
        gains = ", ".join(
            (f"{team}{'AB'[s]}" if len(d["gains"]) == 2 else f"{seat_word}{s}") + f" +{g}"
            for s, g in enumerate(d["gains"])
            if g
        )
        moved = d.get("transferred") or []
        if ja:
            extra = f" 7の移動: {_cards(moved, lang)}。" if moved else ""
            return f"ディール終了: {cond}。{extra}計算 {d['formula']} → {gains}"
        extra = f" 7s moved: {_cards(moved, lang)}." if moved else ""
        return f"deal over: {cond}.{extra} points {d['formula']} → {gains}"
    if k == "new_deal":
        return (
            f"第{d['deal']}ディール開始（最初のリード: 席{d['first_leader']}）"
            if ja
            else f"deal {d['deal']} begins (first leader: seat {d['first_leader']})"
        )
    if k == "game_end":
        ws = [int(w) for w in d["winners"]]
        if ja:
            win = "・".join(f"席{w}" for w in ws) + "の勝ち" if ws else "勝者なし"
            return f"ゲーム終了: {win}"
        if len(ws) <= 1:
            return f"game over: seat {ws[0]} wins" if ws else "game over: no winner"
        return f"game over: seats {', '.join(map(str, ws[:-1]))} and {ws[-1]} win"
    return f"{k} {dict(d)}"


_RULES_EN = """\
Seven Shot — collect 7s in tricks (3 players each for themselves, or 4 in two teams).

Cards (SS-1): 49 cards, 7 suits of 7 consecutive ranks; every suit has one 7.

{suits}

The Sun 1 (☀S1) is the A: it wins any trick it is played to. It follows suit as a Sun card: on
a Sun lead you must play a Sun card (the A included) if you hold one, and on another lead you may
play the A only when you have no card of the led suit. Led, it makes Sun the led suit.

A deal (SS-2): all cards are dealt (16 each with 3 players, 12 with 4); the last card is turned
face up as the trump indicator, and its suit is trump. Then everyone passes 3 cards at the same
time, without seeing what they will receive: to the partner (4 players, partners sit opposite) or
to the left neighbour (3 players). The first leader is drawn at random in the first deal; in each
later deal it is the player left of the previous first leader.

Tricks (SS-3): the leader plays any card; the others must follow the led suit if they can, else
play any card. The A wins; else the highest trump; else the highest card of the led suit. The
winner takes the trick face up and leads next.

End of a deal (SS-4), checked after every trick, in this order:
1. a side has taken 4 or more 7s (3 or more with 3 players): it wins the deal;
2. a side has taken 7 tricks: it loses; with 4 players the 7s left in its hands and the indicator
   (if a 7) go to the other team, which wins the deal; with 3 players the two others win 2 points
   each;
3. the hands are empty: the winner of the last trick takes the indicator; their side wins.
Points of the winning side = its 7s − the other side's 7s + 1, at least 1. With 3 players:
winner's 7s − the most 7s of another player + 1 (at least 1), and the player(s) with that count
get half of it, rounded down. Losers score nothing.

Game end: a side with 7 or more points wins; if several reach 7 after the same deal, the highest
total wins, and a tie is a shared win. Rulings: docs/rulings/seven-shot.md.
"""

_RULES_JA = """\
セブンショット — トリックで「7」を集める（3人は個人戦、4人は2対2のチーム戦）。

カード（SS-1）：49枚、7つのシンボル（スート）に連続した7つの数字。各スートに7が1枚ずつ。

{suits}

日1（☀日1）が「A」：出されたトリックには必ず勝つ。Aは日のカードとしてフォローに従う（日が\
リードされたら、日のカードを持っていればAを含む日のカードを出す。他のスートがリードされたとき、\
Aを出せるのはそのスートを持っていない場合だけ）。Aをリードすると日がリードスートになる。

ディール（SS-2）：全カードを配り（3人は16枚、4人は12枚ずつ）、残った1枚を表向きにして切り札\
表示カードとする。そのスートが切り札。次に全員が同時に3枚を渡す（受け取るカードを見る前に\
選ぶ）。4人なら同じチームの相手（向かいの席）に、3人なら左隣に。最初のリードは1回目のディール\
では無作為、以降は直前のディールの最初のリードプレイヤーの左隣。

トリック（SS-3）：リードは好きなカードを出す。他の人は出せるならリードと同じスートを出す\
（フォロー）、出せなければ好きなカード。Aが勝ち、なければ最も大きい切り札、それもなければ\
リードスートの最も大きいカードが勝つ。勝者がカードを獲得し、次のリードをする。

ディールの終了（SS-4）、トリックごとに順に確認：

1. 7を4枚以上（3人なら3枚以上）獲得した側が勝つ。
2. 7回カードを獲得した側は負け。4人なら、その側の手札の7と切り札表示カード（7なら）を相手\
チームに加え、相手チームが勝つ。3人なら他の2人が勝ち、それぞれ2点。
3. 手札がなくなったら、最後のトリックの勝者が切り札表示カードを獲得し、その側が勝つ。

点数＝自分の側の7の枚数−相手の7の枚数+1（最低1点）。3人：勝者の7−他のプレイヤーの\
最多の7+1（最低1点）、その枚数のプレイヤーは勝者の点数の半分（切り捨て）。負けた側は0点。

ゲーム終了：7点以上になった側の勝ち。同じディールで複数が7点に達したら合計の多い方、同点なら\
共同勝利。裁定：docs/rulings/seven-shot.md。
"""


def rules_text(lang: str = "en") -> str:
    """The rules summary with the project's rulings, in ``lang``."""
    lang = _lang(lang)
    suits = "\n".join(f"- {suit_label(s.index, lang)}" for s in SUITS)
    return (_RULES_JA if lang == "ja" else _RULES_EN).format(suits=suits)


__all__ = ["describe_action", "describe_deal_end", "describe_event", "render", "rules_text"]
