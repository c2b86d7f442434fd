"""The account page in chromium (issue 24): a guest claims an account on /account, signs out,
and signs in from a second browser context (a phone, in Japanese), where the header shows the
account's name. Screenshots of the page in both languages and sizes go to artifacts/."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import new_page, shot
from tests.web.driver import check_no_overflow, check_player_words, enter_lobby

PW = "correct horse"
NAME = "あき"  # a kana name: the Japanese page shows no Latin word


def test_accounts_browser_claim_sign_out_and_in_elsewhere(live_server: str, browser: Any) -> None:
    desk = new_page(browser)
    try:
        enter_lobby(desk, live_server, NAME)
        pid = desk.evaluate("() => fetch('/api/me').then((r) => r.json())")["player"]["id"]
        assert desk.inner_text("#account-link") == "Sign in"  # a guest
        desk.click("#account-link")
        desk.wait_for_selector("#create-account")
        assert desk.input_value("#claim-name") == NAME  # the guest's name, offered
        shot(desk, "account-guest-en-desktop")
        check_no_overflow(desk)
        desk.fill("#claim-password", "short")
        desk.click("#create-account-ok")  # the browser itself refuses under 8 characters
        assert desk.evaluate("() => document.querySelector('#claim-password').validity.tooShort")
        desk.fill("#claim-password", PW)
        desk.click("#create-account-ok")
        desk.wait_for_selector("#signed-in")
        assert NAME in desk.inner_text("#signed-in")
        assert desk.inner_text("#account-link") == NAME  # the header names the account
        me = desk.evaluate("() => fetch('/api/me').then((r) => r.json())")["player"]
        assert me == {"id": pid, "name": NAME, "account": True}  # the same player
        shot(desk, "account-signed-in-en-desktop")
        desk.click("#sign-out")
        desk.wait_for_selector("#sign-in")
        assert desk.inner_text("#account-link") == "Sign in"
        assert desk.evaluate("() => fetch('/api/me').then((r) => r.json())")["player"] is None
    finally:
        desk.context.close()
    phone = new_page(browser, phone=True, lang="ja")
    try:
        phone.goto(live_server + "/account")
        phone.wait_for_selector("#sign-in")
        assert phone.inner_text("#account-link") == "サインイン"
        shot(phone, "account-guest-ja-phone")
        check_player_words(phone, "ja", "account page")
        check_no_overflow(phone)
        phone.fill("#login-name", NAME)
        phone.fill("#login-password", "wrong password")
        phone.click("#sign-in-ok")
        phone.wait_for_selector("#toast:not([hidden])")
        assert "パスワード" in phone.inner_text("#toast")  # the server's sentence, in Japanese
        phone.fill("#login-password", PW)
        phone.click("#sign-in-ok")
        phone.wait_for_selector("#signed-in")
        assert phone.inner_text("#account-link") == NAME
        shot(phone, "account-signed-in-ja-phone")
        check_player_words(phone, "ja", "signed in")
        check_no_overflow(phone)
        assert phone.console.errors == [] or all("401" in e for e in phone.console.errors)
    finally:
        phone.context.close()


def test_accounts_browser_screens_other_sizes(live_server: str, browser: Any) -> None:
    # The two remaining language/size pairs, looked at by people (artifacts/).
    for lang, phone, label in [("en", True, "en-phone"), ("ja", False, "ja-desktop")]:
        pg = new_page(browser, phone=phone, lang=lang)
        try:
            pg.goto(live_server + "/account")
            pg.wait_for_selector("#sign-in")
            check_no_overflow(pg)
            shot(pg, f"account-guest-{label}")
        finally:
            pg.context.close()
