"""What the walk skips by name alone, and the guess from sizes that decides whether a new index
starts a parse worker before the CLI loads (index/workers.py): nothing here imports more than the
standard library's `os` and `pathlib`, so that the guess runs before the rest of pramana loads.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

DEFAULT_MAX_FILE_BYTES = 1_000_000

# Folders that hold other people's code, build output or caches, skipped even without a .gitignore.
SKIPPED_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", "node_modules", "bower_components", "vendor", "third_party",
        "third-party", "dist", "build", "target", "out", ".next", ".nuxt", ".svelte-kit",
        ".turbo", ".cache", "coverage", "__pycache__", ".mypy_cache", ".pytest_cache",
        ".ruff_cache", ".tox", ".nox", ".venv", "venv", "env", ".eggs", "site-packages",
        ".idea", ".vscode", ".gradle", "Pods", "Carthage", ".build", "DerivedData", "_build", "deps",
        ".dart_tool", ".stack-work", "dist-newstyle", "zig-cache", ".zig-cache", "zig-out", "_opam",
        "bazel-out", "cmake-build-debug", "cmake-build-release", ".bundle",
        # Autotools' auxiliary scripts (config.guess, install-sh, depcomp, ltmain.sh), copied in by
        # automake and libtool: a release tarball of a C project carries them, a checkout ignores them.
        "build-aux",
    }
)  # fmt: skip
SKIPPED_NAMES = frozenset(
    {
        "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock", "uv.lock",
        "poetry.lock", "Pipfile.lock", "Cargo.lock", "go.sum", "composer.lock", "Gemfile.lock",
        ".DS_Store", "mix.lock", "Package.resolved", "pubspec.lock", "gradle.lockfile",
    }
)  # fmt: skip
BINARY_SUFFIXES = frozenset(
    {
        ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".webp", ".pdf", ".zip", ".gz", ".bz2",
        ".xz", ".tar", ".7z", ".whl", ".jar", ".so", ".dylib", ".dll", ".exe", ".o", ".a", ".pyc",
        ".woff", ".woff2", ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".wav", ".mov", ".db", ".sqlite",
        ".wasm", ".bin", ".pkl", ".npy", ".npz", ".parquet", ".class", ".beam", ".dex", ".pdb",
    }
)  # fmt: skip


def holds_at_least(root: Path, files: int, size: int, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> bool:
    """Whether there are `files` files under `root` holding `size` bytes: a guess from sizes alone
    (no file read, no .gitignore, no link followed), which stops as soon as it has both. Not the
    walk: it may count files the walk leaves out."""
    count = total = 0
    folders = [root]
    while folders:
        try:
            entries = list(os.scandir(folders.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIPPED_DIRS:
                        folders.append(Path(entry.path))
                elif (
                    entry.is_file(follow_symlinks=False)
                    and entry.name not in SKIPPED_NAMES
                    and PurePosixPath(entry.name).suffix.lower() not in BINARY_SUFFIXES
                ):
                    found = entry.stat(follow_symlinks=False).st_size
                    if 0 < found <= max_bytes:
                        count, total = count + 1, total + found
            except OSError:
                continue
            if count >= files and total >= size:
                return True
    return False
