"""Terminal play: ``septet play``, ``septet replay`` and ``septet rules`` for every registered game.

Everything shown goes through the game's contract: ``game.render(view, lang)`` for the table,
``game.describe_action`` / ``game.describe_event`` for moves and the log, ``game.rules_text`` for
the rules. A person only ever sees their seat's view and the events visible to it; bots' moves
appear through their (public) events, since an action's notation can be private (a card pass).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.control import Control
from rich.markup import escape
from rich.panel import Panel
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from septet.arena.options import build_agent, make_game, probe_writable, split_specs, user_errors
from septet.core.errors import IllegalActionError, OptionError, RecordError
from septet.core.game import Action, Game, State
from septet.core.play import Agent, play_game
from septet.core.record import GameRecord, replay_steps
from septet.core.text import relabel
from septet.core.types import CHANCE, JSON, Event

HUMAN = "you"
LOG_LINES = 40
"""``log`` shows this many last lines; ``log all`` shows everything."""
LANGS = ("en", "ja")

SEVERAL = re.compile(r"\d+(?:[ ,]+\d+)+")
"""A line of several move numbers ("1 4 8", "1,4,8"): moves chosen together."""

_T = {
    "en": {
        "prompt": "Your move (number or notation; help, log, quit)",
        "confirm_several": "You chose: {moves}. Enter to play them, u to take them back",
        "several_undone": "Taken back; nothing was played. Choose again.",
        "several_next": "(as you chose: {what})",
        "several_dropped": "(the table changed: the rest of your chosen moves were not played)",
        "several_twice": "{i} is chosen twice: choose each move once.",
        "your_turn": "Your turn",
        "turn_of": "{name}'s turn",
        "moves": "Your moves",
        "move": "move",
        "not_number": "There is no move {i}: type a number from 1 to {n}.",
        "not_move": "{text!r} is not a move here: {reason}",
        "illegal": "Not allowed now: {reason}",
        "help": (
            "Type the number of a move or its notation (shown in the list).\n"
            "  help    this help\n"
            "  log     the game log (what your seat has seen; `log all` from the start)\n"
            "  moves   show the table and the legal moves again\n"
            "  rules   the rules summary\n"
            "  auto    play a single forced move for you when everyone can see it is forced\n"
            "          (on/off; `septet play --auto` starts with it on)\n"
            "  1 4 8   several numbers: moves you make one after another (the cards you pass),\n"
            "          chosen together and played once you confirm; u takes them back\n"
            "  quit    stop; the game record is saved"
        ),
        "handover": "{seat}: your turn. Press Enter when the other players look away.",
        "moved": "{who} made a move you cannot see.",
        "you_did": "You: {what}",
        "you_name": "You",
        "bot_name": "Bot {k}",
        "player_name": "Player {k}",
        "easy": "Easy",
        "normal": "Normal",
        "strong": "Strong",
        "seating": "Players, in seat order: {players}",
        "auto_on": "Auto-play is on: a single forced move that everyone can see is played for you.",
        "auto_off": "Auto-play is off: you choose every move.",
        "auto_played": "(your only move, played for you: {what})",
        "more_like": "  … and {n} more like it (`log` shows them)",
        "over": "Game over",
        "stopped": "Game stopped",
        "seed": "seed {seed}",
        "n_moves": "{n} moves",
        "saved": "Game record saved: {path}",
        "winner": "winner",
        "player": "player",
        "score": "score",
        "log_empty": "(nothing yet)",
        "log_more": "(`log all` shows {n} more from the start)",
        "notation": "notation",
        "thinking": "{who} is thinking…",
        "pause": "[Enter] next · b back · q quit",
        "pause_keys": "{text!r}: press Enter for the next move, b to go back, q to quit.",
        "step": "Move {i}/{n}",
        "start": "Start",
    },
    "ja": {
        "prompt": "手を入力（番号か表記。help、log、quit）",
        "confirm_several": "選んだ手：{moves}。Enter で確定、u で取り消し",
        "several_undone": "取り消しました（まだ何も出していません）。選び直してください。",
        "several_next": "（選んでおいた手：{what}）",
        "several_dropped": "（卓が変わったので、選んでおいた残りの手は出していません）",
        "several_twice": "{i}が2回選ばれています。同じ手は1回だけ選んでください。",
        "your_turn": "あなたの番です",
        "turn_of": "{name}の番です",
        "moves": "選べる手",
        "move": "手",
        "not_number": "{i} 番の手はありません。1 から {n} の番号を入力してください。",
        "not_move": "{text!r} はここでは手になりません: {reason}",
        "illegal": "今は選べません: {reason}",
        "help": (
            "手の番号か表記（一覧にあるもの）を入力します。\n"
            "  help    このヘルプ\n"
            "  log     ゲームのログ（あなたの席から見えたこと。最初からは log all）\n"
            "  moves   卓と選べる手をもう一度表示\n"
            "  rules   ルールの要約\n"
            "  auto    選べる手が1つだけで、それが全員に分かるときは自動で選ぶ\n"
            "          （オン／オフ。septet play --auto で最初からオン）\n"
            "  1 4 8   番号をいくつか：続けて行う手（渡すカードなど）をまとめて選び、\n"
            "          確定してから出す（u で取り消し）\n"
            "  quit    中断（ゲーム記録は保存されます）"
        ),
        "handover": "{seat}の番です。他の人が画面を見ていないときに Enter を押してください。",
        "moved": "{who}が見えない手を選びました。",
        "you_did": "あなた：{what}",
        "you_name": "あなた",
        "bot_name": "ボット{k}",
        "player_name": "プレイヤー{k}",
        "easy": "弱い",
        "normal": "普通",
        "strong": "強い",
        "seating": "席順：{players}",
        "auto_on": "自動プレイ：オン（選べる手が1つだけで全員に分かるときは自動で選びます）",
        "auto_off": "自動プレイ：オフ（すべての手を自分で選びます）",
        "auto_played": "（選べる手が1つだけなので自動で選びました：{what}）",
        "more_like": "  …ほか同様に{n}件（log で表示）",
        "over": "ゲーム終了",
        "stopped": "ゲーム中断",
        "seed": "シード{seed}",
        "n_moves": "{n}手",
        "saved": "ゲーム記録を保存しました：{path}",
        "winner": "勝者",
        "player": "プレイヤー",
        "score": "得点",
        "log_empty": "（まだありません）",
        "log_more": "（それ以前の {n} 行は log all で表示）",
        "notation": "表記",
        "thinking": "{who}が考えています…",
        "pause": "[Enter] 次へ · b 戻る · q 終了",
        "pause_keys": "{text!r}: Enter で次の手、b で戻る、q で終了します。",
        "step": "手 {i}/{n}",
        "start": "開始",
    },
}


TEXT_FAILED = "text unavailable"
"""Marks text an engine failed to produce (a bug there): the game goes on with plain data."""


def render_text(game: Game[Any], view: dict[str, JSON], lang: str) -> str:
    """``game.render(view, lang)``; on an engine error, the view as JSON with a marker."""
    try:
        return game.render(view, lang)
    except Exception as exc:
        return f"({TEXT_FAILED}: {type(exc).__name__}: {exc})\n" + Game.render(game, view, lang)


def action_text(game: Game[Any], action: Action, lang: str) -> str:
    """``game.describe_action(action, lang)``; on an engine error, the notation with a marker."""
    try:
        return game.describe_action(action, lang)
    except Exception as exc:
        return f"{action} ({TEXT_FAILED}: {type(exc).__name__})"


def event_text(game: Game[Any], event: Event, lang: str) -> str:
    """``game.describe_event(event, lang)``; on an engine error, the raw event with a marker."""
    try:
        return game.describe_event(event, lang)
    except Exception as exc:
        return f"{event.kind} {dict(event.data)} ({TEXT_FAILED}: {type(exc).__name__}: {exc})"


def bot_level(spec: str, game: Game[Any]) -> str | None:
    """The lobby level (``"easy"``, ``"normal"``, ``"strong"``; ``septet.server.levels``) whose
    agent ``spec`` is for ``game``, else ``None``."""
    from septet.server.levels import LEVELS, level_of

    if spec.lower() in {lv for lv, _ in LEVELS}:
        return spec.lower()
    try:
        return level_of(spec, game)
    except Exception:  # a spec that builds no agent: no level
        return None


def resolve_spec(spec: str, game: Game[Any]) -> str:
    """``spec`` with a level name (``easy``, ``normal``, ``strong``) replaced by that level's
    agent spec for ``game``; anything else unchanged.

    Raises:
        OptionError: a level with no agent for this game.
    """
    from septet.server.levels import LEVELS, spec_of_level

    if spec.lower() not in {lv for lv, _ in LEVELS}:
        return spec
    found = spec_of_level(spec.lower(), game)
    if found is None:
        raise OptionError(f"no {spec.lower()} bot plays {game.name}")
    return found


def seat_names(
    game: Game[Any],
    labels: Sequence[str],
    lang: str,
    *,
    you: int | None = None,
    custom: Sequence[str] = (),
) -> list[str]:
    """A display name per seat, used everywhere instead of ``P0``, ``P1`` …: ``custom[seat]``
    when given (``--names``); else the person reading is "You" (``you``), other people "Player
    1", "Player 2" …, bots "Bot 1", "Bot 2" … (「あなた」, 「プレイヤー1」, 「ボット1」).

    Args:
        labels: per seat ``"you"`` (a person) or an agent spec.
        you: the seat of the single person at this terminal, or ``None``.
        custom: names given by the user, blank for the default.
    """
    t = _T[lang]
    out = []
    people = bots = 0
    for seat, label in enumerate(labels):
        given = custom[seat].strip() if seat < len(custom) else ""
        if label.lower() == HUMAN:
            people += 1
            default = t["you_name"] if seat == you else t["player_name"].format(k=people)
        else:
            bots += 1
            default = t["bot_name"].format(k=bots)
        out.append(given or default)
    return out


def roster(game: Game[Any], labels: Sequence[str], names: Sequence[str], lang: str) -> str:
    """``"Players, in seat order: You · Bot 1 (Normal: greedy) · Bot 2 (Strong: ismcts)"``: the
    bots' level in words, the agent as a detail."""
    t = _T[lang]
    parts = []
    for name, label in zip(names, labels, strict=True):
        if label.lower() == HUMAN:
            parts.append(name)
            continue
        level = bot_level(label, game)
        detail = f"{t[level]}：{label}" if lang == "ja" and level else label
        if lang != "ja" and level:
            detail = f"{t[level]}: {label}"
        parts.append(f"{name}（{detail}）" if lang == "ja" else f"{name} ({detail})")
    return t["seating"].format(players=(" · " if lang != "ja" else "・").join(parts))


def name_text(text: str, names: Sequence[str], lang: str, you: int | None = None) -> str:
    """An engine text with names in place of ``P{n}`` (``septet.core.text.relabel``). The
    person reading (``you``) is addressed as "you" when their name is the default "You" /
    「あなた」 (a chosen name stays a name), and the table's "(you)" mark is then dropped."""
    you_name = _T[lang]["you_name"]
    if you is None or not 0 <= you < len(names) or names[you] != you_name:
        return relabel(text, names, lang=lang)
    out = relabel(text, names, you=you, lang=lang)
    for mark in (f"{you_name} (you)", f"{you_name}（あなた）", "you (you)"):
        out = out.replace(mark, mark.split(" ")[0].split("（")[0])
    return out


def clear_with_scrollback(console: Console) -> None:
    """Clear the screen and the terminal's scrollback (ESC[2J ESC[H ESC[3J), so that a hand shown
    before cannot be scrolled back to; writes nothing when the output is not a terminal."""
    console.clear()
    scrollback = Control.clear()
    scrollback.segment = Segment("\x1b[3J", None, scrollback.segment.control)
    console.control(scrollback)


class QuitGame(Exception):
    """The person at the terminal typed ``quit`` (or closed the input)."""


def records_dir() -> Path:
    """Where ``septet play`` saves records by default: ``$SEPTET_RECORDS_DIR`` or the user data
    folder (``platformdirs.user_data_dir("septet") / "records"``)."""
    env = os.environ.get("SEPTET_RECORDS_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("septet")) / "records"


def _check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise OptionError(f"language must be one of {', '.join(LANGS)}, not {lang!r}")
    return lang


@dataclass
class _LogEntry:
    actor: int
    action: Action
    events: list[Event]


@dataclass
class PlaySession:
    """One game at the terminal: the state, the people's seats, their names and the log.

    Every engine text is shown with the players' names in place of ``P0``, ``P1`` … (see
    :func:`name_text`); the single person at the terminal is "You".

    Attributes:
        game: the game with its options.
        state: the live state (the play loop mutates it).
        labels: a label per seat (``"you"`` or the agent spec).
        humans: the seats played from this terminal.
        lang: ``"en"`` or ``"ja"``.
        names: a display name per seat (default: :func:`seat_names`).
        auto_forced: play a single forced move for a person when the view says everybody can
            see it is forced (``forced_public``); toggled with ``auto``.
    """

    game: Game[Any]
    state: State
    labels: list[str]
    humans: list[int]
    lang: str
    console: Console
    read_line: Callable[[str], str]
    names: list[str] = field(default_factory=list)
    auto_forced: bool = False
    log: list[_LogEntry] = field(default_factory=list)
    last_human: int | None = None
    unseen: int | None = None
    """The seat whose last move was reported as unseen (said once for a run of such moves)."""
    pending: list[tuple[tuple[str, int | None], str]] = field(default_factory=list)
    """Lines of chance steps not printed yet (a deal is many steps: see :meth:`flush`)."""
    queued: list[Action] = field(default_factory=list)
    """Moves the person chose together (``1 4 8``) and confirmed, still to play, in order."""
    queued_seat: int | None = None

    def __post_init__(self) -> None:
        if not self.names:
            self.names = seat_names(self.game, self.labels, self.lang, you=self.viewer)

    def t(self, key: str, **kw: Any) -> str:
        return _T[self.lang][key].format(**kw)

    @property
    def viewer(self) -> int | None:
        """Whose events are shown live: the only person, else public events only."""
        return self.humans[0] if len(self.humans) == 1 else None

    def name(self, seat: int) -> str:
        return self.names[seat]

    def who(self, seat: int) -> str:
        return self.names[seat]

    def words(self, text: str, seat: int | None = None) -> str:
        """An engine text with names; the single person, named "You", is addressed as you
        (``seat``: the person whose table or moves these are, for the "(you)" marks)."""
        return name_text(text, self.names, self.lang, self.viewer)

    # ----- output ---------------------------------------------------------------------------
    def show_table(self, view: dict[str, JSON], title: str, you: int | None = None) -> None:
        body = Text(self.words(render_text(self.game, view, self.lang), you))
        self.console.print(Panel(body, title=escape(title), title_align="left"))

    def show_moves(self, legal: Sequence[Action], seat: int | None = None) -> None:
        table = Table(title=self.t("moves"), show_edge=False, pad_edge=False)
        table.add_column("#", justify="right")
        table.add_column(self.t("move"))
        table.add_column(self.t("notation"), style="dim")
        for i, action in enumerate(legal, 1):
            desc = self.words(action_text(self.game, action, self.lang), seat)
            table.add_row(str(i), escape(desc), escape(str(action)))
        self.console.print(table)

    def _entry_lines(self, entry: _LogEntry, seat: int | None) -> list[str]:
        lines = [
            "  " + self.words(event_text(self.game, ev, self.lang), seat)
            for ev in entry.events
            if ev.is_visible(seat)
        ]
        if not lines and entry.events and seat is not None and entry.actor == seat:
            # A move of this seat whose events it cannot see. A move with no event at all (a
            # face-down draw) is told by the reveal that follows.
            what = self.words(action_text(self.game, entry.action, self.lang), seat)
            lines.append(self.t("you_did", what=what))
        return lines

    def show_log(self, seat: int | None, last: int | None = LOG_LINES) -> None:
        """Print what ``seat`` has seen (the events visible to it, and its own moves that showed
        nothing yet); only the ``last`` lines unless ``None``."""
        lines = [line for entry in self.log for line in self._entry_lines(entry, seat)]
        if last is not None and len(lines) > last:
            lines = [self.t("log_more", n=len(lines) - last), *lines[-last:]]
        self.console.print(Text("\n".join(lines) if lines else self.t("log_empty")))

    def on_event(self, state: State, action: Action, events: list[Event], actor: int) -> None:
        if self.queued and actor != self.queued_seat:
            # Someone else moved (or chance): the moves chosen together no longer apply.
            self.queued = []
            self.console.print(Text(self.t("several_dropped"), style="yellow"))
        entry = _LogEntry(actor, action, list(events))
        self.log.append(entry)
        viewer = self.viewer
        if actor in self.humans and len(self.humans) > 1 and state.current_player != actor:
            # Hot seat: hide this person's table and move (may be private) before anyone else
            # looks; only public events follow.
            clear_with_scrollback(self.console)
        visible = [ev for ev in events if ev.is_visible(viewer)]
        if actor >= 0 and actor not in self.humans and not visible:
            # A bot's move that shows nothing. Said only when nothing will explain it: not while
            # the bot goes on (choosing cards to pass) nor before a reveal (a face-down draw).
            nxt = state.current_player
            if nxt != actor and nxt != CHANCE and self.unseen != actor:
                self.console.print(Text(self.t("moved", who=self.who(actor))), style="dim")
                self.unseen = actor
            return
        if visible:
            self.unseen = None
        if actor == CHANCE:
            # A run of chance steps (a deal, a Flip 4) is printed together, once play resumes.
            self.pending.extend(((e.kind, e.seat), self._event_line(e)) for e in visible)
            return
        self.flush()
        for line in self._entry_lines(entry, viewer):
            self.console.print(Text(line))

    def _event_line(self, event: Event) -> str:
        return "  " + self.words(event_text(self.game, event, self.lang))

    def flush(self) -> None:
        """Print the lines of the chance steps so far; a run of 4 or more alike (the same kind
        of event about the same seat: "You are dealt …" twelve times) shows its first line and
        how many more, which ``log`` lists in full."""
        lines = self.pending
        self.pending = []
        i = 0
        while i < len(lines):
            key = lines[i][0]
            j = i
            while j < len(lines) and lines[j][0] == key:
                j += 1
            if j - i >= 4:
                self.console.print(Text(lines[i][1]))
                self.console.print(Text(self.t("more_like", n=j - i - 1), style="dim"))
            else:
                for _, line in lines[i:j]:
                    self.console.print(Text(line))
            i = j

    # ----- input ----------------------------------------------------------------------------
    def ask(self, seat: int, view: dict[str, JSON], legal: Sequence[Action]) -> Action:
        """Show ``seat``'s table and moves and read a legal move; a single forced move that
        everybody can see is forced (``view["forced_public"]``) is played at once when
        :attr:`auto_forced` is on.

        Raises:
            QuitGame: ``quit`` typed or the input closed.
        """
        self.flush()
        hot_seat = len(self.humans) > 1
        if hot_seat and self.last_human != seat:
            name = self.name(seat)
            self._read(self.t("handover", seat=name[:1].upper() + name[1:]))
        self.last_human = seat
        queued = self._next_queued(seat, legal)
        if queued is not None:
            what = self.words(action_text(self.game, queued, self.lang), seat)
            self.console.print(Text(self.t("several_next", what=what), style="dim"))
            return queued
        if self._auto_move(view, legal):
            what = self.words(action_text(self.game, legal[0], self.lang), seat)
            self.console.print(Text(self.t("auto_played", what=what), style="dim"))
            return legal[0]
        title = self.t("turn_of", name=self.name(seat)) if hot_seat else self.t("your_turn")
        self.show_table(view, title, seat)
        self.show_moves(legal, seat)
        while True:
            line = self._read(self.t("prompt")).strip()
            if not line:
                continue
            command = self._command(line.lower(), seat, view, legal, title)
            if command is True:
                continue
            if command is not False:
                return command
            if SEVERAL.fullmatch(line):
                chosen = self._confirm_several(line, seat, legal)
                if chosen is None:
                    continue
                return chosen
            action = self._parse_move(line, legal)
            if action is not None:
                return action

    def _next_queued(self, seat: int, legal: Sequence[Action]) -> Action | None:
        """The next of the moves chosen together for ``seat``, while it is still legal (else
        the rest are dropped)."""
        if not self.queued or self.queued_seat != seat:
            return None
        nxt = self.queued.pop(0)
        if nxt in legal:
            return nxt
        self.queued = []
        self.console.print(Text(self.t("several_dropped"), style="yellow"))
        return None

    def _confirm_several(self, line: str, seat: int, legal: Sequence[Action]) -> Action | None:
        """Several move numbers typed at once (``1 4 8``, numbers of the list shown): said in
        words and played only once confirmed (Enter), the first now and the others as the
        seat's next moves while nobody else moves; ``u`` takes them back. None when they are
        not played (a bad number, taken back)."""
        numbers = [int(x) for x in re.split(r"[ ,]+", line.strip())]
        for i in numbers:
            if not 1 <= i <= len(legal):
                self.error(self.t("not_number", i=i, n=len(legal)))
                return None
            if numbers.count(i) > 1:
                self.error(self.t("several_twice", i=i))
                return None
        moves = [legal[i - 1] for i in numbers]
        sep = "、" if self.lang == "ja" else ", "
        words = sep.join(self.words(action_text(self.game, a, self.lang), seat) for a in moves)
        answer = self._read(self.t("confirm_several", moves=words)).strip().lower()
        if answer != "":
            self.console.print(Text(self.t("several_undone")))
            return None
        self.queued, self.queued_seat = moves[1:], seat
        return moves[0]

    def _read(self, prompt: str) -> str:
        """A line from the player; the input closed ends the game (QuitGame)."""
        try:
            return self.read_line(prompt)
        except EOFError:
            raise QuitGame from None

    def _auto_move(self, view: dict[str, JSON], legal: Sequence[Action]) -> bool:
        """Whether the single move in ``legal`` is played for the player (auto on, and the
        engine says everybody can see it is forced)."""
        return self.auto_forced and len(legal) == 1 and view.get("forced_public") is True

    def _command(
        self, low: str, seat: int, view: dict[str, JSON], legal: Sequence[Action], title: str
    ) -> Action | bool:
        """Run a typed command (help, log, rules, auto, moves, quit): True when it was one and
        the prompt comes again, the move to play (``auto`` on a forced move), else False.

        Raises:
            QuitGame: ``quit``.
        """
        if low in ("quit", "q", "exit"):
            raise QuitGame
        if low in ("help", "h", "?"):
            self.console.print(Text(self.t("help")))
        elif low in ("log", "log all"):
            self.show_log(seat, None if low == "log all" else LOG_LINES)
        elif low == "rules":
            print_rules(self.console, self.game, self.lang)
        elif low in ("auto", "auto on", "auto off"):
            self.auto_forced = low == "auto on" or (low == "auto" and not self.auto_forced)
            self.console.print(Text(self.t("auto_on" if self.auto_forced else "auto_off")))
            if self._auto_move(view, legal):
                return legal[0]
        elif low in ("moves", "table"):
            self.show_table(view, title, seat)
            self.show_moves(legal, seat)
        else:
            return False
        return True

    def _parse_move(self, line: str, legal: Sequence[Action]) -> Action | None:
        """The legal move ``line`` names (its number in the list or its notation), or None
        after saying why it is not one."""
        if line.isdigit():
            i = int(line)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            self.error(self.t("not_number", i=i, n=len(legal)))
            return None
        by_text = {str(a).lower(): a for a in legal}
        if line.lower() in by_text:
            return by_text[line.lower()]
        try:
            action = self.game.action_from_str(line)
        except IllegalActionError as exc:  # NotationError included
            self.error(self.t("not_move", text=line, reason=exc.message(self.lang)))
            return None
        if action in legal:
            return action
        try:
            self.state.check_action(action)
        except IllegalActionError as exc:
            self.error(self.t("illegal", reason=exc.message(self.lang)))
            return None
        self.error(self.t("illegal", reason=str(action)))
        return None

    def error(self, message: str) -> None:
        self.console.print(Text(message, style="red"))


class HumanAgent:
    """An :class:`~septet.core.play.Agent` that asks the person at the terminal."""

    def __init__(self, session: PlaySession, seat: int) -> None:
        self.name = HUMAN
        self.session = session
        self.seat = seat

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return self.session.ask(self.seat, view, legal_actions)


class ThinkingAgent:
    """Wraps a bot so the terminal shows a spinner while it chooses (ISMCTS may take seconds)."""

    def __init__(self, agent: Agent, console: Console, label: str) -> None:
        self.agent = agent
        self.name = agent.name
        self.console = console
        self.label = label

    def act(
        self, view: dict[str, JSON], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return self.agent.act(view, legal_actions, rng)
        with self.console.status(escape(self.label), spinner="dots"):
            return self.agent.act(view, legal_actions, rng)


def _read_line(console: Console) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        console.print(Text(prompt + " > "), end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            raise EOFError
        if not sys.stdin.isatty():
            console.print(Text(line.rstrip("\n")), style="dim")  # echo scripted input
        return line.rstrip("\r\n")

    return read


def _record_path(record: Path | None, game: str, seed: int) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    name = f"{game}-{stamp}-{seed}.json"
    if record is None:
        return records_dir() / name
    if record.suffix.lower() == ".json":
        return record
    return record / name


def _check_record_path(path: Path) -> None:
    """Check before the game that the record can be written to ``path`` (its folder is
    created), so a game is never played only to be lost.

    Raises:
        RecordError: the file cannot be written.
    """
    try:
        probe_writable(path)
    except OSError as exc:
        raise RecordError(f"cannot save the record to {path}: {exc.strerror or exc}") from exc


def _results_table(t: dict[str, str], names: Sequence[str], state: State) -> Table:
    """The final scores by player name, the winners marked."""
    winners = set(state.winners())
    table = Table(show_edge=False)
    table.add_column(t["player"])
    table.add_column(t["score"], justify="right")
    table.add_column("")
    for seat, score in enumerate(state.scores()):
        mark = t["winner"] if seat in winners else ""
        table.add_row(escape(names[seat]), f"{score:g}", mark)
    return table


def _seat_specs(g: Game[Any], players: str) -> list[str]:
    """The agent spec of each seat from ``--players`` (levels resolved); by default the
    person against normal bots (random ones for a game without them), at least 3 seats.

    Raises:
        OptionError, AgentSpecError: a bad spec or a number of players the game refuses.
    """
    from septet.bots import AgentSpecError

    specs = [resolve_spec(spec, g) for spec in split_specs(players)]
    if not specs:
        n = min(max(3, g.min_players), g.max_players)
        try:
            bot = resolve_spec("normal", g)
            build_agent(bot, g)
        except (AgentSpecError, OptionError):  # a game without a greedy bot yet
            bot = "random"
        specs = [HUMAN] + [bot] * (n - 1)
    g.check_num_players(len(specs))
    return specs


def _new_session(
    g: Game[Any], specs: list[str], lang: str, console: Console, custom: list[str], auto: bool
) -> PlaySession:
    """The session of a new game: its state, the people's seats, every seat's name."""
    humans = [s for s, spec in enumerate(specs) if spec.lower() == HUMAN]
    you = humans[0] if len(humans) == 1 else None
    return PlaySession(
        game=g,
        state=g.new_state(len(specs)),
        labels=list(specs),
        humans=humans,
        lang=lang,
        console=console,
        read_line=_read_line(console),
        names=seat_names(g, specs, lang, you=you, custom=custom),
        auto_forced=auto,
    )


def _agents(session: PlaySession, specs: list[str]) -> list[Agent]:
    """One agent a seat: the person at the terminal, or the bot its spec builds."""
    g = session.game
    return [
        HumanAgent(session, s)
        if s in session.humans
        else ThinkingAgent(
            build_agent(spec, g), session.console, session.t("thinking", who=session.who(s))
        )
        for s, spec in enumerate(specs)
    ]


def _save_record(session: PlaySession, seed: int, record_file: Path) -> Path:
    """Save the game (finished or not) to ``record_file``; returns the path written.

    Raises:
        RecordError: the file could not be written.
    """
    state = session.state
    meta: dict[str, JSON] = {
        "seed": seed,
        "lang": session.lang,
        "finished": state.is_terminal,
        "played_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "source": "septet play",
    }
    rec = GameRecord.of(state, players=session.labels, meta=meta)
    try:
        return rec.save(record_file)
    except OSError as exc:
        raise RecordError(f"cannot save the record: {exc}") from exc


def _run_game(session: PlaySession, agents: list[Agent], seed: int) -> Exception | None:
    """Play the game to its end (or until the person quits), then show the table and the
    results; returns the failure that stopped it (a bot or engine bug), else None."""
    state = session.state
    actor = [state.current_player]

    def on_event(st: State, action: Action, events: list[Event]) -> None:
        session.on_event(st, action, events, actor[0])
        actor[0] = st.current_player

    failure: Exception | None = None
    try:
        play_game(session.game, agents, seed, state=state, on_event=on_event)
    except (QuitGame, KeyboardInterrupt):
        pass
    except Exception as exc:  # a bot or engine bug: say so, keep the record, no traceback
        failure = exc
    session.flush()
    if state.is_terminal:
        session.show_table(state.view(session.viewer), session.t("over"))
        session.console.print(_results_table(_T[session.lang], session.names, state))
    else:
        session.console.print(Text(session.t("stopped"), style="yellow"))
    return failure


def play(
    game: str = typer.Argument(..., help="Game name (see `septet games`)."),
    players: str = typer.Option(
        "",
        "--players",
        "-p",
        help="Seats in order: 'you' for a person, a bot level (easy, normal, strong) or an "
        "agent spec (random, greedy, ismcts:time=1 ...). Default: you against two normal bots.",
    ),
    names: str = typer.Option(
        "",
        "--names",
        help="Names of the seats in order, comma-separated; blank for the default (You, Bot 1, "
        "Bot 2 ...).",
    ),
    auto: bool = typer.Option(
        False,
        "--auto/--no-auto",
        help="Play a single forced move for you when everyone can see it is forced (a Zero "
        "holder's Hit, a last card); `auto` switches it during the game.",
    ),
    lang: str = typer.Option("en", "--lang", "-l", help="Language: en or ja."),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the deal and the bots."),
    option: list[str] = typer.Option(  # noqa: B008
        [], "--option", "-o", help="Game option name=value (repeatable)."
    ),
    record: Path | None = typer.Option(  # noqa: B008
        None, "--record", help="Where to save the record: a .json file or a folder."
    ),
) -> None:
    """Play GAME in the terminal against bots (or hot-seat with several 'you')."""
    console = Console(highlight=False)
    with user_errors():
        _check_lang(lang)
        g = make_game(game, option)
        specs = _seat_specs(g, players)
        custom = [x.strip() for x in names.split(",")] if names.strip() else []
        if len(custom) > len(specs):
            raise OptionError(f"--names gives {len(custom)} names for {len(specs)} seats")
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if seed < 0:
            raise OptionError(f"the seed must be 0 or more, not {seed}")
        session = _new_session(g, specs, lang, console, custom, auto)
        agents = _agents(session, specs)
        record_file = _record_path(record, g.name, seed)
        _check_record_path(record_file)
    console.rule(escape(f"{g.titles.get(lang, g.name)} · {session.t('seed', seed=seed)}"))
    console.print(Text(roster(g, session.labels, session.names, lang)))
    if auto:
        console.print(Text(session.t("auto_on"), style="dim"))
    failure = _run_game(session, agents, seed)
    with user_errors():
        path = _save_record(session, seed, record_file)
    console.print(Text(session.t("saved", path=path)))
    if failure is not None:
        Console(stderr=True).print(
            Text(f"error: the game stopped on a failure: {type(failure).__name__}: {failure}")
        )
        raise typer.Exit(1)


def _stdin_is_terminal() -> bool:
    return sys.stdin.isatty()


def _events_text(
    game: Game[Any],
    events: Sequence[Event],
    seat: int | None,
    lang: str,
    names: Sequence[str],
    you: int | None,
) -> str:
    return "\n".join(
        "  " + name_text(event_text(game, ev, lang), names, lang, you)
        for ev in events
        if ev.is_visible(seat)
    )


_Frame = tuple[int, int, list[Event], State]
"""A replay step: moves done, the seat that moved (-2 at the start), its events, the state."""


def _replay_frames(state: State, rec: GameRecord, file: Path) -> list[_Frame]:
    """Apply the record's moves to ``state``: the frames to show, consecutive chance outcomes
    (a deal) together as one.

    Raises:
        RecordError: a move of the record cannot be applied.
    """
    frames: list[_Frame] = [(0, -2, [], state.clone())]
    pending: list[Event] = []
    try:
        for step in replay_steps(state, rec.actions):
            pending.extend(step.events)
            last = step.index == len(rec.actions) - 1
            if step.seat != CHANCE or last or state.current_player != CHANCE:
                frames.append((step.index + 1, step.seat, pending, state.clone()))
                pending = []
    except RecordError as exc:
        raise RecordError(f"{file}: {exc}") from exc
    return frames


def _show_frame(
    console: Console,
    g: Game[Any],
    frame: _Frame,
    total: int,
    seat: int | None,
    lang: str,
    names: Sequence[str],
    you: int | None,
) -> None:
    """Print one replay step: its events, then the table as ``seat`` sees it, headed by the
    step's number and who moved (and the move itself when ``seat`` made it)."""
    done, actor, events, st = frame
    t = _T[lang]
    head = t["start"] if done == 0 else t["step"].format(i=done, n=total)
    if actor >= 0:
        who = names[actor]
        if seat == actor and done > 0:
            what = name_text(action_text(g, st.history[done - 1], lang), names, lang, you)
            head += f" · {who}: {what}"
        else:
            head += f" · {who}"
    text = _events_text(g, events, seat, lang, names, you)
    if text:
        console.print(Text(text))
    body = Text(name_text(render_text(g, st.view(seat), lang), names, lang, you))
    console.print(Panel(body, title=escape(head), title_align="left"))


def _pause_answer(console: Console, t: dict[str, str]) -> str:
    """Wait between replay steps: "" (Enter: next), "b" (back) or "q" (quit); anything else
    is answered with the keys."""
    answer = console.input(escape(t["pause"]) + " > ").strip().lower()
    while answer not in ("", "b", "q"):
        console.print(Text(t["pause_keys"].format(text=answer), style="red"))
        answer = console.input(escape(t["pause"]) + " > ").strip().lower()
    return answer


def replay_command(
    file: Path = typer.Argument(..., help="A game record (.json) saved by septet."),  # noqa: B008
    seat: int | None = typer.Option(
        None, "--seat", help="Show the table as this seat sees it (default: a spectator)."
    ),
    lang: str = typer.Option("en", "--lang", "-l", help="Language: en or ja."),
    pause: bool = typer.Option(
        True, "--pause/--no-pause", help="Wait for Enter after each move (on a terminal)."
    ),
) -> None:
    """Step through a saved game record, showing the table after each move."""
    console = Console(highlight=False)
    with user_errors():
        _check_lang(lang)
        rec = GameRecord.load(file)
        from septet import games

        try:
            g = games.get(rec.game, **rec.options)
            state = g.new_state(rec.num_players)
        except (OptionError, KeyError) as exc:
            raise RecordError(f"{file}: cannot set up {rec.game!r}: {exc}") from exc
        if seat is not None and not 0 <= seat < rec.num_players:
            raise OptionError(f"--seat must be from 0 to {rec.num_players - 1}, not {seat}")
        labels = list(rec.players) + ["?"] * (rec.num_players - len(rec.players))
        # The seat watched is "you" if a person played it; everyone else by name.
        you = seat if seat is not None and labels[seat].lower() == HUMAN else None
        names = seat_names(g, labels, lang, you=you)
        # Parse and apply everything first: a broken record is an error before any output.
        frames = _replay_frames(state, rec, file)
    t = _T[lang]
    interactive = pause and _stdin_is_terminal()
    title = g.titles.get(lang, g.name)
    console.rule(escape(f"{title} · {file.name} · {t['n_moves'].format(n=len(rec.actions))}"))
    console.print(Text(roster(g, labels, names, lang)))
    k = 0
    while k < len(frames):
        _show_frame(console, g, frames[k], len(rec.actions), seat, lang, names, you)
        k += 1
        if interactive and k < len(frames):
            answer = _pause_answer(console, t)
            if answer == "q":
                break
            if answer == "b":
                k = max(0, k - 2)
    if state.is_terminal:
        console.print(_results_table(t, names, state))
    else:
        console.print(Text(t["stopped"], style="yellow"))


_NO_LINE_START = "。、，．）」』】〕！？!?ー：；・"
"""Japanese characters that must not begin a line (kinsoku): the character before comes along."""


def print_japanese(console: Console, renderable: Any) -> None:
    """Print ``renderable`` wrapped for Japanese: where a line would start with ``。``, ``、``, a
    closing bracket or ``ー``, the last character of the line above moves down with it (Rich
    folds Japanese at any character). Needs a console width of at least 4 cells."""
    lines = console.render_lines(renderable, console.options, pad=True, new_lines=False)
    for i in range(1, len(lines)):
        line, above = lines[i], lines[i - 1]
        first = next((j for j, seg in enumerate(line) if seg.text.strip()), None)
        last = next((j for j in reversed(range(len(above))) if above[j].text.strip()), None)
        if first is None or last is None or line[first].text.lstrip()[0] not in _NO_LINE_START:
            continue
        text = above[last].text.rstrip()
        if len(text) < 2 or text[-1] in _NO_LINE_START:
            continue
        ch = text[-1]
        width = cell_len(ch)
        tail = above[last].text[len(text) :]
        above[last] = Segment(text[:-1] + " " * width + tail, above[last].style)
        lead = line[first].text
        indent = len(lead) - len(lead.lstrip())
        line[first] = Segment(lead[:indent] + ch + lead[indent:], line[first].style)
        # keep the width: take the same number of cells from the padding at the end
        pad = next((j for j in reversed(range(len(line))) if line[j].text.endswith(" ")), None)
        if pad is not None and pad != first and line[pad].text.endswith(" " * width):
            line[pad] = Segment(line[pad].text[:-width], line[pad].style)
    console.print(Segments([seg for line in lines for seg in (*line, Segment.line())]), end="")


def _option_value(value: Any) -> str:
    """An option value as it is typed after ``-o name=``: ``true``, ``vengeance``, ``200``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_rows(options_type: type[Any], lang: str = "en") -> list[tuple[str, str, str]]:
    """``(option, default, meaning)`` for each option of a game, for listings in ``lang``.

    English: ``("rainbow = True", …)`` as before, the option as typed and the default's repr.
    Japanese: the option's Japanese name with the name to type, ``"レインボー（rainbow）"``; the
    default in words with the value to type, ``"オン（true）"``, ``"復讐心とともに（vengeance）"``;
    and the Japanese meaning (``metadata["help_ja"]``). Rule ids are not shown (players read
    these; ``metadata["rule"]`` keeps them for the docs).
    """
    rows = []
    for f in dataclasses.fields(options_type):
        meta = f.metadata
        default = f.default
        if lang != "ja":
            rows.append((f"{f.name} = {default!r}", "", str(meta.get("help", ""))))
            continue
        label = str(meta.get("label_ja") or f.name)
        typed = _option_value(default)
        choices = meta.get("choices_ja") or {}
        if isinstance(default, bool):
            words = "オン" if default else "オフ"
        elif str(default) in choices:
            words = str(choices[str(default)])
        else:
            words = ""
        shown = f"{words}（{typed}）" if words else typed
        rows.append(
            (f"{label}（{f.name}）", shown, str(meta.get("help_ja") or meta.get("help", "")))
        )
    return rows


def rules(
    game: str = typer.Argument(..., help="Game name (see `septet games`)."),
    lang: str = typer.Option("en", "--lang", "-l", help="Language: en or ja."),
) -> None:
    """The rules summary of GAME, with the project's rulings and its options."""
    console = Console(highlight=False)
    with user_errors():
        _check_lang(lang)
        g = make_game(game)
    print_rules(console, g, lang)
    rows = option_rows(type(g).options_type, lang)
    if not rows:
        return
    console.print()
    if lang == "ja":
        console.print(Text("オプション", style="bold"))
        print_options_ja(console, rows)
        example = rows[0][0].split("（")[-1].rstrip("）")
        console.print(
            Text(f"オプションは -o 名前=値 で変えられます（例：-o {example}=…）。", style="dim")
        )
        return
    table = Table(title="Options", show_edge=False)
    table.add_column("option = default", no_wrap=True)
    table.add_column("meaning", overflow="fold")
    for opt, _, meaning in rows:
        table.add_row(escape(opt), escape(meaning))
    console.print(table)
    example = rows[0][0].split(" ")[0]
    console.print(Text(f"Change an option with -o name=value (e.g. -o {example}=…).", style="dim"))


def print_rules(console: Console, game: Game[Any], lang: str) -> None:
    """The rules summary of ``game`` (``game.rules_text(lang)``, Markdown) rendered by Rich, as
    ``septet rules`` and the ``rules`` command of ``septet play`` show it: headings, bold and
    lists drawn, no ``**`` or ``##`` left; Japanese wrapped by :func:`print_japanese`."""
    from rich.markdown import Markdown

    text = Markdown(game.rules_text(lang))
    if lang == "ja":
        print_japanese(console, text)
    else:
        console.print(text)


def print_options_ja(console: Console, rows: Sequence[tuple[str, str, str]]) -> None:
    """Options in Japanese, one per line with its default, the meaning indented under it (long
    Japanese text folds anywhere, so no table columns); lines never start with 。、）."""
    from rich.console import Group
    from rich.padding import Padding

    parts: list[Any] = []
    for opt, default, meaning in rows:
        parts.append(Text(f"  {opt}：{default}" if default else f"  {opt}"))
        parts.append(Padding(Text(meaning), (0, 0, 0, 6)))
    print_japanese(console, Group(*parts))


def register(app: typer.Typer) -> None:
    """Add ``play``, ``replay`` and ``rules`` to the ``septet`` command."""
    app.command("play")(play)
    app.command("replay")(replay_command)
    app.command("rules")(rules)


__all__ = ["HumanAgent", "PlaySession", "QuitGame", "records_dir", "register"]
