"""Flip 7 in words, English and Japanese: the table, actions, events and the rules summary.

Player words only (no notation, no rule ids). Card names are the rulebook's, one per card and
language (:data:`septet.games.flip7.cards.NAMES_JA`: 「ジャスト・ワンモア！」, 「フリップ4！」 …).
Seats are written ``P{n}`` for the consumer to replace with names (``septet.core.text``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from septet.core.game import Action
from septet.core.text import seat_ref
from septet.core.types import JSON, Event
from septet.games.flip7 import cards as C
from septet.games.flip7.actions import (
    OP_BONUS,
    OP_DEALER,
    OP_DISCARD,
    OP_DRAW,
    OP_HIT,
    OP_PENALTY,
    OP_STAY,
    OP_STEAL,
    OP_SWAP,
    OP_TARGET,
    F7Action,
)
from septet.games.flip7.rules import FLIP7_BONUS

if TYPE_CHECKING:
    from septet.games.flip7.game import Flip7


def _ja(lang: str) -> bool:
    return lang == "ja"


def _kind(token: Any) -> int | None:
    return C.KIND_OF_TOKEN.get(str(token))


def card_text(token: Any, lang: str) -> str:
    """A card by its name alone: ``"5"``, ``"Lucky 13"``, ``"−4"``, ``"Flip 4!"`` /
    ``"ラッキー13"``, ``"フリップ4！"``."""
    kind = _kind(token)
    return str(token) if kind is None else C.card_name(kind, lang)


def a_card(token: Any, lang: str) -> str:
    """A card ready for an English sentence: ``"a 5"``, ``"an 8"``, ``"the Lucky 13"``, ``"the
    −4"`` (one of each modifier), ``"Flip 4!"`` (action cards by name); Japanese needs no
    article."""
    name = card_text(token, lang)
    kind = _kind(token)
    if _ja(lang) or kind is None:
        return name
    if kind <= 13:  # a plain number card
        return ("an " if name in ("8", "11") else "a ") + name
    if C.IS_ACT[kind]:
        return name
    return "the " + name


def _list(items: Sequence[str], lang: str) -> str:
    items = list(items)
    if _ja(lang):
        return "、".join(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _points(n: int) -> str:
    return f"{n}".replace("-", "−")


_STATUS = {
    "en": {"active": "playing", "stayed": "stayed", "busted": "busted", "flip7": "Flip 7!"},
    "ja": {"active": "プレイ中", "stayed": "ステイ", "busted": "バースト", "flip7": "フリップ7！"},
}
_DECISIONS = {
    "en": {
        "hit_stay": "hit or stay",
        "target": "who gets {card}",
        "swap": "two face-up cards to swap",
        "steal": "a face-up card to steal",
        "discard": "a face-up card to discard",
        "flip7_choice": f"+{FLIP7_BONUS} points for themselves "
        f"or −{FLIP7_BONUS} for another player",
    },
    "ja": {
        "hit_stay": "ヒットかステイ",
        "target": "{card}を出す相手",
        "swap": "交換する表向きのカード2枚",
        "steal": "奪う表向きのカード",
        "discard": "捨てさせる表向きのカード",
        "flip7_choice": f"自分に+{FLIP7_BONUS}点か、他の1人に−{FLIP7_BONUS}点",
    },
}


def render(game: Flip7, view: Mapping[str, JSON], lang: str = "en") -> str:
    """The table from a view: one line per player (whose turn, dealer, status, number cards,
    modifiers, round score, total), the deck and discard pile, pending flips and what is being
    decided."""
    ja = _ja(lang)
    key = "ja" if ja else "en"
    lines: list[str] = []
    title = game.title(lang)
    if view["brutal"]:
        title += "（残忍モード）" if ja else " (brutal)"
    rnd = view["round"]
    lines.append(
        f"{title} — ラウンド{rnd}、{view['target']}点先取"
        if ja
        else f"{title} — round {rnd}, first to {view['target']}"
    )
    for p, pl in enumerate(view["players"]):
        lines.append(_player_line(view, p, pl, lang))
    lines.append(
        f"山札{view['deck_size']}枚・捨て札{view['discard_size']}枚"
        if ja
        else f"Deck: {view['deck_size']} cards · discard pile: {view['discard_size']}"
    )
    lines += _stack_lines(view, lang)
    dec = view["decision"]
    if dec is not None:
        what = _DECISIONS[key][dec["kind"]].format(card=card_text(dec["card"], lang))
        who = seat_ref(int(dec["player"]))
        lines.append(f"{who}が選ぶ：{what}" if ja else f"{who} chooses {what}")
    lines += _result_lines(view, lang)
    return "\n".join(lines)


def _player_line(view: Mapping[str, Any], p: int, pl: Mapping[str, Any], lang: str) -> str:
    """Seat ``p``'s line of :func:`render`: marks, status, numbers | modifiers, scores."""
    ja = _ja(lang)
    key = "ja" if ja else "en"
    kinds = [C.KIND_OF_TOKEN[t] for t in pl["row"]]
    nums = [card_text(t, lang) for t, k in zip(pl["row"], kinds, strict=True) if C.IS_NUM[k]]
    mods = [card_text(t, lang) for t, k in zip(pl["row"], kinds, strict=True) if not C.IS_NUM[k]]
    mods += [card_text(t, lang) for t in pl["after_bust"]]
    mark = "▶ " if view["to_move"] == p else "  "
    name = seat_ref(p)
    if view.get("seat") == p:
        name += "（あなた）" if ja else " (you)"
    if view["dealer"] == p:
        name += "（ディーラー）" if ja else ", dealer"
    status = "flip7" if view["flip7"] == p else str(pl["status"])
    row = " ".join(nums) or "—"
    if mods:
        row += " | " + " ".join(mods)
    if ja:
        return (
            f"{mark}{name}【{_STATUS[key][status]}】{row}  今回{_points(pl['round_score'])}点"
            f"（合計{_points(pl['total'])}点）"
        )
    return (
        f"{mark}{name} [{_STATUS[key][status]}] {row}  this round "
        f"{_points(pl['round_score'])} (total {_points(pl['total'])})"
    )


def _stack_lines(view: Mapping[str, Any], lang: str) -> list[str]:
    """The pending flips and Just One Mores of :func:`render`."""
    ja = _ja(lang)
    lines: list[str] = []
    for fr in view["stack"]:
        who = seat_ref(int(fr.get("player", 0)))
        if fr["kind"] == "flip":
            left = int(fr["left"])
            draw = view["draw"]
            if fr is view["stack"][-1] and draw and draw["set_aside"]:
                left += 1  # the card being flipped now
            text = (
                f"{who}はあと{left}枚めくる"
                if ja
                else f"{who} flips {left} more card{'s' if left != 1 else ''}"
            )
            if fr["set_aside"]:
                aside = _list([card_text(t, lang) for t in fr["set_aside"]], lang)
                text += f"（保留中：{aside}）" if ja else f" (set aside: {aside})"
            lines.append(text)
        elif fr["kind"] == "just_one_more" and not fr["drawn"]:
            lines.append(
                f"{who}はもう1枚受け取ってからステイ"
                if ja
                else f"{who} takes one more card, then stays"
            )
    return lines


def _result_lines(view: Mapping[str, Any], lang: str) -> list[str]:
    """The last round's result, the points by round and the winners, for :func:`render`."""
    ja = _ja(lang)
    lines: list[str] = []
    over = bool(view["winners"])
    detail = view.get("last_round_detail")
    # The last round as it ended, with each row's arithmetic: during the next deal (until the
    # players start deciding) and at the end of the game.
    if detail and (over or int(view.get("round_draws") or 0) <= len(view["players"])):
        lines.append(
            f"ラウンド{detail['round']}の結果：" if ja else f"Round {detail['round']} result:"
        )
        for p in range(len(view["players"])):
            lines.append("  " + round_row_text(detail, p, lang))
    rounds = view.get("rounds") or []
    if over and rounds:
        lines.append("ラウンドごとの得点：" if ja else "Points by round:")
        for r in rounds:
            cells = []
            for p, (pts, st) in enumerate(zip(r["scores"], r["status"], strict=True)):
                mark = {"busted": " ✗", "flip7": " ★"}.get(str(st), "")
                cells.append(f"{seat_ref(p)} {_points(int(pts))}{mark}")
            head = f"  {r['round']}: " if not ja else f"  ラウンド{r['round']}："
            lines.append(head + ("、" if ja else ", ").join(cells))
        lines.append("  （✗ バースト、★ フリップ7）" if ja else "  (✗ busted, ★ Flip 7)")
    if over:
        names = [seat_ref(int(w)) for w in view["winners"]]
        lines.append(
            "勝者：" + "・".join(names)
            if ja
            else ("Winner: " if len(names) == 1 else "Winners: ") + _list(names, lang)
        )
    return lines


def round_row_text(detail: Mapping[str, Any], seat: int, lang: str) -> str:
    """One row of a finished round (the ``round_end`` data) with its score arithmetic (F7V-7):
    ``"P1: 10 5 | ÷2 −2 — 15 ÷2 = 7, −2 = 5"``, ``"P2: busted — 0"``, ``"P0: 1 2 3 4 5 6 7 —
    28, Flip 7 +15 = 43"``."""
    ja = _ja(lang)
    row = [str(t) for t in detail["rows"][seat]]
    kinds = [C.KIND_OF_TOKEN[t] for t in row]
    nums = " ".join(card_text(t, lang) for t, k in zip(row, kinds, strict=True) if C.IS_NUM[k])
    mod_cards = [card_text(t, lang) for t, k in zip(row, kinds, strict=True) if not C.IS_NUM[k]]
    mod_cards += [card_text(t, lang) for t in detail.get("after_bust", [[]] * (seat + 1))[seat]]
    cards = (nums or "—") + (" | " + " ".join(mod_cards) if mod_cards else "")
    b = detail["breakdown"][seat]
    score = int(b["score"])
    who = seat_ref(seat)
    if b["busted"]:
        calc = "バースト" if ja else "busted"
        mods = int(b.get("modifiers") or 0)
        if mods:  # brutal: modifiers received after busting
            calc += f"、修正{_points(mods)}" if ja else f", modifiers {_points(mods)}"
        return (
            f"{who}：{cards} — {calc}：{_points(score)}点"
            if ja
            else (f"{who}: {cards} — {calc}: {_points(score)}")
        )
    # (text, note) per step; Japanese puts 点 after the last number, before its note.
    steps: list[tuple[str, str]] = []
    val = int(b["numbers"])
    after = int(b["after_multiplier"])
    if after != val or "/2" in row or "x2" in row:
        op = "÷" if "/2" in row else "×"
        steps.append((f"{val} {op} 2 = {after}", ""))
        val = after
    mods = int(b["modifiers"])
    before_bonus = score - int(b["bonus"]) - int(b["penalty"])
    if mods:
        new = val + mods
        note = ""
        if new < 0 <= before_bonus and not b["zero"]:
            new = before_bonus  # not below 0 (F7V-7.2)
            note = "（0未満にはならない）" if ja else " (not below 0)"
        sign = "+" if mods > 0 else "−"
        steps.append((f"{val} {sign} {abs(mods)} = {_points(new)}", note))
        val = new
    if b["zero"]:
        steps.append(("ゼロがあるので0" if ja else "the Zero makes it 0", ""))
        val = 0
    if bonus := int(b["bonus"]):  # the breakdown's own figure (FLIP7_BONUS, F7V-7.2)
        steps.append((f"{val} + {bonus} = {val + bonus}", "（フリップ7）" if ja else " (Flip 7)"))
        val += bonus
    if penalty := -int(b["penalty"]):  # F7V-8.3
        steps.append((f"{_points(val)} − {penalty} = {_points(val - penalty)}", ""))
    if not steps:
        steps.append((_points(val), ""))
    if ja:
        last = len(steps) - 1
        calc = "、".join(t + ("点" if i == last else "") + n for i, (t, n) in enumerate(steps))
        return f"{who}：{cards} — {calc}"
    return f"{who}: {cards} — " + ", ".join(t + n for t, n in steps)


def describe_action(action: Action, lang: str = "en") -> str:
    """An action in player words: ``"Hit"`` / ``"ヒット"``, ``"Steal P1's 5"`` /
    ``"P1の5を奪う"``; chance outcomes likewise (``"A 5 is turned up"``)."""
    if not isinstance(action, F7Action):
        return str(action)
    ja = _ja(lang)
    op = action.op
    tok = C.TOKENS
    if op == OP_HIT:
        return "ヒット" if ja else "Hit"
    if op == OP_STAY:
        return "ステイ" if ja else "Stay"
    if op == OP_TARGET:
        who = seat_ref(action.seat)
        return f"{who}に渡す" if ja else f"Give to {who}"
    if op == OP_SWAP:
        a, b = seat_ref(action.seat), seat_ref(action.other_seat)
        x, y = card_text(tok[action.card], lang), card_text(tok[action.other_card], lang)
        return f"{a}の{x}と{b}の{y}を交換する" if ja else f"Swap {a}'s {x} with {b}'s {y}"
    if op == OP_STEAL:
        who, x = seat_ref(action.seat), card_text(tok[action.card], lang)
        return f"{who}の{x}を奪う" if ja else f"Steal {who}'s {x}"
    if op == OP_DISCARD:
        who = seat_ref(action.seat)
        if ja:
            return f"{who}に{card_text(tok[action.card], lang)}を捨てさせる"
        return f"Make {who} discard {a_card(tok[action.card], lang)}"
    if op == OP_BONUS:
        return f"自分に+{FLIP7_BONUS}点" if ja else f"Take +{FLIP7_BONUS} points"
    if op == OP_PENALTY:
        who = seat_ref(action.seat)
        return f"{who}に−{FLIP7_BONUS}点" if ja else f"Give −{FLIP7_BONUS} points to {who}"
    if op == OP_DRAW:
        card = a_card(tok[action.card], lang)
        if ja:
            return f"{card}がめくられる"
        return f"{card[0].upper()}{card[1:]} is turned up"
    if op == OP_DEALER:
        who = seat_ref(action.seat)
        return f"最初のディーラーは{who}" if ja else f"{who} deals first"
    return str(action)


def _round_end(d: Mapping[str, Any], lang: str) -> str:
    """``"P1 +33, P2 −4; totals: P0 0, P1 33, P2 0"``: the round's non-zero scores, then the
    totals."""
    ja = _ja(lang)
    scores = [int(x) for x in d.get("scores") or []]
    totals = [int(x) for x in d.get("totals") or []]
    unit = "点" if ja else ""
    gained = ("、" if ja else ", ").join(
        f"{seat_ref(p)} {s:+d}{unit}".replace("-", "−") for p, s in enumerate(scores) if s
    )
    tot = ("、" if ja else ", ").join(
        f"{seat_ref(p)} {_points(t)}{unit}" for p, t in enumerate(totals)
    )
    if ja:
        return f"{gained or '全員0点'}。合計：{tot}"
    return f"{gained or 'nobody scores'}; totals: {tot}"


def _winners(d: Mapping[str, Any], lang: str) -> str:
    """``"P0 wins"`` / ``"P0 and P2 win"`` / ``"P0の勝ち"`` from an event's ``winners``."""
    names = [seat_ref(int(w)) for w in d.get("winners") or []]
    if _ja(lang):
        return f"{'と'.join(names)}の勝ち" if names else "勝者なし"
    if not names:
        return "no winner"
    return f"{_list(names, lang)} {'wins' if len(names) == 1 else 'win'}"


_EVENT_TEMPLATES: dict[str, dict[str, str]] = {
    "en": {
        "dealer": "{who} deals first",
        "round_start": "Round {round} begins; {who} deals",
        "hit": "{who} hits",
        "draw": "{who} gets {card}",
        "set_aside": "{who} sets {name} aside until the flips are done",
        "bust": "{who} busts: another {name}!",
        "flip7": "Flip 7! {who} has seven number cards",
        "second_chance": "{who}'s Second Chance cancels the second {name}",
        "forced": "{who} has only one choice for {name}",
        "no_target": "{name} has nothing to act on and is discarded",
        "steal": "{who} steals {frm}'s {name}",
        "reshuffle": "The discard pile is shuffled into a new deck of {cards} cards",
        "no_cards": "No cards are left to draw: the round ends",
        "draw_limit": "The round has gone on too long and ends here",
        "flip7_bonus": f"{{who}} takes the +{FLIP7_BONUS} points",
        "flip7_penalty": f"{{who}} gives −{FLIP7_BONUS} points to {{to}}",
    },
    "ja": {
        "dealer": "最初のディーラーは{who}",
        "round_start": "ラウンド{round}開始。ディーラーは{who}",
        "hit": "{who}がヒットした",
        "draw": "{who}が{name}をめくった",
        "set_aside": "{who}は{name}を保留した（めくり終えてから使う）",
        "bust": "{who}がバースト！（{name}が2枚目）",
        "flip7": "フリップ7！{who}がナンバーカードを7枚そろえた",
        "second_chance": "{who}のセカンドチャンスが2枚目の{name}を打ち消した",
        "forced": "{who}の{name}は選べる対象が1つだけ",
        "no_target": "{name}は対象がないので捨てられた",
        "steal": "{who}が{frm}の{name}を奪った",
        "reshuffle": "捨て札をシャッフルして新しい山札にした（{cards}枚）",
        "no_cards": "めくれるカードがなくなったのでラウンド終了",
        "draw_limit": "ラウンドが長く続きすぎたのでここで終了",
        "flip7_bonus": f"{{who}}は+{FLIP7_BONUS}点を選んだ",
        "flip7_penalty": f"{{who}}は{{to}}に−{FLIP7_BONUS}点を与えた",
    },
}
"""The events told by one sentence with the event's data filled in (:func:`_event_words`)."""


def _event_words(who: str, d: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The words an event sentence may use: ``who``, ``card`` (with its article in English),
    ``name`` (the card), ``to``, ``frm`` (seats), ``round``, ``cards`` (a count)."""
    has_card = "card" in d
    return {
        "who": who,
        "card": a_card(d.get("card"), lang) if has_card else "",
        "name": card_text(d.get("card"), lang) if has_card else "",
        "to": seat_ref(int(d["to"])) if d.get("to") is not None else "",
        "frm": seat_ref(int(d["from"])) if d.get("from") is not None else "",
        "round": d.get("round"),
        "cards": d.get("cards"),
    }


def _event_en(k: str, who: str, d: Mapping[str, Any], seat: int | None) -> str | None:
    w = _event_words(who, d, "en")
    template = _EVENT_TEMPLATES["en"].get(k)
    if template is not None:
        return template.format(**w)
    card, name, to, frm = w["card"], w["name"], w["to"], w["frm"]
    if k == "stay":
        if d.get("frozen"):
            return f"{who} stays, frozen"
        if d.get("forced"):
            return f"{who} stays after Just One More!"
        return f"{who} stays"
    if k == "set_aside_lost":
        lost = [card_text(t, "en") for t in d.get("cards") or []]
        verb = "is" if len(lost) == 1 else "are"
        return f"{who} busted: the set-aside {_list(lost, 'en')} {verb} discarded"
    if k == "unlucky7":
        gone = [a_card(t, "en") for t in d.get("discarded") or []]
        if not gone:
            return f"Unlucky 7: {who} has nothing else to discard"
        return f"Unlucky 7: {who} discards {_list(gone, 'en')}"
    if k == "give":
        kind = _kind(d.get("card"))
        mod = kind is not None and C.IS_MOD[kind]
        if seat is not None and d.get("to") == seat:
            return f"{who} keeps {card}" if mod else f"{who} plays {name} on themselves"
        return f"{who} gives {card} to {to}" if mod else f"{who} plays {name} on {to}"
    if k == "discard":
        if seat is not None and d.get("from") == seat:
            return f"{who} discards their own {name}"
        return f"{who} makes {frm} discard {card}"
    if k == "swap":
        seats = [int(x) for x in d.get("seats") or [0, 0]]
        cards = [card_text(t, "en") for t in d.get("cards") or ["?", "?"]]
        if seat in seats:
            mine = seats.index(seat)
            other = 1 - mine
            return f"{who} swaps their {cards[mine]} for {seat_ref(seats[other])}'s {cards[other]}"
        a, b = seat_ref(seats[0]), seat_ref(seats[1])
        return f"{who} swaps {a}'s {cards[0]} with {b}'s {cards[1]}"
    if k == "round_end":
        return f"Round {d.get('round')} is over: {_round_end(d, 'en')}"
    if k == "game_end":
        return f"Game over: {_winners(d, 'en')}"
    return None


def _event_ja(k: str, who: str, d: Mapping[str, Any], seat: int | None) -> str | None:
    w = _event_words(who, d, "ja")
    template = _EVENT_TEMPLATES["ja"].get(k)
    if template is not None:
        return template.format(**w)
    name, to, frm = w["name"], w["to"], w["frm"]
    if k == "stay":
        if d.get("frozen"):
            return f"{who}はフリーズでステイした"
        if d.get("forced"):
            return f"{who}はジャスト・ワンモア！のあとステイした"
        return f"{who}がステイした"
    if k == "set_aside_lost":
        lost = _list([card_text(t, "ja") for t in d.get("cards") or []], "ja")
        return f"{who}がバーストしたので、保留していた{lost}は捨てられた"
    if k == "unlucky7":
        gone = [card_text(t, "ja") for t in d.get("discarded") or []]
        if not gone:
            return f"アンラッキー7：{who}には捨てるカードがなかった"
        return f"アンラッキー7：{who}は{_list(gone, 'ja')}を捨てた"
    if k == "give":
        kind = _kind(d.get("card"))
        mod = kind is not None and C.IS_MOD[kind]
        if seat is not None and d.get("to") == seat:
            return f"{who}は{name}を自分の列に置いた" if mod else f"{who}が自分に{name}を出した"
        return f"{who}が{to}に{name}を渡した" if mod else f"{who}が{to}に{name}を出した"
    if k == "discard":
        if seat is not None and d.get("from") == seat:
            return f"{who}が自分の{name}を捨てた"
        return f"{who}が{frm}に{name}を捨てさせた"
    if k == "swap":
        seats = [int(x) for x in d.get("seats") or [0, 0]]
        cards = [card_text(t, "ja") for t in d.get("cards") or ["?", "?"]]
        if seat in seats:
            mine = seats.index(seat)
            other = 1 - mine
            return f"{who}が自分の{cards[mine]}と{seat_ref(seats[other])}の{cards[other]}を交換した"
        a, b = seat_ref(seats[0]), seat_ref(seats[1])
        return f"{who}が{a}の{cards[0]}と{b}の{cards[1]}を交換した"
    if k == "round_end":
        return f"ラウンド{d.get('round')}終了：{_round_end(d, 'ja')}"
    if k == "game_end":
        return f"ゲーム終了：{_winners(d, 'ja')}"
    return None


def describe_event(event: Event, lang: str = "en") -> str:
    """An engine event as a sentence (kinds in ``docs/events.md`` and ``Flip7State``'s
    docstring): ``"P1 plays Flip 4! on P2"`` / ``"P1がP2にフリップ4！を出した"``."""
    d = event.data
    who = seat_ref(event.seat) if event.seat is not None else ""
    fn = _event_ja if _ja(lang) else _event_en
    text = fn(event.kind, who, d, event.seat)
    return text if text is not None else f"{event.kind} {dict(d)}"


RULES_EN = """\
# {title}

A race to {target} points over several rounds.

## A round

1. The dealer deals one face-up card to each player in turn, starting on their left. An action
   or modifier card is resolved as soon as it turns up.
2. Then, in turn, each active player either **hits** (takes one more face-up card) or
   **stays** (takes no more cards; the cards stay in play until the round ends).
3. A second number card of a value you already have **busts** you: your cards are turned face
   down and you score nothing this round.
4. Seven number cards in your row is a **Flip 7**: the round ends at once and you score {bonus}
   more.
5. The round ends when nobody is active or on a Flip 7. Used cards go to the discard pile; the
   deck is kept from round to round and refilled from the discard pile when it runs out.

## Scoring

Add up your number cards{mods}. A busted player scores 0.

## Special cards
{cards}
## Rulings of this implementation

- 2 players may play too; {decks}.
- If several players share the highest total at {target} or more, further rounds are played
  until one leads alone.
- An action card that has a valid target must be used; with none, it is discarded.
- A card that arrives by Swap or Steal counts like a dealt card: it can bust you, and a special
  card takes effect.
"""

RULES_JA = """\
# {title}

何ラウンドかをかけて、先に{target}点に達することを目指す競争。

## ラウンドの流れ

1. ディーラーは左隣から順に、全員に1枚ずつ表向きにカードを配る。アクションカードや修正カードが\
めくられたら、その場で解決する。
2. その後、アクティブなプレイヤーが順に**ヒット**（もう1枚めくる）か**ステイ**（もうめくらない。\
カードはラウンド終了まで場に残る）を選ぶ。
3. すでに持っている数字のナンバーカードをもう1枚めくると**バースト**：カードを裏向きにし、\
このラウンドは0点。
4. ナンバーカードが7枚並んだら**フリップ7**：ラウンドはただちに終わり、{bonus}点を追加で得る。
5. アクティブなプレイヤーがいなくなるか、フリップ7でラウンド終了。使ったカードは捨て札に置く。\
山札はラウンドをまたいで使い続け、尽きたら捨て札をシャッフルして新しい山札にする。

## 得点

ナンバーカードの合計{mods}。バーストした人は0点。

## 特殊なカード
{cards}
## この実装の裁定

- 2人でも遊べる。{decks}。
- {target}点以上で合計の最多が同点なら、単独首位が決まるまでラウンドを続ける。
- 対象がいるアクションカードは必ず使う。対象がいなければ捨てる。
- スワップやスティールで来たカードも配られたカードと同じ扱い：バーストすることがあり、特殊な\
カードの効果も出る。
"""

CARDS_V_EN = """
- **Zero**: counts toward Flip 7; your round score is 0 unless you Flip 7; you may only hit.
- **Unlucky 7**: discard your other number and modifier cards; it never busts you.
- **Lucky 13**: you may hold one other 13 as well; a third 13 busts you.
- **Modifiers** (÷2, −2 … −10): give each to any player who has not busted (you included).
- **Just One More!**: the target takes the next card, then must stay.
- **Flip 4!**: the target flips 4 cards, one by one, stopping early on a bust or a Flip 7;
  action and modifier cards among them wait until the end (they are lost on a bust).
- **Swap**, **Steal**, **Discard**: swap two face-up cards of two players / take one into your
  row / make a player discard one.
"""
CARDS_C_EN = """
- **Modifiers** (+2 … +10, ×2) go to the player who draws them (×2 doubles the numbers).
- **Freeze**: the target stays. **Flip Three**: the target flips 3 cards, one by one,
  stopping early on a bust or a Flip 7.
- **Second Chance**: keep it; it cancels one duplicate. Hold at most one.
"""
CARDS_V_JA = """
- **ゼロ**：7枚に数える。フリップ7しない限りそのラウンドは0点。ヒットしか選べない。
- **アンラッキー7**：他のナンバーカードと修正カードをすべて捨てる。これでバーストはしない。
- **ラッキー13**：もう1枚の13を持っていてもよい。3枚目の13でバースト。
- **修正カード**（÷2、−2〜−10）：バーストしていないプレイヤー（自分も可）に渡す。
- **ジャスト・ワンモア！**：対象は次の1枚を受け取り、その後ステイする。
- **フリップ4！**：対象は4枚を1枚ずつめくる。バーストかフリップ7になったらそこで止める。\
その中のアクションカードと修正カードは最後に解決する（バーストしたら捨てる）。
- **スワップ**、**スティール**、**ディスカード**：2人の表向きのカードを1枚ずつ交換する／1枚奪って\
自分の列に加える／1枚捨てさせる。
"""
CARDS_C_JA = """
- **修正カード**（+2〜+10、×2）は引いた人のもの（×2はナンバーカードの合計を2倍）。
- **フリーズ**：対象はステイする。**フリップ3**：対象は3枚を1枚ずつめくる。バーストか\
フリップ7になったらそこで止める。
- **セカンドチャンス**：持っておき、同じ数字を1回打ち消す。1人1枚まで。
"""


def rules_text(game: Flip7, lang: str = "en") -> str:
    """The rules summary (Markdown: headings, lists), with the project's rulings; no notation,
    no rule ids."""
    v = game.vengeance
    target = game.options.target
    if _ja(lang):
        mods = (
            "。÷2があれば半分にし（切り捨て）、他の修正カードの分を引く（0点未満にはならない）。"
            f"ゼロがあればフリップ7しない限り0点。フリップ7なら+{FLIP7_BONUS}点"
            if v
            else f"。×2があれば2倍にし、+の修正カードを足す。フリップ7なら+{FLIP7_BONUS}点"
        )
        cards = CARDS_V_JA if v else CARDS_C_JA
        if game.options.brutal:
            cards += (
                "- **残忍モード**：ラウンドの得点はマイナスもあり、修正カードはバーストした人にも"
                f"渡せる。フリップ7を達成したら、自分に+{FLIP7_BONUS}点か他の1人に−{FLIP7_BONUS}点を選ぶ。\n"
            )
        return RULES_JA.format(
            title=game.title("ja"),
            target=target,
            mods=mods,
            cards=cards,
            decks=_decks(game, "ja"),
            bonus=FLIP7_BONUS,
        )
    mods = (
        "; halve the sum if you hold ÷2 (rounding down), then subtract the other modifiers (not "
        f"below 0). With the Zero you score 0 unless you Flip 7. A Flip 7 adds {FLIP7_BONUS}"
        if v
        else f"; double the sum with ×2, then add the + modifiers. A Flip 7 adds {FLIP7_BONUS}"
    )
    cards = CARDS_V_EN if v else CARDS_C_EN
    if game.options.brutal:
        cards += (
            "- **Brutal mode**: round scores may go below 0, modifiers may go to busted players, "
            f"and a Flip 7 gives +{FLIP7_BONUS} to you or −{FLIP7_BONUS} to another player.\n"
        )
    return RULES_EN.format(
        title=game.title("en"),
        target=target,
        mods=mods,
        cards=cards,
        decks=_decks(game, "en"),
        bonus=FLIP7_BONUS,
    )


def _decks(game: Flip7, lang: str) -> str:
    """The decks line of the rules summary, from the option ``decks`` (F7V-1.5)."""
    from septet.games.flip7.game import AUTO_TWO_DECKS  # game imports this module

    decks = game.options.decks
    if decks == "auto":
        n = AUTO_TWO_DECKS
        return f"{n}人以上は2デッキで遊ぶ" if _ja(lang) else f"{n} or more play with two decks"
    if _ja(lang):
        return "人数によらず2デッキで遊ぶ" if decks == 2 else "人数によらず1デッキで遊ぶ"
    return f"this table plays with {'two decks' if decks == 2 else 'one deck'} at any size"
