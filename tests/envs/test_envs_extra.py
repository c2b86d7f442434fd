"""Without the ``rl`` extra the adapters fail to import with the install command, and the rest of
Septet (``septet.envs`` itself included) imports fine."""

from __future__ import annotations

import importlib
import sys

import pytest

import septet.envs


@pytest.mark.parametrize(
    ("adapter", "dependency"),
    [
        ("septet.envs.pettingzoo", "pettingzoo"),
        ("septet.envs.pettingzoo", "numpy"),
        ("septet.envs.openspiel", "pyspiel"),
    ],
)
def test_envs_missing_extra_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, adapter: str, dependency: str
) -> None:
    monkeypatch.setitem(sys.modules, dependency, None)  # makes `import dependency` fail
    monkeypatch.delitem(sys.modules, adapter, raising=False)
    with pytest.raises(ModuleNotFoundError) as info:
        importlib.import_module(adapter)
    assert str(info.value) == (
        f"{adapter} needs the 'rl' extra ({dependency} is not installed): pip install 'septet[rl]'"
    )
    assert info.value.name == dependency


def test_envs_package_needs_no_extra() -> None:
    assert septet.envs.RL_EXTRA_HINT == "pip install 'septet[rl]'"
