"""Seven Shot as text, in English and Japanese: the table from a view, actions, events, rules.

Player words only: a card is "the 8 of Earth" / 「土の8」 and the A is "the A" / 「A」 (SS-1.2);
seats are written ``P{n}`` for the consumer to replace with names (``septet.core.text``). The
table's hand keeps each suit's symbol (SS-1.3) so that colour is never the only cue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from septet.core.game import Action
from septet.core.text import seat_ref
from septet.core.types import JSON, Event
from septet.games.seven_shot import rules as R
from septet.games.seven_shot import scoring
from septet.games.seven_shot.actions import Deal, FirstLeader, Pass, Play
from septet.games.seven_shot.cards import (
    ACE,
    RANK_OF,
    SUIT_LETTERS,
    SUIT_OF,
    SUITS,
    card_words,
    parse_card,
    suit_label,
    the_card,
)


def _lang(lang: str) -> str:
    return "ja" if lang == "ja" else "en"


def _card(name: Any, lang: str) -> str:
    """A card of a view or an event (notation) in words, with the English article."""
    try:
        return the_card(parse_card(str(name)), lang)
    except ValueError:
        return str(name)


def _bare(name: Any, lang: str) -> str:
    """A card in words without an article (lists in tables)."""
    try:
        return card_words(parse_card(str(name)), lang)
    except ValueError:
        return str(name)


def join_words(items: Sequence[str], lang: str) -> str:
    """``"a, b and c"`` / ``"a、b、c"``."""
    items = list(items)
    if lang == "ja":
        return "、".join(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _cards(names: Any, lang: str) -> str:
    return join_words([_card(n, lang) for n in names or []], lang)


def _suit_name(letter: Any, lang: str) -> str:
    s = SUITS[SUIT_LETTERS.index(str(letter))]
    return s.ja if lang == "ja" else s.en


def _me(seat: Any, me: Any, lang: str) -> str:
    """``P2`` and, for the viewer, ``P2 (you)`` / ``P2（あなた）``."""
    ref = seat_ref(int(seat))
    if me is not None and seat == me:
        return ref + ("（あなた）" if lang == "ja" else " (you)")
    return ref


def side_name(side: int, num_sides: int, lang: str) -> str:
    """A side in words: a team of partners (4 players: ``Team 1 (P0 & P2)`` /
    ``チーム1（P0・P2）``; SS-2.1) or a single player (3 players: ``P1``; SS-5.1)."""
    if num_sides == 2:
        a, b = side, side + 2
        if lang == "ja":
            return f"チーム{side + 1}（{seat_ref(a)}・{seat_ref(b)}）"
        return f"Team {side + 1} ({seat_ref(a)} & {seat_ref(b)})"
    return seat_ref(side)


def _sevens(k: int, lang: str) -> str:
    if lang == "ja":
        return f"7を{k}枚"
    return f"{k} seven" + ("" if k == 1 else "s")


def _tricks(k: int, lang: str) -> str:
    if lang == "ja":
        return f"トリック{k}回"
    return f"{k} trick" + ("" if k == 1 else "s")


def _hand_by_suit(names: Any, lang: str) -> str:
    groups: dict[int, list[int]] = {}
    for n in names:
        c = parse_card(str(n))
        groups.setdefault(SUIT_OF[c], []).append(c)
    parts = []
    for s in sorted(groups):
        info = SUITS[s]
        ranks = " ".join("A" if c == ACE else str(RANK_OF[c]) for c in sorted(groups[s]))
        name = info.ja if lang == "ja" else info.en
        parts.append(f"{info.symbol}{name} {ranks}")
    return "  ".join(parts) if parts else ("なし" if lang == "ja" else "none")


def _played(card: Any, seat: Any, lang: str) -> str:
    """A card of a trick with who played it: ``"8 of Earth (P1)"`` / ``"土の8（P1）"``."""
    ref = seat_ref(int(seat))
    return f"{_bare(card, lang)}（{ref}）" if lang == "ja" else f"{_bare(card, lang)} ({ref})"


_PHASES = {
    "deal": ("dealing", "配札中"),
    "pass": ("passing cards", "カードを渡す"),
    "first_leader": ("choosing the first leader", "最初のリードを決める"),
    "play": ("tricks", "トリック"),
    "over": ("game over", "ゲーム終了"),
}


def render(view: Mapping[str, JSON], lang: str = "en") -> str:
    """The table seen in ``view`` (``SevenShotState.view``) as plain text: the score, trump,
    each player's tricks and 7s (with the 7-trick and 7s limits, SS-4), the trick in progress or
    the last trick, the viewer's hand and pass, and the last deal's result."""
    lang = _lang(lang)
    v: Any = view
    lines = _head_lines(v, lang)
    lines += _seat_lines(v, lang)
    lines += _trick_lines(v, lang)
    lines += _own_lines(v, lang)
    lines += _warning_lines(v, lang)
    lines += _end_lines(v, lang)
    return "\n".join(lines)


def _head_lines(view: Any, lang: str) -> list[str]:
    """The deal, phase and turn; the score; trump (or the deal's progress)."""
    ja = lang == "ja"
    me = view.get("seat")
    n = int(view["num_players"])
    num_sides = R.num_sides(n)
    lines: list[str] = []
    phase = str(view["phase"])
    phase_name = _PHASES[phase][1 if ja else 0]
    to_move = view.get("to_move")
    if ja:
        head = f"セブンショット — 第{view['deal_number']}ディール — {phase_name}"
        if isinstance(to_move, int) and to_move >= 0:
            head += f" — {_me(to_move, me, lang)}の番"
    else:
        head = f"Seven Shot — deal {view['deal_number']} — {phase_name}"
        if isinstance(to_move, int) and to_move >= 0:
            head += f" — {_me(to_move, me, lang)} to play"
    lines.append(head)
    side_points = list(view["side_points"])
    parts = [
        f"{side_name(s, num_sides, lang)} {p}点" if ja else f"{side_name(s, num_sides, lang)} {p}"
        for s, p in enumerate(side_points)
    ]
    lines.append(
        (f"得点（{view['target']}点先取）：" if ja else f"Score (first to {view['target']}): ")
        + " · ".join(parts)
    )
    ind = view.get("trump_indicator")
    if ind:
        trump = suit_label(SUIT_LETTERS.index(str(view["trump"])), lang)
        lines.append(
            f"切り札：{trump}。切り札表示カード：{_bare(ind, lang)}"
            if ja
            else f"Trump: {trump}; the indicator is {_card(ind, lang)}"
        )
    else:
        lines.append(
            f"配札中（{view['cards_dealt']}/49枚）"
            if ja
            else f"Dealing ({view['cards_dealt']} of 49 cards)"
        )
    return lines


def _seat_lines(view: Any, lang: str) -> list[str]:
    """One line per seat (hand size, tricks, 7s, voids, pass progress), then the sides'
    progress towards SS-4.1 / SS-4.2 (or the 3-player limits)."""
    ja = lang == "ja"
    me = view.get("seat")
    n = int(view["num_players"])
    phase = str(view["phase"])
    lines: list[str] = []
    thr = int(view["threshold"])  # the engine's (scoring.threshold, SS-4.1 / SS-5.3)
    for s in range(n):
        sevens = [c for c in view["taken"][s] if RANK_OF[parse_card(str(c))] == 7]
        voids = [_suit_name(v, lang) for v in view["voids"][s]]
        size = view["hand_sizes"][s]
        if ja:
            line = f"  {_me(s, me, lang)}：手札{size}枚、{_tricks(view['tricks_won'][s], lang)}"
            line += f"、{_sevens(len(sevens), lang)}"
            if sevens:
                line += f"（{join_words([_bare(c, lang) for c in sevens], lang)}）"
            if voids:
                line += f"、持っていないシンボル：{'・'.join(voids)}"
        else:
            line = (
                f"  {_me(s, me, lang)}: {size} card{'s' if size != 1 else ''} in hand, "
                f"{_tricks(view['tricks_won'][s], lang)}"
            )
            line += f", {_sevens(len(sevens), lang)}"
            if sevens:
                line += f" ({join_words([_bare(c, lang) for c in sevens], lang)})"
            if voids:
                line += f"; has no {', '.join(voids)}"
        if phase == "pass" and view["pass_cards"]:
            line += (
                f"、渡すカード{view['pass_counts'][s]}/{view['pass_cards']}枚選択"
                if ja
                else f"; chose {view['pass_counts'][s]} of {view['pass_cards']} cards to pass"
            )
        lines.append(line)
    side_tricks = view["side_tricks"]
    side_sevens = view["side_sevens"]
    if R.team_play(n):
        team_parts = []
        for s in range(2):
            name = side_name(s, 2, lang)
            team_parts.append(
                f"{name}：トリック{side_tricks[s]}/7回、7を{side_sevens[s]}/{thr}枚"
                if ja
                else f"{name}: {side_tricks[s]} of 7 tricks, {side_sevens[s]} of {thr} sevens"
            )
        lines.append("  " + (" | ".join(team_parts)))
    else:
        lines.append(
            f"  7を{thr}枚取ればディールに勝ち、トリックを7回取れば負け"
            if ja
            else f"  {thr} sevens win the deal; 7 tricks lose it"
        )
    return lines


def _trick_lines(view: Any, lang: str) -> list[str]:
    """The trick in progress, or the last trick and who leads."""
    ja = lang == "ja"
    phase = str(view["phase"])
    lines: list[str] = []
    trick = view.get("trick") or []
    if trick:
        played = ("、" if ja else ", ").join(_played(t["card"], t["seat"], lang) for t in trick)
        led = _suit_name(view["led_suit"], lang)
        lines.append(
            f"場のトリック（{seat_ref(view['leader'])}のリード、{led}）：{played}"
            if ja
            else f"Trick led by {seat_ref(view['leader'])} ({led}): {played}"
        )
    elif phase == "play":
        last = view.get("last_trick")
        if last and last.get("deal") == view["deal_number"]:
            cards = ("、" if ja else ", ").join(
                _played(c, s, lang) for s, c in zip(last["seats"], last["cards"], strict=False)
            )
            lines.append(
                f"前のトリック：{cards} → {seat_ref(last['winner'])}が取った"
                if ja
                else f"Last trick: {cards}; won by {seat_ref(last['winner'])}"
            )
        lead = seat_ref(int(view["leader"]))
        lines.append(f"{lead}がリードする" if ja else f"{lead} leads")
    return lines


def _pass_line(view: Any, lang: str) -> str | None:
    """Whom the viewer passes to, while their pass is still to choose (SS-2.3, SS-5.2)."""
    k = int(view.get("pass_cards") or 0)
    me = view.get("seat")
    if view["phase"] != "pass" or not k or me is None or view.get("passed"):
        return None
    to = seat_ref(int(view["passed_to"]))
    if lang == "ja":
        whom = f"同じチームの{to}" if R.team_play(view["num_players"]) else f"左隣の{to}"
        return f"{whom}に{k}枚渡す（受け取るカードを見る前に選ぶ）"
    whom = f"your partner {to}" if R.team_play(view["num_players"]) else f"{to}, on your left"
    return f"Pass {k} cards to {whom} (choose before you see the cards you receive)"


def _warning_lines(view: Any, lang: str) -> list[str]:
    """A warning for each side one trick short of the tricks that lose the deal (SS-4.2,
    SS-5.5: ``scoring.TRICKS_TO_LOSE``, the number the engine ends the deal at): the viewer's
    side in the second person."""
    if view["phase"] != "play":
        return []
    ja = lang == "ja"
    n = int(view["num_players"])
    me = view.get("seat")
    lose = scoring.TRICKS_TO_LOSE
    lines: list[str] = []
    for side, tricks in enumerate(view["side_tricks"]):
        if tricks != lose - 1:
            continue
        mine = me is not None and (side == R.side_of(me, n))
        if R.team_play(n):
            team = "あなたのチーム" if ja and mine else side_name(side, 2, lang)
            if ja:
                lines.append(
                    f"注意：{team}はトリックを{tricks}回取った。あと1回取るとディールに負け、"
                    "手札に残った「7」（切り札表示カードが7ならそれも）は相手チームのものになる"
                )
            else:
                who = "your team has" if mine else f"{team} has"
                hands = "your hands" if mine else "its hands"
                lines.append(
                    f"Careful: {who} taken {tricks} tricks. One more loses the deal, and the 7s "
                    f"left in {hands} (and the trump indicator, if it is a 7) go to the other team"
                )
        elif ja:
            who = "あなた" if mine else seat_ref(side)
            lines.append(
                f"注意：{who}はトリックを{tricks}回取った。あと1回取るとディールに負け、"
                "他の2人が2点ずつ得る"
            )
        else:
            who = "you have" if mine else f"{seat_ref(side)} has"
            lines.append(
                f"Careful: {who} taken {tricks} tricks. One more loses the deal: the two others "
                "win it and score 2 points each"
            )
    return lines


def _own_lines(view: Any, lang: str) -> list[str]:
    """The viewer's hand and its pass (whom to, chosen, given, received)."""
    ja = lang == "ja"
    lines: list[str] = []
    if view.get("hand") is not None:
        lines.append(("手札：" if ja else "Your hand: ") + _hand_by_suit(view["hand"], lang))
        whom = _pass_line(view, lang)
        if whom:
            lines.append(whom)
        if view.get("passing"):
            lines.append(
                ("渡すカード：" if ja else "Chosen to pass: ")
                + join_words([_bare(c, lang) for c in view["passing"]], lang)
            )
        if view.get("passed"):
            to, frm = seat_ref(int(view["passed_to"])), seat_ref(int(view["received_from"]))
            gave = join_words([_bare(c, lang) for c in view["passed"]], lang)
            got = join_words([_bare(c, lang) for c in view["received"]], lang)
            lines.append(
                f"{to}に渡した：{gave}。{frm}から受け取った：{got}"
                if ja
                else f"Passed to {to}: {gave}. Received from {frm}: {got}"
            )
    return lines


def _end_lines(view: Any, lang: str) -> list[str]:
    """The last deal's result (every deal's and the winners at the game's end)."""
    n = int(view["num_players"])
    phase = str(view["phase"])
    lines: list[str] = []
    deals = view.get("deals") or []
    if phase == "over":  # every deal, for the end of the game
        lines.extend(describe_deal_end(d, view, lang) for d in deals)
    elif deals and not view.get("tricks"):  # the last one, until the next first trick is done
        lines.append(describe_deal_end(deals[-1], view, lang))
    if phase == "over":
        winners = [int(w) for w in view.get("winners") or []]
        lines.append(_winners_line(winners, n, lang))
    return lines


def _winners_line(winners: list[int], n: int, lang: str) -> str:
    ja = lang == "ja"
    if not winners:
        return "勝者なし" if ja else "No winner"
    if R.team_play(n):
        who = side_name(winners[0] % 2, 2, lang)
        return f"勝者：{who}" if ja else f"Winner: {who}"
    names = [seat_ref(w) for w in winners]
    if ja:
        return f"勝者：{'・'.join(names)}"
    return ("Winner: " if len(names) == 1 else "Winners: ") + join_words(names, lang)


def _deal_sentences(d: Mapping[str, Any], num_sides: int, lang: str) -> str:
    """How a deal ended and what it scored, in words (SS-4, SS-5): the summary of ``deal_end``
    (also each entry of a view's ``deals``)."""
    ja = lang == "ja"
    deal = d.get("deal")
    head = (f"第{deal}ディール終了：" if ja else f"Deal {deal} over: ") if deal else ""
    return head + _ending_text(d, num_sides, lang) + _points_text(d, num_sides, lang)


def _ending_text(d: Mapping[str, Any], num_sides: int, lang: str) -> str:
    """How the deal ended: SS-4.1 / SS-5.3, SS-4.2 / SS-5.5 (and the 7s moved), SS-4.3."""
    ja = lang == "ja"
    cond = str(d["condition"])
    side = int(d["side"])
    sevens = [int(x) for x in d.get("sevens") or [0] * num_sides]
    winning = [int(x) for x in d.get("winning_sides") or []]
    who = side_name(side, num_sides, lang)
    if cond == "sevens":  # SS-4.1 / SS-5.3
        text = (
            f"{who}が{_sevens(sevens[side], lang)}獲得してディールに勝った"
            if ja
            else f"{who} wins the deal with {_sevens(sevens[side], lang)}"
        )
    elif cond == "seven_tricks":  # SS-4.2 / SS-5.5
        others = [side_name(s, num_sides, lang) for s in winning]
        if ja:
            text = f"{who}がトリックを7回取ったので、{'と'.join(others)}がディールに勝った"
        else:
            verb = "wins" if len(others) == 1 else "win"
            text = f"{who} took 7 tricks, so {join_words(others, lang)} {verb} the deal"
        text += _moved_text(d, who, others[0], lang)
    else:  # SS-4.3: hands empty
        last = seat_ref(int(d.get("last_trick_winner", side)))
        text = (
            f"手札がなくなり、最後のトリックを取った{last}が切り札表示カードも獲得。{who}の勝ち"
            if ja
            else f"the hands are empty; {last} took the last trick and the trump indicator, "
            f"so {who} wins the deal"
        )
    return text


def _moved_text(d: Mapping[str, Any], who: str, to: str, lang: str) -> str:
    """SS-4.2: the losers' 7s in hand and a 7 indicator, moved to the winners (or nothing)."""
    ja = lang == "ja"
    moved = [str(c) for c in d.get("transferred") or []]
    indicator = str(d.get("indicator"))
    in_hand = [c for c in moved if c != indicator]
    parts = []
    if in_hand:
        cards = join_words([_bare(c, lang) for c in in_hand], lang)
        parts.append(f"{who}の手札の7（{cards}）" if ja else f"the 7s left in its hands ({cards})")
    if indicator in moved:
        card = _bare(indicator, lang)
        parts.append(f"切り札表示カード（{card}）" if ja else f"the trump indicator ({card})")
    if not parts:
        return ""
    moving = "と".join(parts) if ja else " and ".join(parts)
    return f"。{moving}は{to}のものになる" if ja else f"; {moving} go to {to}"


def _points_text(d: Mapping[str, Any], num_sides: int, lang: str) -> str:
    """The points: the formula (SS-4.4, SS-5.4, with the second's half) or SS-5.5's 2 each."""
    ja = lang == "ja"
    gains = [int(x) for x in d.get("gains") or [0] * num_sides]
    winning = [int(x) for x in d.get("winning_sides") or []]
    text = ""
    terms = d.get("terms")
    formula = d.get("formula")
    # The winners first, then anyone paid as second (SS-5.4).
    order = winning + [s for s in range(len(gains)) if s not in winning]
    got = [
        f"{side_name(s, num_sides, lang)} +{gains[s]}点"
        if ja
        else f"{side_name(s, num_sides, lang)} +{gains[s]}"
        for s in order
        if gains[s]
    ]
    got_text = ("、" if ja else ", ").join(got)
    if isinstance(terms, Mapping) or (formula and "=" in str(formula)):
        if isinstance(terms, Mapping):
            a, b, raw = int(terms["sevens"]), int(terms["other_sevens"]), int(terms["raw"])
        else:  # summaries written before ``terms`` existed
            left, _, right = str(formula).partition("=")
            a, b = (int(x) for x in left.replace("+ 1", "").split(" - "))
            raw = int(right)
        calc = f"{a} − {b} + 1 = {raw}".replace("= -", "= −")
        if ja:
            floor = "（最低1点）" if raw < 1 else ""
            text += f"。得点：{calc}{floor} → {got_text}"
        else:
            floor = ", at least 1" if raw < 1 else ""
            text += f". Points: {calc}{floor} → {got_text}"
        second = [int(s) for s in d.get("second") or []]
        if second:
            names = [seat_ref(s) for s in second]
            text += (
                f"（7の枚数が2位の{'と'.join(names)}は半分、切り捨て）"
                if ja
                else f" ({join_words(names, lang)}, second in 7s, "
                f"{'gets' if len(names) == 1 else 'get'} half, rounded down)"
            )
    else:
        text += f"。2点ずつ → {got_text}" if ja else f". 2 points each → {got_text}"
    return text


def describe_deal_end(summary: Mapping[str, JSON], view: Mapping[str, JSON], lang: str) -> str:
    """A finished deal in words (a view's ``deals`` entry): how it ended, any 7s moved, the
    points by the formula (SS-4, SS-5)."""
    lang = _lang(lang)
    n = int(view["num_players"])
    return _deal_sentences(summary, R.num_sides(n), lang)


def describe_action(action: Action, lang: str = "en") -> str:
    """An action in player words: ``"Play the 8 of Earth"`` / ``"土の8を出す"``, ``"Pass the 4
    of Moon"`` / ``"月の4を渡す"``; chance outcomes likewise (``"Deal the A"``)."""
    lang = _lang(lang)
    ja = lang == "ja"
    if isinstance(action, Play):
        c = the_card(action.card, lang)
        return f"{c}を出す" if ja else f"Play {c}"
    if isinstance(action, Pass):
        c = the_card(action.card, lang)
        return f"{c}を渡す" if ja else f"Pass {c}"
    if isinstance(action, Deal):
        c = the_card(action.card, lang)
        return f"{c}を配る" if ja else f"Deal {c}"
    if isinstance(action, FirstLeader):
        who = seat_ref(action.seat)
        return f"{who}が最初にリードする" if ja else f"{who} leads first"
    return str(action)


def _trick_won(d: Mapping[str, Any], seat: int, lang: str) -> str:
    ja = lang == "ja"
    cards = [str(c) for c in d["cards"]]
    seats = d.get("seats")
    # Events recorded before ``seats`` existed: play order from the leader.
    lead = int(d.get("leader", seat))
    idx = list(seats).index(seat) if seats else (seat - lead) % len(cards)
    card = _card(cards[idx], lang)
    how = str(d.get("how"))
    who = seat_ref(seat)
    if how == "ace":
        text = f"{who}がAでトリックを取った" if ja else f"{who} wins the trick with the A"
    elif how == "trump":
        text = (
            f"{who}が切り札の{card}でトリックを取った"
            if ja
            else f"{who} wins the trick with {card}, a trump"
        )
    else:
        text = f"{who}が{card}でトリックを取った" if ja else f"{who} wins the trick with {card}"
    sevens = list(d.get("sevens") or [])
    if sevens:
        got = _cards(sevens, lang)
        # one verb: "you win ..., taking" (relabel)
        text = text[: -len("取った")] + f"取り、{got}を獲得した" if ja else f"{text}, taking {got}"
    return text


def describe_event(event: Event, lang: str = "en") -> str:
    """An event of ``SevenShotState.apply`` as a sentence (see ``docs/events.md``)."""
    lang = _lang(lang)
    ja = lang == "ja"
    d = event.data
    seat = event.seat
    who = seat_ref(seat) if seat is not None else ""
    k = event.kind
    if k == "card_played":
        c = _card(d["card"], lang)
        return f"{who}が{c}を出した" if ja else f"{who} plays {c}"
    if k == "trick_won":
        return _trick_won(d, int(seat if seat is not None else 0), lang)
    if k == "card_dealt":
        c = _card(d["card"], lang)
        return f"{who}に{c}が配られた" if ja else f"{who} is dealt {c}"
    if k == "trump_indicator":
        c = _card(d["card"], lang)
        t = _suit_name(d["trump"], lang)
        return (
            f"切り札表示カードは{c}。切り札は{t}"
            if ja
            else f"The trump indicator is {c}: {t} is trump"
        )
    if k in _PASS_EVENTS:
        return _pass_event(k, d, who, lang)
    if k == "first_leader":
        return f"最初のトリックは{who}がリードする" if ja else f"{who} leads the first trick"
    if k == "deal_end":
        num_sides = len(d.get("gains") or []) or 2
        return _deal_sentences(d, num_sides, lang)
    if k == "new_deal":
        lead = seat_ref(int(d["first_leader"]))
        return (
            f"第{d['deal']}ディール開始。最初のリードは{lead}"
            if ja
            else f"Deal {d['deal']} begins; {lead} leads first"
        )
    if k == "game_end":
        ws = [int(w) for w in d.get("winners") or []]
        points = d.get("points") or []
        n = 4 if len(points) == 2 else 3
        line = _winners_line(ws, n, lang)
        return f"ゲーム終了。{line}" if ja else f"Game over. {line}"
    return f"{k} {dict(d)}"


_PASS_EVENTS = frozenset(("pass_chosen", "pass_ready", "passes_done", "cards_received"))


def _pass_event(k: str, d: Mapping[str, Any], who: str, lang: str) -> str:
    """The events of the pass (SS-2.3 / SS-5.2) as sentences."""
    ja = lang == "ja"
    if k == "pass_chosen":
        c = _card(d["card"], lang)
        return f"{who}は{c}を渡すことにした" if ja else f"{who} chooses {c} to pass"
    if k == "pass_ready":
        count = int(d.get("count", 3))
        return (
            f"{who}が渡す{count}枚を選んだ"
            if ja
            else f"{who} has chosen {count} card{'s' if count != 1 else ''} to pass"
        )
    if k == "passes_done":
        return (
            "全員が選んだカードを同時に渡した"
            if ja
            else "Everyone passes the chosen cards at the same time"
        )
    if k == "cards_received":
        cs = _cards(d["cards"], lang)
        frm = seat_ref(int(d["from"]))
        return f"{who}が{frm}から{cs}を受け取った" if ja else f"{who} receives {cs} from {frm}"
    return f"{k} {dict(d)}"


_RULES_EN = """\
# Seven Shot

Collect 7s in tricks: 3 players each for themselves, or 4 players in two teams of partners
sitting opposite each other.

## Cards

49 cards in 7 suits; each suit has 7 consecutive numbers and exactly one 7:

{suits}

The **A** (the 1 of Sun) wins any trick it is played to. It follows suit as a Sun card: on a
Sun lead you must play a Sun card (the A included) if you have one, and on another lead you may
play the A only when you have no card of the led suit. Led, it makes Sun the led suit.

## A deal

1. Deal all the cards (16 each with 3 players, 12 with 4). Turn the last card face up: it is the
   **trump indicator**, and its suit is trump for the deal.
2. {passing}
3. The first leader is drawn at random in the first deal; in each later deal it is the player
   to the left of the previous deal's first leader.

## Tricks

The leader plays any card; the others must follow the led suit if they can, and otherwise may
play any card. The A wins; otherwise the highest trump; otherwise the highest card of the led
suit. The winner takes the cards face up and leads the next trick.

## End of a deal

After every trick, in this order:

1. A side that has taken **4 or more 7s** (3 or more with 3 players) wins the deal.
2. A side that has won **7 tricks** loses. With 4 players the 7s left in its hands, and the
   trump indicator if it is a 7, go to the other team, which wins the deal. With 3 players the
   two others win the deal and score 2 points each.
3. When the hands are empty, the winner of the last trick also takes the trump indicator, and
   their side wins the deal.

## Points

- 4 players: the winning team scores its 7s − the other team's 7s + 1, at least 1.
- 3 players: the winner scores their 7s − the second-highest count of 7s + 1, at least 1; the
  player or players with that second-highest count score half of it, rounded down.
- The losers score nothing.

The first side to reach {target} points wins. If several reach it after the same deal, the
highest total wins; a tie is a shared win.
"""

_RULES_JA = """\
# セブンショット

トリックで「7」を集めるゲーム。3人は個人戦、4人は向かい合う2人が組むチーム戦。

## カード

49枚、7つのシンボル。各シンボルに連続した7つの数字があり、7は1枚ずつ：

{suits}

**A**（日の1）を出したプレイヤーは必ずトリックに勝つ。Aは日のカードとしてフォローに従う：日がリードされたら、日のカードを持っていればAを含む日のカードを出す。他のシンボルが\
リードされたとき、Aを出せるのはそのシンボルのカードを持っていない場合だけ。Aをリードすると日が\
リードされたシンボルになる。

## ディール

1. すべてのカードを配る（3人は16枚、4人は12枚ずつ）。残った1枚を表向きにして\
**切り札表示カード**とし、そのシンボルがこのディールの切り札。
2. {passing}
3. 最初のリードプレイヤーは、1回目のディールでは無作為に決める。以降は直前のディールの\
最初のリードプレイヤーの左隣。

## トリック

リードプレイヤーは好きなカードを出す。他のプレイヤーは出せるならリードと同じシンボルのカードを\
出す（フォロー）。出せなければ好きなカードを出す。Aを出した人が勝ち。なければ最も大きい切り札、\
それもなければリードされたシンボルで最も大きいカードを出した人が勝つ。勝者はカードを表向きに\
獲得し、次のトリックをリードする。

## ディールの終了

トリックのたびに、次の順に確かめる：

1. 「7」を**4枚以上**（3人なら3枚以上）獲得した側がディールに勝つ。
2. **7回**カードを獲得した側は負け。4人なら、その側の手札の7と切り札表示カード（7なら）を\
相手チームの獲得したカードに加え、相手チームが勝つ。3人なら他の2人が勝ち、それぞれ2点。
3. 手札がなくなったら、最後のトリックに勝った人が切り札表示カードも獲得し、その側が勝つ。

## 点数

- 4人：勝ったチームは（自分のチームの7の枚数）−（相手チームの7の枚数）＋1点、最低1点。
- 3人：勝者は（自分の7の枚数）−（2番目に多い7の枚数）＋1点、最低1点。2番目に多く7を\
獲得した人は、勝者の点数の半分（切り捨て）。
- 負けた側は0点。

先に{target}点に達した側の勝ち。同じディールで複数が達したら合計の多い方が勝ち、同点なら\
勝利を分け合う。
"""


def rules_text(lang: str = "en", target: int = 7, pass_cards: int = 3) -> str:
    """The rules summary with the project's rulings, in ``lang``, as Markdown (headings and
    lists; no rule ids, no notation), for the options ``target`` and ``pass_cards``."""
    lang = _lang(lang)
    suits = "\n".join(f"- {suit_label(s.index, lang)}" for s in SUITS)
    if lang == "ja":
        passing = (
            f"全員が同時に{pass_cards}枚を渡す（受け取るカードを見る前に選ぶ）。4人なら同じ"
            "チームの相手に、3人なら左隣に。"
            if pass_cards
            else "カードは渡さない（この卓の設定）。"
        )
    else:
        passing = (
            f"Everyone passes {pass_cards} card{'s' if pass_cards != 1 else ''} at the same time, "
            "choosing before seeing what they receive: to the partner with 4 players, to the "
            "left neighbour with 3."
            if pass_cards
            else "No cards are passed (this table's option)."
        )
    text = _RULES_JA if lang == "ja" else _RULES_EN
    return text.format(suits=suits, target=target, passing=passing)


__all__ = [
    "describe_action",
    "describe_deal_end",
    "describe_event",
    "join_words",
    "render",
    "rules_text",
    "side_name",
]
