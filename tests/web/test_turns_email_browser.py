"""The e-mail settings of the /account page in chromium (issue 28), against a ``septet serve
--smtp`` whose mail a local SMTP server started by the test (aiosmtpd) captures: an account adds
an address (a bad one is refused with the server's sentence), a test mail is refused until the
address is confirmed, the confirmation link (opened without logging in) confirms it, the digest
and the mails' language are set, a refusing SMTP server's error is shown on the page, and the
address is removed. Screenshots at both sizes in both languages go to artifacts/."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.multiproc import free_port
from tests.server.smtp_capture import Capture, smtp_server
from tests.web.conftest import new_page, serve_process
from tests.web.driver import check_player_words, enter_lobby
from tests.web.turns_shots import four_shots

aiosmtpd = pytest.importorskip("aiosmtpd", reason="the dev extra's aiosmtpd (a local SMTP server)")

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Capture]]:
    """A ``septet serve --smtp`` on a fresh SQLite file and the SMTP server it sends to."""
    smtp_port = free_port()
    db = tmp_path_factory.mktemp("web-mail") / "septet.sqlite3"
    smtp = ("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--mail-from", "septet@example.org")
    with smtp_server(smtp_port) as handler, serve_process(db, *smtp) as base:
        yield base, handler


def my_email(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("() => fetch('/api/me/email').then((r) => r.json())"))


def test_turns_email_settings_on_the_account_page(
    browser: Any, mail_server: tuple[str, Capture]
) -> None:
    base, smtp = mail_server
    aki = new_page(browser)
    try:
        enter_lobby(aki, base, "あき")  # a kana name: the Japanese page shows no Latin word
        aki.click("#account-link")
        aki.wait_for_selector("#create-account")
        assert aki.query_selector("#email-settings") is None  # a guest: no mail
        aki.fill("#claim-password", "correct horse")
        aki.click("#create-account-ok")
        aki.wait_for_selector("#email-settings #email-address")
        assert "at most one per table" in aki.inner_text("#email-settings")
        four_shots(aki, "web-turns-email-empty", "#email-address")
        aki.click("#lang-ja")  # the Japanese page shows no Latin word (the brand included)
        aki.wait_for_selector("#email-settings h2:has-text('メール通知')")
        check_player_words(aki, "ja", "e-mail settings")
        aki.click("#lang-en")
        aki.wait_for_selector("#email-settings h2:has-text('E-mail notices')")
        aki.fill("#email-address", "aki@example")  # the browser lets it by; the server does not
        aki.click("#email-save")
        aki.wait_for_selector("#toast:not([hidden])")
        assert "is not an e-mail address" in aki.inner_text("#toast")
        aki.fill("#email-address", "aki@example.org")
        aki.click("#email-save")
        aki.wait_for_selector("#email-status:has-text('not confirmed yet')")
        assert "confirmation link to aki@example.org" in aki.inner_text("#toast")
        aki.click("#email-test")  # refused until confirmed, with the server's sentence
        aki.wait_for_selector("#toast:has-text('Confirm aki@example.org first')")
        four_shots(aki, "web-turns-email-unconfirmed", "#email-status")
        confirm = smtp.wait(1)
        assert confirm["To"] == "aki@example.org"
        assert confirm["Subject"] == "Confirm your e-mail address for Septet"
        link = re.findall(rf"{re.escape(base)}/mail/confirm/\S+", confirm.get_content())
        assert len(link) == 1
        stranger = new_page(browser, lang="ja")  # no cookie: the link alone confirms
        stranger.goto(link[0])
        assert "メールアドレスを確認しました。" in stranger.inner_text("body")
        stranger.context.close()
        aki.reload()
        aki.wait_for_selector("#email-status:has-text('confirmed')")
        assert not aki.is_checked("#email-digest")
        aki.check("#email-digest")
        aki.wait_for_function("() => document.querySelector('#email-digest').checked")
        aki.select_option("#email-lang", "ja")
        aki.wait_for_function("() => document.querySelector('#email-lang').value === 'ja'")
        aki.wait_for_timeout(300)
        want = {"address": "aki@example.org", "lang": "ja", "confirmed": True, "digest": True}
        assert my_email(aki)["email"] == want
        # the SMTP server refuses: the page says why the last mail did not go
        smtp.refuse = True
        aki.click("#email-test")
        aki.wait_for_selector("#toast:has-text('A test mail is on its way')")
        end = time.monotonic() + 30
        while not my_email(aki)["last_error"]:
            assert time.monotonic() < end, "the refusal was not recorded"
            time.sleep(0.3)
        aki.reload()
        aki.wait_for_selector("#email-error")
        assert "refused the address: 550" in aki.inner_text("#email-error")
        aki.click("#lang-ja")
        aki.wait_for_selector(
            "#email-error:has-text('メールサーバーがアドレスを拒否しました: 550')"
        )
        aki.click("#lang-en")
        aki.wait_for_selector("#email-error:has-text('refused the address')")
        four_shots(aki, "web-turns-email-confirmed", "#email-error")
        smtp.refuse = False
        aki.click("#email-remove")
        aki.wait_for_selector("#email-settings #email-address")
        assert aki.input_value("#email-address") == ""
        assert my_email(aki)["email"] is None
        # only the two refusals asked for above (the browser logs each failed request)
        assert [e for e in aki.console.errors if "status of 400" not in e
                and "status of 409" not in e] == []  # fmt: skip
        assert len(aki.console.errors) == 2
    finally:
        aki.context.close()
