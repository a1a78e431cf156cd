"""``python -m symcal`` and the ``symcal`` command.  symcal's modules import sympy and z3, which takes a
second or more on a busy machine: a Ctrl-C in that time ends the program as one line and exit code 130,
like a Ctrl-C later on (:func:`symcal.cli.main`), never with a traceback."""

import sys


def run() -> int:
    """Import the command line and run it; a Ctrl-C while importing is exit code 130."""
    try:
        from symcal.cli import main
    except KeyboardInterrupt:
        print("symcal: interrupted", file=sys.stderr)
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(run())
