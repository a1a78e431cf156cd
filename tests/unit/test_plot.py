"""Pictures (the `plot` extra): graphs with exact weights, the low-noise violation and a
counterexample's failing tuple in red, the feedback arc set of an optimal order, time per size."""

import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from symcal import check_many  # noqa: E402
from symcal.errors import InvalidInput, NoBackendAvailable  # noqa: E402
from symcal.library import load_bundled, load_file, select  # noqa: E402
from symcal.report import plot  # noqa: E402
from symcal.report.html import HIGHLIGHT  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"
THEOREM11 = {(1, 2): 1, (1, 3): 3, (2, 3): 1, (3, 1): 2}  # not low-noise at (1, 2, 3)
LOW_NOISE = {(1, 2): F(1, 2), (1, 3): F(3, 2), (2, 3): F(1, 8), (3, 1): F(1, 2)}


def red_in(svg: str) -> bool:
    return HIGHLIGHT.lower() in svg.lower()


def test_the_difference_graph_draws_a_low_noise_violation_in_red_and_nothing_red_otherwise(tmp_path):
    bad = plot.difference_graph(THEOREM11).save(tmp_path / "bad.svg").read_text()
    good = plot.difference_graph(LOW_NOISE).save(tmp_path / "good.svg").read_text()
    assert "<svg" in bad and red_in(bad) and "(1, 2, 3)" in bad
    assert "<svg" in good and not red_in(good)
    png = plot.difference_graph(THEOREM11).save(tmp_path / "bad.png")
    assert png.read_bytes().startswith(PNG)


def test_the_optimal_order_draws_its_back_edges_in_red(tmp_path):
    cyclic = plot.feedback_arc_set(THEOREM11).save(tmp_path / "fas.svg").read_text()
    assert red_in(cyclic) and "min l(p, α) = 2" in cyclic
    dag = plot.feedback_arc_set({(1, 2): 1, (2, 3): 1}).save(tmp_path / "dag.svg").read_text()
    assert not red_in(dag) and "min l(p, α) = 0" in dag
    weights = plot.preference_graph(THEOREM11).save(tmp_path / "w.svg").read_text()
    assert red_in(weights) and "back edges of the order 1 &gt; 2 &gt; 3" in weights


def test_the_three_panel_picture_of_a_preference_file(tmp_path):
    from symcal.ranking.io import load_preferences

    p = plot.preferences(load_preferences(ROOT / "examples" / "preferences.json"))
    out = p.save(tmp_path / "pref.png")
    assert out.read_bytes().startswith(PNG) and len(p.figure.axes) == 3
    assert p._repr_png_().startswith(PNG)


@pytest.fixture(scope="module")
def verdict_pairs():
    claims = [c for c in load_file(ROOT / "examples" / "my_claims.py")
              if c.id in ("mine2026.am_gm_half", "mine2026.transitive_is_enough")]
    claims += select(load_bundled(), ["duchi2010.lemma14"])
    return list(zip(claims, check_many(claims, sizes=(3, 6), timeout=60), strict=True))


def test_a_counterexample_picture_marks_the_failing_pair_and_a_proved_claim_has_none(verdict_pairs, tmp_path):
    (proved_c, proved_v), (node_c, node_v), _ = verdict_pairs
    svg = plot.counterexample(node_v, node_c).save(tmp_path / "cx.svg").read_text()
    assert red_in(svg) and "fails at (1, 2)" in svg and "mine2026.transitive_is_enough" in svg
    with pytest.raises(InvalidInput, match="a refuted node claim"):
        plot.counterexample(proved_v, proved_c)


def test_time_against_size_for_a_sweep_and_an_error_for_an_unsized_verdict(verdict_pairs, tmp_path):
    (proved_c, proved_v), _, (lemma_c, lemma_v) = verdict_pairs
    assert [s.size for s in lemma_v.sizes] == [3, 4, 5, 6]
    svg = plot.sweep(lemma_v).save(tmp_path / "sweep.svg").read_text()
    assert "size m" in svg and "seconds" in svg and "duchi2010.lemma14" in svg
    with pytest.raises(InvalidInput, match="sized sweep"):
        plot.sweep(proved_v)


def test_draw_verdicts_writes_one_picture_per_refuted_node_claim_and_per_sweep(verdict_pairs, tmp_path):
    files = plot.draw_verdicts(verdict_pairs, tmp_path / "pics")
    names = sorted(f.name for f in files)
    assert "mine2026.transitive_is_enough.counterexample.png" in names
    assert "duchi2010.lemma14.sizes.png" in names
    assert not any(n.startswith("mine2026.am_gm_half") for n in names)
    assert all(f.read_bytes().startswith(PNG) for f in files)


def test_a_picture_refuses_an_unknown_format(tmp_path):
    with pytest.raises(InvalidInput, match=r"\.png, \.svg, \.pdf"):
        plot.difference_graph(THEOREM11).save(tmp_path / "x.gif")


def test_without_matplotlib_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    with pytest.raises(NoBackendAvailable, match=r"pip install 'symcal\[plot\]'"):
        plot.difference_graph(THEOREM11)
    assert plot.available() is False


def test_the_command_line_draws_a_preference_file_and_the_pictures_of_a_check(tmp_path):
    svg = tmp_path / "pref.svg"
    r = subprocess.run([sys.executable, "-m", "symcal", "preference", str(ROOT / "examples" / "preferences.json"),
                        "--draw", str(svg)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert svg.read_text().lstrip().startswith("<?xml") and "difference graph" in svg.read_text()
    bad = subprocess.run([sys.executable, "-m", "symcal", "preference", str(ROOT / "examples" / "preferences.json"),
                          "--draw", str(tmp_path / "x.gif")], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert bad.returncode == 2 and ".png, .svg, .pdf" in bad.stderr and "Traceback" not in bad.stderr
    pics = tmp_path / "pics"
    r2 = subprocess.run([sys.executable, "-m", "symcal", "check", "duchi2010.lemma14.converse", "--no-cross-check",
                         "--draw", str(pics)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r2.returncode == 0, r2.stderr
    assert (pics / "duchi2010.lemma14.converse.counterexample.png").read_bytes().startswith(PNG)
    assert "pictures to" in r2.stderr
