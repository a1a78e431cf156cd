"""Robustness attacks on the command line: every bad input is one line on stderr naming the
parameter, exit code 2, never a traceback; under ``--json`` stdout is JSON or empty.  Each attack
has a twin that must still work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symcal.cli import main
from symcal.kernel.cli import main as kernel_main

ROOT = Path(__file__).resolve().parents[2]
LONG = "x" * 5000


def one_line_error(capfd, argv, *needles):
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own refusals
        code = e.code
    out, err = capfd.readouterr()
    assert code == 2, (code, out, err)
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("symcal: error: ") and len(lines[0]) < 700
    for n in needles:
        assert n in lines[0], lines[0]
    return out


@pytest.mark.parametrize("argv, needle", [
    (["preference", "a\x00b.json", "--json"], "NUL"),
    (["report", "--from", "a\x00b.json"], "NUL"),
    (["costs", "i" + "+i" * 20000, "--K", "3"], "at most 10,000 characters"),
    (["costs", LONG + ".json", "--json"], "FILE"),
    (["loss", LONG + ".json", "--json"], "source"),
    (["report", "--from", LONG + ".json"], "--from"),
    (["report", "--from", ""], "--from"),
    (["report", "--out", "", "--from", "x.json"], "--out"),
    (["check", "--draw", "", "--theorems", "x.py"], "--draw"),
    (["check", "--draw", LONG], "--draw"),
    (["check", "--theorems", LONG + ".py", "--json"], "File name too long"),
    (["preference", str(ROOT / "examples" / "preferences.json"), "--draw", LONG + ".png"], "--draw"),
    (["export", "--coq", "out", "--from-certificates", "no/such/folder"], "--from-certificates"),
])
def test_a_bad_name_is_one_line_naming_the_parameter_with_exit_code_2(capfd, argv, needle):
    one_line_error(capfd, argv, needle)


def test_an_empty_or_certificate_free_folder_is_refused_by_export_but_a_folder_with_a_certificate_is_read(
        tmp_path, capfd):
    one_line_error(capfd, ["export", "--coq", str(tmp_path / "coq"), "--from-certificates", str(tmp_path)],
                   "no certificate file")
    # its twin: a folder with a .json file gets past the check (the file is then judged by the export)
    (tmp_path / "x.json").write_text("{}")
    from symcal.commands.export import _certificate_folder

    _certificate_folder(str(tmp_path))


def test_an_empty_saved_run_is_refused_and_a_hand_edited_one_is_reported(tmp_path, capfd):
    run = tmp_path / "run.json"
    run.write_text("[]")
    one_line_error(capfd, ["report", "--from", str(run)], "empty array")
    # its twin: odd field types ("sizes": 5, "warnings": true) are reported, not a crash
    run.write_text(json.dumps([{"id": "mine.x", "status": "proved", "sizes": 5, "warnings": True,
                                "evidence": {"kind": "composite", "parts": 7}}]))
    for fmt in ("md", "html", "latex"):
        assert main(["report", "--from", str(run), "--format", fmt]) in (0, 1)
        out, err = capfd.readouterr()
        assert "mine" in out and "Traceback" not in err and "internal error" not in err


def test_costs_that_time_out_under_json_print_json_and_without_json_a_line(capfd):
    from symcal.limits import TimeLimitReached

    def slow(*a, **k):
        raise TimeLimitReached(1.0)

    import symcal.ranking.costs as rc

    saved = rc._limited
    rc._limited = slow
    try:
        assert main(["costs", "linear", "--K", "3", "--json", "--timeout", "1"]) == 1
        out, _ = capfd.readouterr()
        assert json.loads(out)["verdict"] == "undecided"
        assert main(["costs", "linear", "--K", "3", "--timeout", "1"]) == 1
        out, _ = capfd.readouterr()
        assert out.startswith("symcal: gave up")
    finally:
        rc._limited = saved


def test_the_kernel_rejects_a_certificate_it_trips_over_and_accepts_a_folder_name_only(tmp_path, capfd):
    (tmp_path / "a.json").write_text(json.dumps({
        "format": "symcal-certificate 1", "status": "proved", "reductions": [], "reduction": "none",
        "certificate": {"kind": "all", "checked": True, "missing": [],
                        "body": {"kind": "all", "parts": [["x", {"kind": ["unhashable"]}]]}}}))
    assert kernel_main([str(tmp_path), "--json"]) == 1
    out, err = capfd.readouterr()
    row = json.loads(out)["results"][0]
    assert row["result"] == "rejected" and "Traceback" not in err
    # its twin: an empty folder name is a usage error, not the current folder
    assert kernel_main([""]) == 2
    assert "DIR=''" in capfd.readouterr().err
