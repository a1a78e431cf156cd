"""The tutorial notebook runs from top to bottom in a headless IPython kernel, and shows its
verdicts as HTML with the status coloured and a counterexample graph as inline SVG."""

import time
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

TUTORIAL = Path(__file__).resolve().parents[2] / "examples" / "tutorial.ipynb"


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    nb = nbformat.read(TUTORIAL, as_version=4)
    t0 = time.perf_counter()
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path_factory.mktemp("tutorial"))}})
    client.execute()
    return nb, time.perf_counter() - t0


def outputs(nb, mime):
    return [o["data"][mime] for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if mime in o.get("data", {})]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_tutorial_runs_without_an_error_and_is_shipped_without_outputs(executed):
    nb, seconds = executed
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == []
    shipped = nbformat.read(TUTORIAL, as_version=4)
    nbformat.validate(shipped)
    assert all(not c.get("outputs") for c in shipped.cells if c.cell_type == "code")
    assert seconds < 300


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_tutorial_shows_html_verdicts_and_a_counterexample_graph(executed):
    nb, _ = executed
    html = outputs(nb, "text/html")
    assert any('class="symcal-status symcal-refuted"' in h for h in html)
    assert any('class="symcal-status symcal-proved"' in h for h in html)
    counterexample = [h for h in html if "mine2026.transitive_is_enough" in h and "<svg" in h]
    assert counterexample and "conclusion fails at (1, 2)" in counterexample[0]
    assert any("not low-noise (Definition 8) at (i, j, k) = (1, 2, 3)" in h for h in html)
    assert any("p = (0, 1/2, 1/2)" in h for h in html)  # the calibration counterexample
    assert len(outputs(nb, "image/png")) >= 3  # the matplotlib pictures
    assert any(r"\frac{1}{4}" in t for t in outputs(nb, "text/latex"))
