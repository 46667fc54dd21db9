"""Lines of src/pramana, per package: physical lines, and code lines (no blank, comment or docstring line).

    uv run python benchmarks/loc.py                 # this checkout
    uv run python benchmarks/loc.py --at 6477808    # another commit (read with git, nothing checked out)

Issue 31 point 3 reports these before and after the server contract (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "src/pramana"


def code_lines(source: str) -> int:
    """Lines holding a token that is neither a comment nor part of a docstring."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            value = first.value if isinstance(first, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped and token.type != tokenize.ENDMARKER:
            lines.update(n for n in range(token.start[0], token.end[0] + 1) if n not in docstrings)
    return len(lines)


def sources(commit: str | None) -> dict[str, str]:
    """Every .py file under src/pramana, by its path there."""
    if commit is None:
        return {
            str(p.relative_to(ROOT / PACKAGE)): p.read_text("utf-8") for p in (ROOT / PACKAGE).rglob("*.py")
        }
    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", commit, PACKAGE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return {
        path.removeprefix(PACKAGE + "/"): subprocess.run(
            ["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        for path in listed
        if path.endswith(".py")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", help="a commit to count instead of the checkout")
    args = parser.parse_args()
    physical: Counter[str] = Counter()
    code: Counter[str] = Counter()
    for path, text in sources(args.at).items():
        package = path.split("/")[0] if "/" in path else "(top-level modules)"
        physical[package] += len(text.splitlines())
        code[package] += code_lines(text)
    print(f"{'package':22} {'lines':>7} {'code':>7}")
    for package in sorted(physical):
        print(f"{package:22} {physical[package]:7} {code[package]:7}")
    print(f"{'total':22} {sum(physical.values()):7} {sum(code.values()):7}")


if __name__ == "__main__":
    main()
