"""The kernels' bit operations equal Python's on random and edge masks."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba", reason="the fast extra (numba) is not installed")

from numba import njit

from septet.fast import bits


@njit(cache=False)
def _all(masks: np.ndarray, ranks: np.ndarray, out: np.ndarray) -> None:
    for i in range(masks.shape[0]):
        out[i, 0] = bits.popcnt(masks[i])
        out[i, 1] = bits.ctz(masks[i])
        out[i, 2] = bits.select_bit(masks[i], ranks[i]) if masks[i] else -1
        out[i, 3] = bits._select_scan(masks[i], ranks[i]) if masks[i] else -1
        out[i, 4] = bits.msb(masks[i])


def test_bits_equal_python() -> None:
    rng = random.Random(29)
    masks = [0, 1, 1 << 48, (1 << 49) - 1, (1 << 63) - 1, 0b1010_0000]
    masks += [rng.getrandbits(rng.choice((3, 12, 49, 63))) for _ in range(5000)]
    ranks = [rng.randrange(m.bit_count()) if m else 0 for m in masks]
    out = np.zeros((len(masks), 5), dtype=np.int64)
    _all(np.array(masks, dtype=np.int64), np.array(ranks, dtype=np.int64), out)
    for (m, r), row in zip(zip(masks, ranks, strict=True), out.tolist(), strict=True):
        set_bits = [i for i in range(64) if m >> i & 1]
        assert row[0] == len(set_bits)
        assert row[1] == (set_bits[0] if m else 64)
        assert row[4] == m.bit_length() - 1
        if m:
            assert row[2] == row[3] == set_bits[r]  # the r-th set bit, by either method
    assert out[:, 0].tolist()[:4] == [0, 1, 1, 49]


def test_select_bit_walks_a_hand_in_order() -> None:
    # Seven Shot's deal draws the r-th undealt card: every r of a 12-card hand, ascending.
    hand = sum(1 << c for c in (0, 6, 7, 13, 20, 21, 22, 30, 41, 45, 47, 48))
    n = hand.bit_count()
    out = np.zeros((n, 5), dtype=np.int64)
    _all(np.full(n, hand, dtype=np.int64), np.arange(n, dtype=np.int64), out)
    assert out[:, 2].tolist() == [0, 6, 7, 13, 20, 21, 22, 30, 41, 45, 47, 48]
