"""Run several `attention-zoo` command lines in one fresh process.

Usage: `python -m tests.cli_faults.driver CASES.json`, where the file holds
a list of argument lists. Prints one JSON line: per case, the exit status
and what it wrote on stderr. The process is the command line's own (its
environment, its stderr), shared by the cases so that TensorFlow is
imported once; an exception that escapes `main` is recorded, not raised.
"""

import contextlib
import io
import json
import sys
import traceback

from attention_zoo.cli import main


def run(argv):
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException:  # what escaped the boundary: a failure
            traceback.print_exc()
            code = "escaped"
    return {"code": code, "stderr": err.getvalue(), "stdout": out.getvalue()}


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    print(json.dumps([run(argv) for argv in cases]))
