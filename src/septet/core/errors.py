"""Errors raised by the game contract.

Every error carries a sentence a player understands; illegal actions also carry the rule id of the
rule they break (for example ``DS-5.1``), as in the rule specs under ``shared/rules``.
"""

from __future__ import annotations


class SeptetError(Exception):
    """Base class of every error Septet raises on purpose."""


class IllegalActionError(SeptetError, ValueError):
    """An action that the rules do not allow in this state.

    The state is left unchanged when this is raised.

    Attributes:
        rule: the rule id broken, e.g. ``"DS-5.1"``, or ``""`` when no single rule applies
            (an action of the wrong kind for the phase, say).
        reason: a plain-language sentence saying why the action is illegal (English).
        reason_ja: the same sentence in Japanese, or ``""`` when none was given.

    ``str(exc)`` is always the English reason with the rule id; :meth:`message` picks the
    player's language.
    """

    def __init__(self, reason: str, rule: str = "", reason_ja: str = "") -> None:
        self.rule = rule
        self.reason = reason
        self.reason_ja = reason_ja
        super().__init__(f"{reason} [{rule}]" if rule else reason)

    def message(self, lang: str = "en") -> str:
        """The reason in ``lang`` (``"ja"`` or ``"en"``) followed by the rule id.

        Falls back to the English reason when ``lang`` is not Japanese or no Japanese reason was
        given. Example: ``"ラックにそのタイルがありません [DS-5.1]"``.
        """
        text = self.reason_ja if lang.lower().startswith("ja") and self.reason_ja else self.reason
        return f"{text} [{self.rule}]" if self.rule else text


class ScoreError(IllegalActionError):
    """A score entry the rules make impossible (a row with two equal numbers that did not bust,
    more 7 tokens than exist, more 7s than the deck has): raised by the engines' scoring functions
    (``septet.games.<game>.scoring``) with the rule id and the reason in English and Japanese;
    nothing is scored or stored."""


class NotationError(IllegalActionError):
    """Text that is not an action in the game's notation (see ``Game.action_from_str``)."""


class OptionError(SeptetError, ValueError):
    """Invalid game options or an unsupported number of players, raised at construction."""


class UnknownGameError(SeptetError, KeyError):
    """No game is registered under that name."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want the sentence.
        return str(self.args[0]) if self.args else "unknown game"


class RecordError(SeptetError, ValueError):
    """A game record (or a serialised state) that is malformed, foreign or does not replay."""
