"""The mails' texts in English and Japanese: plain text, the player's language, every link
absolute (the site's address), and an unsubscribe link on every mail."""

from __future__ import annotations

from datetime import datetime

LANGS = ("en", "ja")

_TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "confirm": {
        "en": (
            "Confirm your e-mail address for Septet",
            "Hello {name},\n\nSomeone (we hope you) asked Septet to tell this address when a "
            "turn-based table waits for your move.\nConfirm it by opening this link:\n\n"
            "{confirm}\n\nIf it was not you, ignore this mail: nothing more will come.\n\n"
            "No more mails from Septet: {unsubscribe}\n",
        ),
        "ja": (
            "Septet のメールアドレスの確認",
            "{name} さん\n\n手番制のテーブルであなたの番になったとき、このアドレスに知らせるよう "
            "Septet に登録がありました。\n次のリンクを開いて確認してください。\n\n{confirm}\n\n"
            "心当たりがなければ、このメールは無視してください。これ以上は届きません。\n\n"
            "Septet からのメールを止める: {unsubscribe}\n",
        ),
    },
    "turn": {
        "en": (
            "Your turn at {game}",
            "Hello {name},\n\nIt is your turn at {game}.\nMove by {deadline}, or a Normal bot "
            "will make this move for you.\n\nOpen the table: {link}\n\n"
            "No more mails from Septet: {unsubscribe}\n",
        ),
        "ja": (
            "{game}であなたの番です",
            "{name} さん\n\n{game}であなたの番です。\n{deadline}までに指してください。"
            "過ぎると、普通のボットがこの1手を代わりに指します。\n\nテーブルを開く: {link}\n\n"
            "Septet からのメールを止める: {unsubscribe}\n",
        ),
    },
    "digest": {
        "en": (
            "Septet: {n} turn-based tables wait for you",
            "Hello {name},\n\nYour daily digest: these turn-based tables wait for your move "
            "(a Normal bot makes the move at its deadline).\n\n{tables}\n\n"
            "No more mails from Septet: {unsubscribe}\n",
        ),
        "ja": (
            "Septet: 手番制のテーブル{n}卓であなたの番です",
            "{name} さん\n\n1日のまとめです。次の手番制のテーブルがあなたの手を待っています"
            "（期限を過ぎると普通のボットが代わりに1手指します）。\n\n{tables}\n\n"
            "Septet からのメールを止める: {unsubscribe}\n",
        ),
    },
    "test": {
        "en": (
            "Septet test mail",
            "Hello {name},\n\nThis is the test mail you asked for: Septet can reach this "
            "address.\n\nNo more mails from Septet: {unsubscribe}\n",
        ),
        "ja": (
            "Septet のテストメール",
            "{name} さん\n\nご依頼のテストメールです。Septet からこのアドレスに届きます。\n\n"
            "Septet からのメールを止める: {unsubscribe}\n",
        ),
    },
}


def render(kind: str, lang: str, **values: str) -> tuple[str, str]:
    """``(subject, body)`` of the mail ``kind`` (``confirm``, ``turn``, ``digest``, ``test``)
    in ``lang`` (``en`` when not ``ja``), with ``values`` filled in.

    Raises:
        KeyError: an unknown kind, or a value the text needs is missing.
    """
    subject, body = _TEXTS[kind]["ja" if lang == "ja" else "en"]
    return subject.format(**values), body.format(**values)


def digest_line(lang: str, title: str, by: str, link: str) -> str:
    """One table of a daily digest: ``- Tiny Sevens: move by 2026-12-03 10:00 UTC`` and its
    link on the next line (``ja``: ``・ちいさなセブン: 2026年12月3日 10:00（UTC）まで``)."""
    if lang == "ja":
        return f"・{title}: {by}まで\n  {link}"
    return f"- {title}: move by {by}\n  {link}"


def when(at: datetime | None, lang: str) -> str:
    """A deadline as the mail writes it: ``2026-12-03 10:00 UTC`` (``ja``:
    ``2026年12月3日 10:00（UTC）``)."""
    if at is None:
        return "-"
    if lang == "ja":
        return f"{at.year}年{at.month}月{at.day}日 {at:%H:%M}（UTC）"
    return f"{at:%Y-%m-%d %H:%M} UTC"
