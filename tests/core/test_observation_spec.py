"""ObservationSpec and Piece (septet.core.observation): offsets, bounds, views, docs table."""

from __future__ import annotations

import pytest

from septet.core.observation import ObservationSpec, Piece


def _spec() -> ObservationSpec:
    return ObservationSpec(
        [
            Piece("hand", (3,), "cards held"),
            Piece("scores", (2, 2), "points per seat and side", 0, 10),
            Piece("round", (), "round / 5", 0, (2.0,)),
            Piece("counts", (2,), "per kind", -1, (3.0, 5.0)),
        ],
        title="toy",
    )


def test_offsets_size_and_bounds_worked_by_hand() -> None:
    spec = _spec()
    assert spec.size == 3 + 4 + 1 + 2 == 10
    assert spec.offsets == {"hand": 0, "scores": 3, "round": 7, "counts": 8}
    assert spec.slice("counts") == slice(8, 10)
    assert spec.low == (0.0,) * 8 + (-1.0, -1.0)
    assert spec.high == (1.0, 1.0, 1.0, 10.0, 10.0, 10.0, 10.0, 2.0, 3.0, 5.0)


def test_as_dict_reshapes_lists_and_arrays() -> None:
    spec = _spec()
    t = [1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 1.5, -1.0, 4.0]
    d = spec.as_dict(t)
    assert d == {
        "hand": [1.0, 0.0, 1.0],
        "scores": [[2.0, 3.0], [4.0, 5.0]],
        "round": 1.5,
        "counts": [-1.0, 4.0],
    }
    np = pytest.importorskip("numpy")
    arr = spec.as_dict(np.asarray(t))
    assert arr["scores"].shape == (2, 2) and arr["scores"][1, 0] == 4.0
    with pytest.raises(ValueError):
        spec.as_dict(t[:-1])


def test_normalize_and_out_of_bounds() -> None:
    spec = _spec()
    t = [1.0, 0.0, 1.0, 5.0, 0.0, 10.0, 2.5, 1.0, 1.0, 5.0]
    assert spec.normalize(t) == [1.0, 0.0, 1.0, 0.5, 0.0, 1.0, 0.25, 0.5, 0.5, 1.0]
    assert spec.out_of_bounds(t) == []
    bad = list(t)
    bad[4] = 11.0
    bad[8] = -2.0
    assert spec.out_of_bounds(bad) == ["scores[1] = 11 > 10", "counts[0] = -2 < -1"]
    assert spec.out_of_bounds(t[:3]) == ["length 3, expected 10"]


def test_markdown_table_lists_every_piece() -> None:
    text = _spec().markdown(symbols={"n": 2})
    assert "| 3 | `scores` | n×n | 0 | 10 | points per seat and side |" in text
    assert "| 8 | `counts` | n | -1 | 3..5 (per value) | per kind |" in text
    assert text.startswith("**toy** (10 values)")


def test_bad_pieces_are_refused() -> None:
    with pytest.raises(ValueError, match="two pieces named"):
        ObservationSpec([Piece("a", (1,), ""), Piece("a", (2,), "")])
    with pytest.raises(ValueError, match="high bound below"):
        Piece("a", (2,), "", 1, 0)
    with pytest.raises(ValueError, match="3 high bounds for 2 values"):
        Piece("a", (2,), "", 0, (1.0, 1.0, 1.0))
    with pytest.raises(KeyError):
        _spec().piece("nope")
