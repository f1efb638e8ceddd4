"""The documentation's Python and shell blocks run as written (``tests/doc_blocks.rs`` says who
runs the others): every ```` ```python ```` and ```` ```sh ```` block of ``README.md``,
``python/README.md`` and ``docs/*.md`` not marked ``display-only``, each on its own (no block
continues another), from the repository's root, with this Python (the installed package) and
its ``rapidpqp`` command on ``PATH``. A ```` ```text ```` block right after one (at most one
line of prose between) is the output it must print.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List, NamedTuple, Optional

import pytest

from helpers import REPO


class Block(NamedTuple):
    doc: str
    line: int  # 1-based line of the opening fence
    lang: str
    code: str
    prints: Optional[str]


def documents() -> List[Path]:
    return [REPO / "README.md", REPO / "python" / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def fenced(path: Path) -> List[Block]:
    """The runnable python and sh blocks of a Markdown file."""
    raw = []  # (info, code, first, last)
    info: Optional[str] = None
    code: List[str] = []
    first = 0
    for n, line in enumerate(path.read_text().splitlines()):
        if line.rstrip().startswith("```"):
            rest = line.rstrip()[3:].strip()
            if info is None:
                info, code, first = rest, [], n
            elif rest == "":
                raw.append((info, "".join(code), first, n))
                info = None
            else:
                code.append(line + "\n")
        elif info is not None:
            code.append(line + "\n")
    assert info is None, f"{path}: a fenced block is not closed"
    blocks = []
    for k, (info, text, first, last) in enumerate(raw):
        words = info.split()
        if not words or words[0] not in ("python", "sh") or "display-only" in words:
            continue
        nxt = raw[k + 1] if k + 1 < len(raw) else None
        prints = nxt[1] if nxt and nxt[0] == "text" and nxt[2] - last <= 3 else None
        blocks.append(Block(str(path.relative_to(REPO)), first + 1, words[0], text, prints))
    return blocks


BLOCKS = [b for doc in documents() for b in fenced(doc)]


def test_the_documentation_has_python_and_shell_blocks() -> None:
    langs = [b.lang for b in BLOCKS]
    assert langs.count("python") >= 8 and langs.count("sh") >= 3, langs


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b.doc}:{b.line}" for b in BLOCKS])
def test_block_runs(block: Block) -> None:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONHASHSEED"] = "0"
    if block.lang == "python":
        args = [sys.executable, "-c", block.code]
    else:
        args = ["bash", "-euo", "pipefail", "-c", block.code]
    r = subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"{block.doc}:{block.line} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    if block.prints is not None:
        assert r.stdout == block.prints, f"{block.doc}:{block.line}: not the output shown"
