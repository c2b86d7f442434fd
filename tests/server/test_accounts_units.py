"""The accounts' parts on their own: the name check and key, the password rules and hashes, the
failed sign-in counters (in memory with a moved clock; in Redis when one answers)."""

from __future__ import annotations

import asyncio
import threading
import unicodedata

import pytest

from septet.server.accounts.limits import Attempts, RedisAttempts
from septet.server.accounts.names import check_name, legacy_key, name_key, name_keys
from septet.server.accounts.passwords import PARAMETERS, Busy, Passwords, check_password
from septet.server.live import LobbyError
from tests.server.accounts_kit import CHEAP
from tests.server.multiproc import drop_redis_prefix, redis_or_skip, redis_prefix


def test_accounts_name_key_joins_what_looks_alike() -> None:
    same = ["Aki", "AKI", "aki", "Ａｋｉ", " aki ", "ＡＫＩ"]
    assert {name_key(n) for n in same} == {"aki"}
    assert name_key("Straße") == name_key("STRASSE") == "strasse"  # full case folding
    assert name_key("Aki  Ito") == name_key("aki\u3000ito") == "aki ito"  # any spaces, one
    assert name_key("ｶﾀｶﾅ") == name_key("カタカナ")  # half-width kana
    assert name_key("Aki") != name_key("Akl")


def test_accounts_name_key_reads_cyrillic_and_greek_look_alikes_as_latin() -> None:
    # Cyrillic А К І, Greek Α Κ Ι: each looks like AKI; real Cyrillic and Greek names keep theirs
    assert name_key("\u0410\u041a\u0406") == name_key("\u0391\u039a\u0399") == "aki"
    assert name_key("\u0420\u0410\u0421") == "pac"  # Cyrillic РАС looks like PAC
    assert name_key("Вася") == "bacя" and name_key("Вася") != name_key("Ваня")
    assert name_keys("Aki") == ("aki",)  # nothing to read: one key
    assert name_keys("\u0410\u041a\u0406") == ("aki", "\u0430\u043a\u0456")  # and the old one
    assert legacy_key("\u0410\u041a\u0406") == "\u0430\u043a\u0456"


@pytest.mark.parametrize(
    "bad",
    ["A\u200bki", "A\u200cki", "A\u200dki", "\ufeffAki", "A\u00adki", "A\u202aki", "A\u202eki",
     "A\u2066ki", "A\u2069ki", "A\u061cki", "Ak\x00i", "A\nki", "A\u2028ki", "\u3164",
     "A\ufe0fki", "\ud800", "A\ue000ki", "", "   ", "x" * 33,
     "B\u0435n", "\u0410ki", "P\u03b1ul", "Ａ\u043aｉ",
     "~9c70d6565d6b0c00", " ~Aki", "\uff5eAki"],  # ~ marks an id in profile links
)  # fmt: skip
def test_accounts_check_name_refuses(bad: str) -> None:
    with pytest.raises(LobbyError) as err:
        check_name(bad)
    assert err.value.code == "bad_name" and err.value.status == 400 and err.value.message_ja


def test_accounts_check_name_keeps_real_names() -> None:
    for name in ["Aki", "  秋子  ", "José", "Ærøskøbing", "🎲 Dice", "x" * 32, "Ｋｅｎ", "秋子 Aki",
                 "Вася", "Αλέξης", "Ǆemal", "Aki 2", "Aki~"]:  # fmt: skip
        assert check_name(name) == name.strip()


def test_accounts_password_rules_and_hashes() -> None:
    cases = [("1234567", "Aki", "password_short"), ("x" * 129, "Aki", "password_long"),
             ("AkiAkiAki", "akiakiaki", "password_is_name")]  # fmt: skip
    for pw, name, code in cases:
        with pytest.raises(LobbyError) as err:
            check_password(pw, name)
        assert err.value.code == code
    check_password("12345678", "Aki")
    check_password("x" * 128, "Aki")
    assert PARAMETERS["memory_cost"] == 19456 and PARAMETERS["time_cost"] == 2
    p = Passwords(parameters=CHEAP)

    async def go() -> None:
        h = await p.hash("correct horse")
        assert h.startswith("$argon2id$v=19$m=64,t=1,p=1$")
        assert await p.verify(h, "correct horse") == (True, False)
        assert await p.verify(h, "wrong horse") == (False, False)
        assert await p.verify(None, "correct horse") == (False, False)  # the dummy: never
        assert await p.verify("not a hash", "x") == (False, False)
        newer = Passwords(parameters={**CHEAP, "memory_cost": 128})
        assert await newer.verify(h, "correct horse") == (True, True)  # rehash at login
        # Unicode forms: が typed as one character (NFC) or as か + ゛ (NFD) is one password
        nfc, nfd = "パスワードがある", unicodedata.normalize("NFD", "パスワードがある")
        assert nfc != nfd and len(nfd) == len(nfc) + 3  # パ, ド and が decompose
        h = await p.hash(nfd)
        assert await p.verify(h, nfc) == (True, False) and await p.verify(h, nfd) == (True, False)
        old = p.hasher.hash(nfd)  # a hash of the form as typed, made before normalising
        assert await p.verify(old, nfd) == (True, True)  # matched as typed: rehashed in NFC
        assert await p.verify(old, "パスワードかある") == (False, False)

    asyncio.run(go())
    p.close()


def test_accounts_hashing_queue_is_bounded_and_refuses_busy() -> None:
    # 1 thread, 2 places: while a slow hash holds the thread and one waits, a third is refused
    p = Passwords(workers=1, parameters=CHEAP, queue_per_worker=2)
    gate = threading.Event()

    def slow(x: int) -> int:
        gate.wait(5)
        return x * 2

    async def go() -> None:
        first = asyncio.ensure_future(p._run(slow, 1))
        second = asyncio.ensure_future(p._run(slow, 2))
        await asyncio.sleep(0.05)
        assert p.pending == 2
        with pytest.raises(Busy) as err:
            await p.hash("correct horse")
        assert (err.value.code, err.value.status, err.value.retry_after) == ("busy", 503, 2)
        assert err.value.message_ja and "busy" in err.value.message
        gate.set()
        assert await asyncio.gather(first, second) == [2, 4]
        assert p.pending == 0
        assert (await p.verify(await p.hash("correct horse"), "correct horse"))[0]  # room again

    asyncio.run(go())
    p.close()


def _limits(att: Attempts, now: list[float] | None = None) -> None:
    async def go() -> None:
        assert await att.retry_after("acct:aki", 3) == 0
        for _ in range(3):
            await att.fail("acct:aki")
        wait = await att.retry_after("acct:aki", 3)
        assert 1 <= wait <= 900
        assert await att.retry_after("acct:aki", 4) == 0  # under a higher limit
        assert await att.retry_after("acct:ben", 3) == 0  # others are not held up
        if now is not None:
            now[0] += 899
            assert await att.retry_after("acct:aki", 3) == 1
            now[0] += 1
            assert await att.retry_after("acct:aki", 3) == 0
            await att.fail("acct:aki")  # a new window
            assert await att.retry_after("acct:aki", 2) == 0
        await att.clear("acct:aki")
        assert await att.retry_after("acct:aki", 1) == 0
        await att.close()

    asyncio.run(go())


def test_accounts_attempts_in_memory() -> None:
    now = [5.0]
    _limits(Attempts(clock=lambda: now[0]), now)


def test_accounts_attempts_in_redis() -> None:
    url = redis_or_skip()
    prefix = redis_prefix()
    try:
        _limits(RedisAttempts(url, prefix))
    finally:
        drop_redis_prefix(prefix)
