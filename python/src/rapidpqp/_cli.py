"""The ``rapidpqp`` console script: runs the Rust command-line program shipped inside the
package (``rapidpqp/_bin/rapidpqp``, built from ``src/bin/rapidpqp.rs`` by setup.py) with the
same arguments. On POSIX the Python process is replaced by the program (``os.execv``), so its
exit status, signals and output are the program's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import NoReturn, Optional, Sequence


def program_path() -> Path:
    """Where the package keeps the program."""
    name = "rapidpqp.exe" if sys.platform == "win32" else "rapidpqp"
    return Path(__file__).resolve().parent / "_bin" / name


def main(argv: Optional[Sequence[str]] = None) -> NoReturn:
    arguments = list(sys.argv[1:] if argv is None else argv)
    program = program_path()
    if not os.access(program, os.X_OK):
        sys.exit(f"rapidpqp: the command-line program {program} is missing; reinstall the package")
    if sys.platform == "win32":  # no exec there: wait, and pass the exit status on
        sys.exit(subprocess.call([str(program), *arguments]))
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(program, ["rapidpqp", *arguments])


if __name__ == "__main__":
    main()
