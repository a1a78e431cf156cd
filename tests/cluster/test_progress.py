"""The progress bar of long runs (symcal.progress, tqdm): counts and an ETA on a terminal, nothing otherwise."""

import io

import pytest

pytest.importorskip("tqdm")

from symcal.progress import ProgressBar, progress_bar  # noqa: E402


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_there_is_no_bar_when_stdout_is_not_a_terminal_or_the_output_is_json():
    assert progress_bar(stdout=io.StringIO(), stderr=_Terminal()) is None
    assert progress_bar(stdout=_Terminal(), stderr=io.StringIO()) is None
    assert progress_bar(json=True, stdout=_Terminal(), stderr=_Terminal()) is None
    assert isinstance(progress_bar(stdout=_Terminal(), stderr=_Terminal()), ProgressBar)


def test_the_bar_shows_the_counts_and_the_last_result():
    err = io.StringIO()
    bar = ProgressBar("checking", file=err)
    bar("[1/3] duchi2010.lemma14 m=3: proved (0.01 s)")
    bar("[2/3] duchi2010.lemma14 m=4: proved (0.02 s)")
    assert bar.count == (2, 3)
    text = bar.text()
    assert "checking" in text and "2/3" in text and "duchi2010.lemma14 m=4: proved" in text
    assert "<" in text  # elapsed<remaining: the ETA
    assert "0/3" in err.getvalue()  # drawn on the given stream
    bar.close()


def test_a_second_phase_starts_a_fresh_bar_and_a_line_without_counts_does_not_move_it():
    bar = ProgressBar("selftest", file=io.StringIO())
    for k in range(1, 6):
        bar(f"[{k}/5] original: proved")
    assert bar.count == (5, 5)
    bar("[1/40] a mutant: refuted")
    assert bar.count == (1, 40)
    bar("waiting for workers")
    assert bar.count == (1, 40)
    bar.close()
    assert bar.count is None
