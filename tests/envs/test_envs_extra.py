"""Without the ``rl`` extra the adapters fail to import with the install command, and the rest of
Septet (``septet.envs`` itself included) imports fine."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import pytest

import septet.envs

RL_MODULES = ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel")


def _extra_installed() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in RL_MODULES)


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
    installed = _extra_installed()
    monkeypatch.setitem(sys.modules, dependency, None)  # makes `import dependency` fail
    monkeypatch.delitem(sys.modules, adapter, raising=False)
    with pytest.raises(ModuleNotFoundError) as info:
        importlib.import_module(adapter)
    # With the extra installed the blocked module is the one reported; without it, the first
    # dependency the adapter imports.
    missing = dependency if installed else info.value.name
    assert missing in RL_MODULES
    assert info.value.name == missing
    assert str(info.value) == (
        f"{adapter} needs the 'rl' extra ({missing} is not installed): pip install 'septet[rl]'"
    )


def test_envs_package_needs_no_extra() -> None:
    assert septet.envs.RL_EXTRA_HINT == "pip install 'septet[rl]'"
