"""Learn to play: a guided first game of each game, served as a normal table.

A tutorial is a real game of the engine with a fixed seed and scripted bots (``script:name=
learn-<game>``, :mod:`septet.bots.scripted`), both found by ``tools/learn_search.py`` so that the
game shows each rule the tutorial promises (:data:`TUTORIALS`), as it happens. The newcomer sits
at seat 0; the client (``septet/web/learn.js``) shows, at each version of the table, the lessons
that apply there (the script's ``steps``, keyed by version; their texts here, :data:`LESSONS`,
keyed by the kind of decision or event) and points at the scripted move (``human_moves``).
Nothing here knows a rule: the engine deals, validates and reports; the texts only explain.

``POST /api/learn/{game}`` makes the table (or returns the newcomer's own tutorial still in
play, so that coming back resumes it); ``GET /api/learn/{game}`` gives the script's steps and
texts; ``GET /api/learn`` lists the tutorials (see ``routes/learn.py``).
"""

from __future__ import annotations

from typing import Any

from septet.bots.scripted import load_script
from septet.core import SeptetError

Text = dict[str, str]

TUTORIALS: dict[str, dict[str, Any]] = {
    "double-seven": {
        "options": {},
        "players": 3,
        "promises": ("draw", "start", "expand", "exchange", "retrieve", "seven"),
        "bonus": ("take", "rainbow"),
        "max_moves": 90,
    },
    "flip7": {
        # Classic Flip 7: the edition with Second Chance; a short race so one sitting ends it.
        "options": {"edition": "classic", "target": 100},
        "players": 3,
        "promises": ("hit", "stay", "bust", "modifier", "target", "second_chance", "flip7"),
        "bonus": ("flip7_you",),
        "max_moves": 45,
    },
    "seven-shot": {
        # One deal decides this first game (a full game plays to 7 points).
        "options": {"target": 1},
        "players": 3,
        "promises": ("pass", "follow", "void", "trump", "seven", "deal_end"),
        "bonus": ("trump_you",),
        "max_moves": 25,
    },
}
"""Per game: the table's options and players, the rules its guided game must show (see
``tools/learn_search.py``: ``promises``, and ``bonus`` rules preferred where a seed has them),
and the most moves the newcomer makes."""


def script_name(game: str) -> str:
    """The script (and scripted bots' spec name) of ``game``'s tutorial: ``learn-<game>``."""
    return f"learn-{game}"


def bot_spec(game: str) -> str:
    """The agent spec of the tutorial's bots: ``script:name=learn-<game>``."""
    return f"script:name={script_name(game)}"


def decision_kind(game: str, view: dict[str, Any], legal: list[str], move: str = "") -> str:
    """The kind of a newcomer's decision, as lessons are keyed (``move:<kind>``).

    Double Seven: the verb of the move made (``draw`` for either draw, ``start``, ``exchange``
    ...).
    Flip 7: ``hit`` / ``stay``, or the decision's kind with its card (``target:freeze``).
    Seven Shot: ``pass``, ``lead``, ``follow`` (only cards of the led suit may be played while
    others are in hand), ``void`` (no card of the led suit in hand), else ``play``.
    """
    if game == "double-seven":
        verb = move.split(" ")[0] if move else (legal[0].split(" ")[0] if legal else "")
        return "draw" if verb == "take" else verb
    if game == "flip7":
        dec = view.get("decision") or {}
        kind = str(dec.get("kind", ""))
        if kind == "hit_stay":
            return move or "hit_stay"
        card = dec.get("card")
        return f"{kind}:{card}" if card else kind
    if game == "seven-shot":
        if view.get("phase") == "pass":
            return "pass"
        led = view.get("led_suit")
        if not led:
            return "lead"
        hand = [str(c) for c in view.get("hand") or []]
        if not any(c[0] == led for c in hand):
            return "void"
        if len(hand) > len(legal):
            return "follow"
        return "play"
    return ""


MODIFIERS = frozenset({"+2", "+4", "+6", "+8", "+10", "x2"})
"""Flip 7's classic modifier cards, as the events name them."""


def event_lessons(game: str, kind: str, seat: int | None, data: Any, human: int) -> list[str]:
    """The lesson ids an event may bring, the most particular first: a game's special cases
    (a Flip 7 modifier drawn by the newcomer, a Seven Shot trick won by trump or with a 7 by
    the newcomer), then ``event:<kind>:you`` for the newcomer's own event, then
    ``event:<kind>``."""
    out: list[str] = []
    mine = seat == human
    if game == "flip7" and kind == "draw" and mine and data.get("card") in MODIFIERS:
        out.append("event:draw:modifier")
    if game == "seven-shot" and kind == "trick_won":
        if data.get("winner") == human and data.get("sevens"):
            out.append("event:trick_won:seven:you")
        if data.get("how") == "trump":
            out.append("event:trick_won:trump")
        mine = data.get("winner") == human
    if mine:
        out.append(f"event:{kind}:you")
    out.append(f"event:{kind}")
    return out


def _t(en: str, ja: str) -> Text:
    return {"en": en, "ja": ja}


DOUBLE_SEVEN: dict[str, Text] = {
    "welcome": _t(
        "Welcome to Double Seven! You sit at the bottom with two bots. Build families of one "
        "animal: every tile in your families scores a point. I will point at each move to make.",
        "ダブルセブンへようこそ！あなたは下の席で、2体のボットと遊びます。同じ動物の家族を作り、"
        "家族のタイル1枚ごとに1点を得ます。打つ手を一つずつ指し示します。",
    ),
    "move:draw": _t(
        "Your turn starts with a draw: 2 tiles (3 when your rack was empty), one at a time, each "
        "the top face-down tile of the pile or any face-up tile. Tap the highlighted move.",
        "手番はまずドローから：1枚ずつ2枚引きます（ラックが空だったら3枚）。山札の裏向きのタイルか、"
        "表向きのタイルのどれかです。光っている手をタップしましょう。",
    ),
    "move:no-rainbow": _t(
        "With 5 or more tiles of different animals and no clover you may declare Rainbow!: your "
        "rack is shown to everyone and you draw one more tile. Not this time.",
        "ラックに違う動物のタイルが5枚以上あり、クローバーがなければ、レインボー！を宣言できます："
        "ラックを全員に見せて、もう1枚引きます。今回は宣言しません。",
    ),
    "move:rainbow": _t(
        "Rainbow! Your rack holds 5 or more tiles, all different animals, no clover: show it to "
        "everyone and draw one more tile.",
        "レインボー！ラックに違う動物のタイルが5枚以上、クローバーなし：全員に見せて、もう1枚"
        "引きます。",
    ),
    "move:start": _t(
        "Now the actions, as many as you like. Start a family: 2 or more tiles of one animal "
        "from your rack (clovers are wild). Tap the tiles, then the move.",
        "ここからはアクションを好きなだけ。家族を作る：同じ動物のタイル2枚以上をラックから出します"
        "（クローバーはどの動物にもなれます）。タイルをタップしてから手をタップ。",
    ),
    "move:expand": _t(
        "Expand a family: add tiles of its animal (or clovers) from your rack. A family that "
        "grows from 6 or fewer to 7 or more earns a 7 token: Seven!",
        "家族を拡大する：その動物のタイル（かクローバー）をラックから加えます。6枚以下の家族が"
        "7枚以上になると「7」トークンを獲得：セブン！",
    ),
    "move:exchange": _t(
        "Exchange: swap one of your families for another player's family of exactly the same "
        "size. Take a bigger family away from a bot!",
        "家族を交換する：自分の家族1つを、他のプレイヤーのまったく同じ枚数の家族と交換します。"
        "ボットの家族をもらいましょう！",
    ),
    "move:retrieve": _t(
        "A clover sits in a family: put a tile of that animal from your rack in its place and "
        "take the clover to your rack. Any family on the table will do.",
        "家族の中にクローバーがあります：その動物のタイルをラックから置いて、クローバーを自分の"
        "ラックに取ります。どのプレイヤーの家族からでも回収できます。",
    ),
    "move:two-for-one": _t(
        "Two for one, once a turn: put 2 tiles face up in the display and draw 1 other tile.",
        "2対1のトレード（1手番に1回）：タイル2枚を表向きに出して、別のタイルを1枚引きます。",
    ),
    "move:pass": _t(
        "Nothing more to do: Pass! ends your turn. With 6 or more tiles left on your rack you "
        "would discard one.",
        "もうすることがなければ、パス！で手番を終えます。ラックに6枚以上残っていたら1枚捨てます。",
    ),
    "move:discard": _t(
        "You ended your turn with 6 or more tiles: discard one. It leaves the game.",
        "ラックに6枚以上残って手番を終えたので、1枚捨てます。そのタイルはゲームから除外されます。",
    ),
    "event:seven:you": _t(
        "Seven! Your family reached 7 tiles and you took a 7 token: 1 more point at the end.",
        "セブン！家族が7枚になり、「7」トークンを獲得しました：最後に1点になります。",
    ),
    "event:seven": _t(
        "Seven! A bot's family reached 7 tiles: it took a 7 token.",
        "セブン！ボットの家族が7枚になり、「7」トークンを獲得しました。",
    ),
    "event:exchange": _t(
        "Families changed hands: an exchange never merges or splits a family.",
        "家族が入れ替わりました。交換しても家族がまとまったり分かれたりはしません。",
    ),
    "event:clear:you": _t(
        "Clear! Your rack is empty: the turn ends, and next turn you draw 3 tiles.",
        "空っぽ！ラックが空になったので手番終了。次の手番は3枚引きます。",
    ),
    "event:double_seven": _t(
        "Double Seven! The first player with two families of 7 or more takes the 77 token (2 "
        "points). That starts the end: everyone else plays one last turn.",
        "ダブルセブン！7枚以上の家族を2つ最初に持った人が「77」トークン（2点）を獲得。これで"
        "ゲーム終了のきっかけになり、他のプレイヤーが最後の手番を1回ずつ行います。",
    ),
    "event:end_triggered": _t(
        "The end is coming: after this turn everyone else plays one last turn.",
        "ゲーム終了が近づきました：この手番の後、他のプレイヤーが最後の手番を1回ずつ行います。",
    ),
    "event:game_over": _t(
        "Game over. Each tile in your families scores 1 point, each 7 token 1 more, the 77 "
        "token 2 more; tiles on your rack score nothing.",
        "ゲーム終了。家族のタイル1枚につき1点、「7」トークンは+1点、「77」トークンは+2点。"
        "ラックのタイルは0点です。",
    ),
}

FLIP7: dict[str, Text] = {
    "welcome": _t(
        "Welcome to Flip 7! This first game uses the classic cards and plays to 100 points. "
        "Take number cards one by one, but a second card of the same number busts you. I will "
        "point at each move to make.",
        "フリップ7へようこそ！この最初のゲームはクラシックのカードで、100点先取です。ナンバー"
        "カードを1枚ずつ取りますが、同じ数字が2枚目に来たらバースト。打つ手を一つずつ指し示します。",
    ),
    "move:hit": _t(
        "Hit: take one more card. Its number adds to your round score, unless you already "
        "hold that number.",
        "ヒット：もう1枚めくります。その数字がラウンドの得点に加わります。ただし同じ数字を"
        "持っていたらバースト。",
    ),
    "move:stay": _t(
        "Stay: take no more cards and keep what you have for this round. Your row is safe now.",
        "ステイ：もうめくらず、このラウンドの得点を確保します。これであなたの列は安全です。",
    ),
    "move:target:freeze": _t(
        "You drew Freeze: choose who must stay now. Freezing a bot ends its round early.",
        "フリーズを引きました：今すぐステイさせる人を選びます。ボットをフリーズすればその"
        "ラウンドを早く終わらせられます。",
    ),
    "move:target:flip3": _t(
        "You drew Flip Three: choose who must flip the next 3 cards, one by one. The flips stop "
        "early on a bust or a Flip 7.",
        "フリップ3を引きました：次の3枚を1枚ずつめくる人を選びます。バーストかフリップ7で"
        "そこで止まります。",
    ),
    "move:target:second": _t(
        "You already hold a Second Chance, so you give this one to a player without one.",
        "すでにセカンドチャンスを持っているので、これは持っていない人に渡します。",
    ),
    "event:bust:you": _t(
        "Bust! A second card of a number you had: your cards turn face down and you score 0 "
        "this round.",
        "バースト！持っていた数字がもう1枚来ました。カードは裏向きになり、このラウンドは0点です。",
    ),
    "event:bust": _t(
        "A bot busted: it scores nothing this round.",
        "ボットがバーストしました。このラウンドは0点です。",
    ),
    "event:second_chance:you": _t(
        "Your Second Chance saved you: it and the duplicate card are discarded instead of a bust.",
        "セカンドチャンスに助けられました：バーストせず、セカンドチャンスと同じ数字のカードを"
        "捨てます。",
    ),
    "event:second_chance": _t(
        "A Second Chance cancelled a duplicate: no bust for that bot.",
        "セカンドチャンスが同じ数字を打ち消しました。そのボットはバーストしません。",
    ),
    "event:give:you": _t(
        "You played an action card on the player you chose.",
        "選んだ人にアクションカードを使いました。",
    ),
    "event:flip7:you": _t(
        "Flip 7! Seven number cards in your row: the round ends at once and you score 15 more.",
        "フリップ7！ナンバーカードが7枚並びました：ラウンドはすぐに終わり、15点を追加で得ます。",
    ),
    "event:flip7": _t(
        "Flip 7! Seven number cards in one row: the round ends at once and that player scores "
        "15 more.",
        "フリップ7！1人の列にナンバーカードが7枚：ラウンドはすぐに終わり、その人は15点を"
        "追加で得ます。",
    ),
    "event:round_end": _t(
        "The round is over: each row not busted scores the sum of its numbers, modifiers "
        "added (×2 doubles the numbers). The totals race to 100.",
        "ラウンド終了：バーストしていない列は、ナンバーカードの合計に修正カードを加えた点（×2は"
        "ナンバーカードの合計を2倍）を得ます。合計で100点を目指します。",
    ),
    "event:draw:modifier": _t(
        "A modifier card (+2 … +10, ×2) goes to whoever draws it and raises their round score.",
        "修正カード（+2〜+10、×2）は引いた人のもので、ラウンドの得点を増やします。",
    ),
    "event:game_end": _t(
        "Game over: the first to reach 100 points wins.",
        "ゲーム終了：先に100点に達した人の勝ちです。",
    ),
}

SEVEN_SHOT: dict[str, Text] = {
    "welcome": _t(
        "Welcome to Seven Shot! Three players, each for themselves: win tricks that hold 7s. "
        "This first game is one deal. I will point at each move to make.",
        "セブンショットへようこそ！3人の個人戦：「7」の入ったトリックを獲得しましょう。この最初の"
        "ゲームは1ディールで決着します。打つ手を一つずつ指し示します。",
    ),
    "move:pass": _t(
        "First, pass 3 cards to the player on your left (everyone passes at the same time). "
        "Tap the 3 highlighted cards, then Confirm.",
        "まず、左隣のプレイヤーに3枚渡します（全員が同時に渡します）。光っている3枚をタップして"
        "から「確定」。",
    ),
    "move:lead": _t(
        "You lead: play any card. The others must follow its suit if they can.",
        "あなたのリード：好きなカードを出せます。他の人は出せるならそのシンボルを出します。",
    ),
    "move:follow": _t(
        "Follow suit: you hold cards of the led suit, so you must play one of them.",
        "フォロー：リードされたシンボルのカードを持っているので、その中から出します。",
    ),
    "move:void": _t(
        "You have no card of the led suit (a void): play any card. A trump wins the trick "
        "unless a higher trump or the A comes.",
        "リードされたシンボルのカードがありません：どのカードでも出せます。切り札を出せば、"
        "より大きい切り札かAが出ない限りトリックに勝ちます。",
    ),
    "event:trump_indicator": _t(
        "The last card, face up in the middle, is the trump indicator: its suit is trump for "
        "this deal.",
        "真ん中に表向きの最後の1枚は切り札表示カード：そのシンボルがこのディールの切り札です。",
    ),
    "event:cards_received:you": _t(
        "You received 3 cards from the player on your right.",
        "右隣のプレイヤーから3枚受け取りました。",
    ),
    "event:trick_won:you": _t(
        "You won the trick: the highest card of the led suit (or the highest trump, or the A) "
        "takes it. You lead next.",
        "トリックに勝ちました：リードされたシンボルの最も大きいカード（切り札があれば最も大きい"
        "切り札、Aがあれば A）が獲得します。次はあなたがリードします。",
    ),
    "event:trick_won:trump": _t(
        "A trump won that trick: trump beats every card of the other suits.",
        "切り札がトリックに勝ちました：切り札は他のシンボルのどのカードにも勝ちます。",
    ),
    "event:trick_won:seven:you": _t(
        "You took a 7! The first to take 3 of the seven 7s wins the deal. Beware: whoever takes "
        "7 tricks loses it.",
        "「7」を獲得！7枚の「7」のうち3枚を先に獲得した人がディールに勝ちます。ただし7回トリック"
        "を取った人は負けます。",
    ),
    "event:deal_end": _t(
        "The deal is over. The winner scores their 7s − the second-highest count of 7s + 1 (at "
        "least 1); the second gets half of it.",
        "ディール終了。勝者は（自分の「7」の数）−（2番目に多い「7」の数）+1点（最低1点）、"
        "2番目の人はその半分を得ます。",
    ),
}

LESSONS: dict[str, dict[str, Text]] = {
    "double-seven": DOUBLE_SEVEN,
    "flip7": FLIP7,
    "seven-shot": SEVEN_SHOT,
}
"""Per game, each lesson's text in English and Japanese, keyed by what it explains:
``welcome``, ``move:<decision kind>`` (:func:`decision_kind`), ``event:<event kind>`` (with
``:you`` when it is the newcomer's own), shown where the script's ``steps`` put them."""

DONE = _t(
    "That is the whole game! You have seen every rule. Ready for a real table?",
    "これでゲームは一通りです！すべてのルールを見ました。本番のテーブルで遊んでみましょう。",
)
YOUR_MOVE = _t("Your move: {move}", "あなたの手：{move}")


class NoTutorial(SeptetError):
    """No guided game for that game name."""


def tutorial(game: str) -> dict[str, Any]:
    """The script of ``game``'s tutorial (see ``tools/learn_search.py`` for its keys).

    Raises:
        NoTutorial: no tutorial for ``game``.
    """
    if game not in TUTORIALS:
        raise NoTutorial(f"no guided game for {game!r}")
    try:
        return load_script(script_name(game))
    except SeptetError:
        raise NoTutorial(f"no guided game for {game!r}") from None


def lesson_payload(game: str) -> dict[str, Any]:
    """What the client needs to guide ``game``'s tutorial: ``game``, ``options``, ``human``
    (the newcomer's seat), ``moves`` (version → the newcomer's move there), ``steps``
    (``[{"at": version, "lessons": [{"en", "ja"}, ...]}]``), ``end`` (the last version),
    ``done`` and ``your_move`` (texts), and ``easy``: the body of ``POST /api/tables`` for a
    table of the same game against Easy bots.

    Raises:
        NoTutorial: no tutorial for ``game``.
    """
    data = tutorial(game)
    texts = LESSONS[game]
    steps = [
        {"at": s["at"], "lessons": [texts[x] for x in s["lessons"] if x in texts]}
        for s in data["steps"]
    ]
    options = {k: v for k, v in data["options"].items() if k == "edition"}
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * (data["num_players"] - 1)
    return {
        "game": game,
        "options": data["options"],
        "human": data["human"],
        "moves": data["human_moves"],
        "steps": [s for s in steps if s["lessons"]],
        "end": data["end"],
        "done": DONE,
        "your_move": YOUR_MOVE,
        "easy": {"game": game, "options": options, "seats": seats},
    }
