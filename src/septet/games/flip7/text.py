"""Text for Flip 7 in English and Japanese: the table, actions, events, rules summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from septet.core.game import Action
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

if TYPE_CHECKING:
    from septet.games.flip7.game import Flip7


def _ja(lang: str) -> bool:
    return lang == "ja"


def _card(token: Any, lang: str) -> str:
    kind = C.KIND_OF_TOKEN.get(str(token))
    return str(token) if kind is None else C.card_name(kind, lang)


def _seat(seat: Any, lang: str) -> str:
    return f"P{seat}"


_STATUS = {
    "en": {"active": "active", "stayed": "stayed", "busted": "BUSTED"},
    "ja": {"active": "プレイ中", "stayed": "ステイ", "busted": "バースト"},
}
_DECISIONS = {
    "en": {
        "hit_stay": "hit or stay",
        "target": "choose who gets {card}",
        "swap": "Swap: choose two cards",
        "steal": "Steal: choose a card",
        "discard": "Discard: choose a card",
        "flip7_choice": "Flip 7: +15 for yourself or −15 to another player",
    },
    "ja": {
        "hit_stay": "ヒットかステイ",
        "target": "{card}を渡す相手を選ぶ",
        "swap": "スワップ：交換する2枚を選ぶ",
        "steal": "スティール：奪うカードを選ぶ",
        "discard": "ディスカード：捨てさせるカードを選ぶ",
        "flip7_choice": "フリップ7：自分に+15か、他の1人に−15",
    },
}


def render(game: Flip7, view: Mapping[str, JSON], lang: str = "en") -> str:
    """The table from a view: one line per player (dealer, status, numbers, modifiers, round
    score, total), the deck and discard sizes, and what is being decided."""
    ja = _ja(lang)
    key = "ja" if ja else "en"
    lines: list[str] = []
    title = game.title(lang) + (" (残忍モード)" if ja else " (brutal)") * bool(view["brutal"])
    rnd = view["round"]
    lines.append(
        f"{title} — {'ラウンド' if ja else 'round'} {rnd}, "
        f"{'目標' if ja else 'target'} {view['target']}"
    )
    me = view.get("seat")
    for p, pl in enumerate(view["players"]):
        nums = [_card(t, lang) for t in pl["row"] if C.IS_NUM[C.KIND_OF_TOKEN[t]]]
        mods = [_card(t, lang) for t in pl["row"] if not C.IS_NUM[C.KIND_OF_TOKEN[t]]] + [
            _card(t, lang) for t in pl["after_bust"]
        ]
        mark = ("D" if view["dealer"] == p else " ") + (">" if view["to_move"] == p else " ")
        you = (" (あなた)" if ja else " (you)") if me == p else ""
        extra = ""
        if view["flip7"] == p:
            extra = " FLIP 7!"
        lines.append(
            f"{mark} P{p}{you} [{_STATUS[key][pl['status']]}] "
            f"{' '.join(nums) or '-'}"
            + (f" | {' '.join(mods)}" if mods else "")
            + f"  = {pl['round_score']}  ({'合計' if ja else 'total'} {pl['total']})"
            + extra
        )
    lines.append(
        f"{'山札' if ja else 'deck'} {view['deck_size']}, "
        f"{'捨て札' if ja else 'discard'} {view['discard_size']}"
    )
    for fr in view["stack"]:
        who = f"P{fr.get('player')}"
        if fr["kind"] == "flip":
            left = fr["left"]
            draw = view["draw"]
            if fr is view["stack"][-1] and draw and draw["set_aside"]:
                left += 1  # the card being flipped now
            text = f"{who}: あと{left}枚めくる" if ja else f"{who}: {left} more to flip"
            if fr["set_aside"]:
                aside = " ".join(_card(t, lang) for t in fr["set_aside"])
                text += f"（保留中: {aside}）" if ja else f" (set aside: {aside})"
            lines.append(text)
        elif fr["kind"] == "just_one_more" and not fr["drawn"]:
            lines.append(
                f"{who}: あと1枚受け取ってステイ" if ja else f"{who}: one more card, then stay"
            )
    dec = view["decision"]
    if dec is not None:
        text = _DECISIONS[key][dec["kind"]].format(card=_card(dec["card"], lang))
        lines.append(f"P{dec['player']}: {text}")
    if view["winners"]:
        names = ", ".join(f"P{w}" for w in view["winners"])
        lines.append(("勝者: " if ja else "winner(s): ") + names)
    return "\n".join(lines)


def describe_action(action: Action, lang: str = "en") -> str:
    """A short phrase for an action or chance outcome."""
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
        return f"P{action.a}に渡す" if ja else f"Give to P{action.a}"
    if op == OP_SWAP:
        a = f"P{action.a}の{_card(tok[action.b], lang)}"
        b = f"P{action.c}の{_card(tok[action.d], lang)}"
        if ja:
            return f"{a}と{b}を交換"
        return (
            f"Swap P{action.a}'s {_card(tok[action.b], lang)} "
            f"with P{action.c}'s {_card(tok[action.d], lang)}"
        )
    if op == OP_STEAL:
        if ja:
            return f"P{action.a}の{_card(tok[action.b], lang)}を奪う"
        return f"Steal P{action.a}'s {_card(tok[action.b], lang)}"
    if op == OP_DISCARD:
        if ja:
            return f"P{action.a}の{_card(tok[action.b], lang)}を捨てさせる"
        return f"Make P{action.a} discard {_card(tok[action.b], lang)}"
    if op == OP_BONUS:
        return "自分に+15" if ja else "+15 for yourself"
    if op == OP_PENALTY:
        return f"P{action.a}に−15" if ja else f"−15 to P{action.a}"
    if op == OP_DRAW:
        return (
            f"{_card(tok[action.a], lang)}がめくられる"
            if ja
            else f"{_card(tok[action.a], lang)} is drawn"
        )
    if op == OP_DEALER:
        return f"最初のディーラーはP{action.a}" if ja else f"P{action.a} deals first"
    return str(action)


def _swap(d: Mapping[str, Any], lang: str) -> str:
    seats = d.get("seats") or [0, 0]
    cards = d.get("cards") or ["?", "?"]
    a = _card(cards[0], lang)
    b = _card(cards[1], lang)
    if _ja(lang):
        return f"P{seats[0]}の{a}とP{seats[1]}の{b}"
    return f"P{seats[0]}'s {a} with P{seats[1]}'s {b}"


def _round_end(d: Mapping[str, Any], lang: str) -> str:
    """``"P1 +33 (totals: P0 0, P1 33, P2 0)"``: the round's non-zero scores, then the totals."""
    scores = [int(x) for x in d.get("scores") or []]
    totals = [int(x) for x in d.get("totals") or []]
    gained = ", ".join(f"P{p} {s:+d}".replace("-", "−") for p, s in enumerate(scores) if s)
    tot = ", ".join(f"P{p} {t}".replace("-", "−") for p, t in enumerate(totals))
    if _ja(lang):
        return f"{gained or '全員0点'}（合計：{tot}）"
    return f"{gained or 'nobody scores'} (totals: {tot})"


def _winners(d: Mapping[str, Any], lang: str) -> str:
    """``"P0 wins"`` / ``"P0 and P2 win"`` / ``"P0の勝ち"`` from an event's ``winners`` list."""
    names = [f"P{w}" for w in d.get("winners") or []]
    if _ja(lang):
        return f"{'・'.join(names)}の勝ち" if names else "勝者なし"
    if not names:
        return "no winner"
    if len(names) == 1:
        return f"{names[0]} wins"
    return f"{', '.join(names[:-1])} and {names[-1]} win"


def describe_event(event: Event, lang: str = "en") -> str:
    """A log line for an engine event (kinds listed in ``Flip7State``'s docstring)."""
    ja = _ja(lang)
    d = event.data
    who = f"P{event.seat}"
    k = event.kind
    card = _card(d.get("card"), lang) if "card" in d else ""
    swap = _swap(d, lang) if k == "swap" else ""
    en: dict[str, str] = {
        "dealer": f"{who} deals first",
        "round_start": f"Round {d.get('round')}: {who} deals",
        "hit": f"{who} hits",
        "stay": f"{who} stays"
        + (" (forced)" if d.get("forced") else "")
        + (" (frozen)" if d.get("frozen") else ""),
        "draw": f"{who} gets {card}",
        "set_aside": f"{who} sets {card} aside",
        "set_aside_lost": f"{who}'s set-aside cards are discarded",
        "bust": f"{who} busts on {card}!",
        "flip7": f"{who}: Flip 7!",
        "unlucky7": f"Unlucky 7: {who} discards everything else",
        "second_chance": f"{who}'s Second Chance saves them from {card}",
        "give": f"{who} plays {card} on P{d.get('to')}",
        "forced": f"{who} must play {card}",
        "no_target": f"{card} has no valid target and is discarded",
        "steal": f"{who} steals P{d.get('from')}'s {card}",
        "discard": f"{who} makes P{d.get('from')} discard {card}",
        "swap": f"{who} swaps {swap}",
        "reshuffle": f"The discard pile is shuffled into a new deck ({d.get('cards')} cards)",
        "no_cards": "No cards left: the round ends",
        "draw_limit": "Draw limit reached: the round ends",
        "flip7_bonus": f"{who} takes the +15 bonus",
        "flip7_penalty": f"{who} gives −15 to P{d.get('to')}",
        "round_end": f"Round {d.get('round')} ends: {_round_end(d, lang)}",
        "game_end": f"Game over: {_winners(d, lang)}",
    }
    jp: dict[str, str] = {
        "dealer": f"最初のディーラーは{who}",
        "round_start": f"ラウンド{d.get('round')}：ディーラーは{who}",
        "hit": f"{who}がヒット",
        "stay": f"{who}がステイ"
        + ("（強制）" if d.get("forced") else "")
        + ("（フリーズ）" if d.get("frozen") else ""),
        "draw": f"{who}に{card}",
        "set_aside": f"{who}は{card}を保留",
        "set_aside_lost": f"{who}の保留カードは捨てられる",
        "bust": f"{who}は{card}でバースト！",
        "flip7": f"{who}：フリップ7！",
        "unlucky7": f"アンラッキー7：{who}は他のカードをすべて捨てる",
        "second_chance": f"{who}はセカンドチャンスで{card}をかわす",
        "give": f"{who}が{card}をP{d.get('to')}に",
        "forced": f"{who}は{card}を使わなければならない",
        "no_target": f"{card}は対象がなく捨てられる",
        "steal": f"{who}がP{d.get('from')}の{card}を奪う",
        "discard": f"{who}がP{d.get('from')}に{card}を捨てさせる",
        "swap": f"{who}が{swap}を交換",
        "reshuffle": f"捨て札をシャッフルして新しい山札に（{d.get('cards')}枚）",
        "no_cards": "カードが尽きたのでラウンド終了",
        "draw_limit": "引ける上限に達したのでラウンド終了",
        "flip7_bonus": f"{who}は+15を選ぶ",
        "flip7_penalty": f"{who}はP{d.get('to')}に−15",
        "round_end": f"ラウンド{d.get('round')}終了：{_round_end(d, lang)}",
        "game_end": f"ゲーム終了：{_winners(d, lang)}",
    }
    table = jp if ja else en
    return table.get(k, f"{k} {dict(d)}")


RULES_EN = """\
# {title}

Race to {target} points over several rounds. Each round the dealer deals one face-up card to
each player; then, in turn, each active player hits (takes a card) or stays. A second card of
the same number busts you (you score 0 this round). Seven number cards in your row is a Flip 7:
the round ends at once and you score 15 more.
Action and modifier cards are resolved as soon as they turn up. Used cards go to the discard
pile; the deck is kept from round to round and refilled from the discard pile when it runs out.

Scoring: sum your number cards{mods}.
{cards}
Moves (seats count from 0): hit, stay, target 2, swap 0:5 2:-4, steal 1:l13, discard 3:zero,
bonus, penalty 2. Cards: {cardlist}.

Rulings of this implementation: see docs/rulings/flip7.md (2 players allowed; 19+ players use
two decks; ties at the top play more rounds; an action with a valid target must be used; a
card arriving by Swap or Steal busts or takes effect like a dealt card).
"""

RULES_JA = """\
# {title}

何ラウンドかかけて{target}点を目指す競争です。各ラウンド、ディーラーが全員に1枚ずつ表向きに\
配り、その後アクティブなプレイヤーが順にヒット（1枚めくる）かステイを選びます。同じ数字が\
2枚になるとバースト（そのラウンド0点）。ナンバーカードが7枚並べばフリップ7：ラウンドは即終了し\
+15点。アクションカードと修正カードはめくられたらすぐに解決します。使ったカードは捨て札へ。\
山札はラウンドをまたいで使い続け、尽きたら捨て札をシャッフルして補充します。

得点：ナンバーカードの合計{mods}。
{cards}
操作（席は0から）：hit、stay、target 2、swap 0:5 2:-4、steal 1:l13、discard 3:zero、bonus、\
penalty 2。カード：{cardlist}。

この実装の裁定（docs/rulings/flip7.md）：2人プレイ可、19人以上は2デッキ、首位同点なら続行、\
対象がいるアクションは必ず使う、スワップ・スティールで来たカードも配られたカードと同じ扱い。
"""

CARDS_V_EN = """
- Zero: counts toward Flip 7; your round score is 0 unless you Flip 7; you may only hit.
- Unlucky 7: discard your other number and modifier cards; never busts you.
- Lucky 13: you may hold one other 13 too; a third 13 busts.
- Modifiers (÷2, −2 … −10): give each to any player not busted.
- Just One More!: the target takes the next card, then stays.
- Flip 4!: the target flips 4 cards; actions and modifiers wait until the end (lost on a bust).
- Swap, Steal, Discard: exchange two face-up cards / take one / make a player discard one.
"""
CARDS_C_EN = """
- Modifiers (+2 … +10, ×2) go to the player who draws them (×2 doubles the numbers).
- Freeze: the target stays. Flip Three: the target flips 3 cards.
- Second Chance: keep it; it cancels one duplicate. Hold at most one.
"""
CARDS_V_JA = """
- ゼロ：7枚に数える。フリップ7しない限りラウンド得点0。ヒットしか選べない。
- アンラッキー7：他のナンバー・修正カードをすべて捨てる。バーストしない。
- ラッキー13：もう1枚の13を持てる。3枚目の13でバースト。
- 修正カード（÷2、−2〜−10）：バーストしていない誰かに渡す。
- ジャスト・ワンモア!：対象は次の1枚を受け取り、ステイする。
- フリップ4!：対象は4枚めくる。アクション・修正カードは最後に解決（バーストしたら捨てる）。
- スワップ・スティール・ディスカード：表向きのカード2枚を交換／1枚奪う／1枚捨てさせる。
"""
CARDS_C_JA = """
- 修正カード（+2〜+10、×2）は引いた人のもの（×2はナンバー合計を2倍）。
- フリーズ：対象はステイ。フリップ3：対象は3枚めくる。
- セカンドチャンス：持っておき、重複を1回打ち消す。1人1枚まで。
"""


def rules_text(game: Flip7, lang: str = "en") -> str:
    """The rules summary (Markdown-ish), with the project's rulings."""
    v = game.vengeance
    target = game.options.target
    kinds = C.VENGEANCE_KINDS if v else C.CLASSIC_KINDS
    cardlist = " ".join(C.TOKENS[k] for k in kinds)
    if _ja(lang):
        mods = (
            "、÷2があれば半分（切り捨て）、他の修正を引く（0未満にはならない）"
            if v
            else "、×2なら2倍、+修正を足す"
        )
        cards = CARDS_V_JA if v else CARDS_C_JA
        if game.options.brutal:
            cards += (
                "- 残忍モード：得点はマイナスもあり、修正カードはバーストした人にも渡せ、"
                "フリップ7は+15か他の1人に−15。\n"
            )
        return RULES_JA.format(
            title=game.title("ja"), target=target, mods=mods, cards=cards, cardlist=cardlist
        )
    mods = (
        "; halve it if you hold ÷2 (round down), subtract the other modifiers (not below 0)"
        if v
        else "; double it with ×2, add the + modifiers"
    )
    cards = CARDS_V_EN if v else CARDS_C_EN
    if game.options.brutal:
        cards += (
            "- Brutal: scores may go below 0, modifiers may go to busted players, and a Flip 7 "
            "gives +15 to you or −15 to another player.\n"
        )
    return RULES_EN.format(
        title=game.title("en"), target=target, mods=mods, cards=cards, cardlist=cardlist
    )
