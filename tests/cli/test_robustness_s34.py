"""Robustness attacks on the command line (issue 25, "Promises not kept"): every refusal this red team
found is one line on stderr naming the option, exit code 2, with nothing on stdout; each has a twin that
still works.  The verbs run in this process (``main``), so the file stays cheap."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from symcal.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def refused(capfd, argv, *needles):
    code = main(argv)
    out, err = capfd.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and not out.strip(), (code, out, err)
    assert len(lines) == 1 and lines[0].startswith("symcal: error: ") and "Traceback" not in err, err
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def test_calibration_refuses_region_with_regret_or_draw_instead_of_ignoring_them_and_region_alone_runs(
        capfd, tmp_path):
    f = str(EXAMPLES / "calibration" / "weston_watkins_3.json")
    refused(capfd, ["calibration", f, "--region", "--regret"], "--regret=", "not both")
    refused(capfd, ["calibration", f, "--region", "--draw", str(tmp_path / "r.png")], "--draw=", "without --region")
    assert main(["calibration", f, "--region", "--json", "--timeout", "20"]) in (0, 1)
    assert json.loads(capfd.readouterr().out)["id"].startswith("calibration-region:")


def test_calibration_refuses_draw_for_two_labels_before_deciding_and_decides_without_draw(capfd, tmp_path):
    f = str(EXAMPLES / "calibration" / "logistic_binary.json")
    import symcal.calibration as cal

    def never(*a, **k):  # the refusal must come before the decision
        raise AssertionError("decided before refusing --draw")

    saved, cal.check_file = cal.check_file, never
    try:
        refused(capfd, ["calibration", f, "--json", "--draw", str(tmp_path / "c.png")], "--draw=", "3 labels")
    finally:
        cal.check_file = saved
    assert main(["calibration", f, "--json", "--timeout", "20", "--no-cross-check"]) == 0
    assert json.loads(capfd.readouterr().out)["status"] == "proved"


def test_an_error_whose_text_runs_over_lines_is_printed_as_one_line_and_a_plain_one_unchanged(capfd, tmp_path):
    folder = tmp_path / "two\nlines"  # a folder name with a newline: the file's path is in the message
    folder.mkdir()
    head = "from symcal import Citation, implies, reals\nC = Citation('mine2026', 'p. 1')\np, = reals('p')\n"
    dup = folder / "dup.py"
    dup.write_text(head + "a = implies('mine2026.x', hypotheses={}, conclusion=p >= p, cite=C)\n"
                          "b = implies('mine2026.x', hypotheses={}, conclusion=p <= p, cite=C)\n")
    refused(capfd, ["check", "--theorems", str(dup), "--json"], "defined twice", "two lines")
    # its twin: a one-line message is printed as it is
    assert refused(capfd, ["report", "--from", ""]).startswith("symcal: error: --from=''")


def test_report_from_a_run_giving_one_id_twice_is_refused_and_a_run_without_repeats_is_reported(capfd, tmp_path):
    run = tmp_path / "run.json"
    run.write_text(json.dumps([{"id": "mine.x", "status": "proved"}, {"id": "mine.x", "status": "refuted"}]))
    refused(capfd, ["report", "--from", str(run)], "--from=", "repeats the id 'mine.x'")
    run.write_text(json.dumps([{"id": "mine.x", "status": "proved"}]))
    assert main(["report", "--from", str(run)]) in (0, 1)
    assert "mine.x" in capfd.readouterr().out


@pytest.mark.parametrize("content, needle", [(b"x = 1\x00\n", "valid Python (source code string cannot contain null"),
                                             (b"x = 1\ndef (:\n", "at line 2")])
def test_a_theorems_file_that_is_not_python_is_one_line_without_line_none(capfd, tmp_path, content, needle):
    f = tmp_path / "mine.py"
    f.write_bytes(content)
    line = refused(capfd, ["check", "--theorems", str(f), "--json"], "--theorems=", needle)
    assert "line None" not in line


def test_a_theorems_file_given_twice_is_refused_before_it_runs_and_given_once_it_is_checked(capfd, tmp_path):
    f = tmp_path / "mine.py"
    f.write_text("print('IMPORTED')\nfrom symcal import Citation, implies, reals\np, = reals('p')\n"
                 "a = implies('mine2026.once', hypotheses={}, conclusion=p >= p, cite=Citation('mine2026', 'p. 1'))\n")
    line = refused(capfd, ["check", "--theorems", str(f), "--theorems", str(f), "--json"], "given twice")
    assert "IMPORTED" not in line  # refused() saw one line on stderr: the file never ran
    assert main(["check", "--theorems", str(f), "--json", "--no-cross-check"]) == 0
    out, err = capfd.readouterr()
    assert json.loads(out)[0]["id"] == "mine2026.once" and "IMPORTED" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_report_out_to_a_fifo_nobody_reads_is_refused_instead_of_waiting_and_a_plain_file_is_written(
        capfd, tmp_path):
    run = tmp_path / "run.json"
    run.write_text(json.dumps([{"id": "mine.x", "status": "proved"}]))
    fifo = tmp_path / "report.md"
    os.mkfifo(fifo)
    refused(capfd, ["report", "--from", str(run), "--out", str(fifo)], "--out=", "FIFO that nobody reads")
    out = tmp_path / "plain.md"
    assert main(["report", "--from", str(run), "--out", str(out)]) in (0, 1)
    assert "mine.x" in out.read_text()
