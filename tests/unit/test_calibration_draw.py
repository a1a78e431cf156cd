"""Pictures of a calibration problem: the files are written and valid, the polygons behind them exact."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

from symcal.calibration import setup, surrogates
from symcal.calibration.draw import cells_2d, clip, draw_problem
from symcal.cli import main
from symcal.errors import InvalidInput

pytest.importorskip("matplotlib")

EX = Path(__file__).resolve().parents[2] / "examples" / "calibration"
PNG = b"\x89PNG\r\n\x1a\n"
F = Fraction


def test_three_labels_draw_the_simplex_with_the_failure_region_as_a_valid_png(tmp_path, capsys):
    out = tmp_path / "ww.png"
    assert main(["calibration", str(EX / "weston_watkins_3.json"), "--draw", str(out)]) == 0
    assert out.read_bytes()[:8] == PNG and out.stat().st_size > 5_000
    assert f"drawing: {out}" in capsys.readouterr().out


def test_a_smooth_surrogate_is_drawn_without_a_region_and_as_valid_svg(tmp_path):
    out = tmp_path / "logistic.svg"
    assert main(["calibration", str(EX / "logistic_3.json"), "--draw", str(out), "--timeout", "60"]) == 0
    text = out.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text and "region not computed for (S)" in text


def test_four_labels_draw_slices_and_a_counterexample_gets_a_slice_of_its_own(tmp_path):
    loss, sur, link = surrogates.zero_one(4), surrogates.weston_watkins(4), "argmax"
    s = setup(loss, sur, link, name="ww4")
    out = draw_problem(s, tmp_path / "ww4.svg", None, [[F(1, 3), F(1, 6), F(1, 3), F(1, 6)]])
    text = out.read_text()
    assert "slice p4 = 0" in text and "slice p4 = 1/4" in text and "slice p4 = 1/2" in text
    assert "slice p4 = 1/6" in text


def test_a_parameter_draws_its_pieces_on_a_line(tmp_path):
    out = tmp_path / "c.png"
    assert main(["calibration", str(EX / "cost_sensitive_hinge_c.json"), "--draw", str(out)]) == 0
    assert out.read_bytes()[:8] == PNG


def test_the_trigger_cells_of_the_zero_one_loss_are_exact_polygons():
    L = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    cell1 = cells_2d(L)[0]  # where p1 is the largest, in (p1, p2)
    assert set(cell1) == {(F(1), F(0)), (F(1, 2), F(1, 2)), (F(1, 3), F(1, 3)), (F(1, 2), F(0))}
    assert clip([(F(0), F(0)), (F(1), F(0)), (F(0), F(1))], (F(1), F(0)), F(-1)) == []  # p1 <= -1: nothing


def test_a_bad_drawing_name_a_two_label_problem_and_a_missing_matplotlib_are_one_line_errors(tmp_path, capsys,
                                                                                          monkeypatch):
    assert main(["calibration", str(EX / "weston_watkins_3.json"), "--draw", str(tmp_path / "x.jpg")]) == 2
    assert ".png or .svg" in capsys.readouterr().err
    assert main(["calibration", str(EX / "logistic_binary.json"), "--draw", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "3 labels" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.png").exists()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(InvalidInput, match="matplotlib"):
        draw_problem(setup(surrogates.zero_one(3), surrogates.weston_watkins(3), "argmax"), tmp_path / "y.png")
