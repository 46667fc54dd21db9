"""Where an import leads inside the repository, per language's own rules.

Imports of third-party packages resolve to nothing and are reported as external.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable

_TS_SUFFIXES = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")


class Resolver:
    def __init__(self, paths: Iterable[str]):
        self.paths = set(paths)
        self._by_suffix: dict[str, list[str]] = defaultdict(list)  # 'b/c.py' -> ['src/a/b/c.py']
        self._dirs: dict[str, list[str]] = defaultdict(list)
        for path in self.paths:
            parts = path.split("/")
            for start in range(len(parts)):
                self._by_suffix["/".join(parts[start:])].append(path)
            self._dirs[posixpath.dirname(path)].append(path)

    def resolve(self, importer: str, language: str, module: str, names: list[str]) -> list[str]:
        family = "typescript" if language in ("tsx", "javascript") else language
        method = getattr(self, f"_{family}", None)
        found = method(importer, module, names) if method else []
        return sorted(set(found) - {importer})

    def _python(self, importer: str, module: str, names: list[str]) -> list[str]:
        if module.startswith("."):
            dots = len(module) - len(module.lstrip("."))
            base = posixpath.dirname(importer)
            for _ in range(dots - 1):
                base = posixpath.dirname(base)
            rest = module[dots:].replace(".", "/")
            stem = posixpath.join(base, rest) if rest else base
            return self._python_exact(stem, names)
        stem = module.replace(".", "/")
        return self._python_suffix(stem, names)

    def _python_exact(self, stem: str, names: list[str]) -> list[str]:
        # `from . import a, b` names submodules; `from .m import f` names things inside m.
        submodules = [
            p
            for name in names
            for p in (f"{stem}/{name}.py", f"{stem}/{name}/__init__.py")
            if p in self.paths
        ]
        if submodules:
            return submodules
        return [p for p in (f"{stem}.py", f"{stem}/__init__.py", f"{stem}.pyi") if p in self.paths][:1]

    def _python_suffix(self, stem: str, names: list[str]) -> list[str]:
        submodules = [
            p for name in names for c in (f"{stem}/{name}.py", f"{stem}/{name}/__init__.py")
            for p in self._by_suffix.get(c, [])
        ]  # fmt: skip
        if submodules:
            return _closest(submodules)
        modules = [
            p
            for c in (f"{stem}.py", f"{stem}/__init__.py", f"{stem}.pyi")
            for p in self._by_suffix.get(c, [])
        ]
        return _closest(modules)

    def _typescript(self, importer: str, module: str, names: list[str]) -> list[str]:
        if not module.startswith("."):
            return []
        stem = posixpath.normpath(posixpath.join(posixpath.dirname(importer), module))
        candidates = [stem] + [stem + s for s in _TS_SUFFIXES] + [f"{stem}/index{s}" for s in _TS_SUFFIXES]
        if stem.endswith((".js", ".mjs", ".cjs")):  # TS sources import './x.js' meaning './x.ts'
            base = stem.rsplit(".", 1)[0]
            candidates += [base + s for s in (".ts", ".tsx", ".mts", ".cts")]
        return next(([c] for c in candidates if c in self.paths), [])

    def _go(self, importer: str, module: str, names: list[str]) -> list[str]:
        parts = module.split("/")
        for start in range(len(parts)):
            folder = "/".join(parts[start:])
            if folder in self._dirs:
                return [p for p in self._dirs[folder] if p.endswith(".go") and not p.endswith("_test.go")]
        return []

    def _rust(self, importer: str, module: str, names: list[str]) -> list[str]:
        segments = module.split("::")
        if segments[0] == "crate":
            base = _rust_crate_root(importer)
            segments = segments[1:]
        elif segments[0] in ("self", "super"):
            base = posixpath.dirname(importer)
            if posixpath.basename(importer) not in ("mod.rs", "lib.rs", "main.rs"):
                base = posixpath.join(base, posixpath.splitext(posixpath.basename(importer))[0])
            while segments and segments[0] in ("self", "super"):
                if segments.pop(0) == "super":
                    base = posixpath.dirname(base)
        else:
            return []
        for take in range(len(segments), -1, -1):
            stem = posixpath.join(base, *segments[:take]) if segments[:take] else base
            for candidate in (f"{stem}.rs", f"{stem}/mod.rs"):
                if candidate in self.paths:
                    found = [candidate]
                    found += [
                        p for n in names for p in (f"{stem}/{n}.rs", f"{stem}/{n}/mod.rs") if p in self.paths
                    ]
                    return found
        return []


def _rust_crate_root(importer: str) -> str:
    parts = importer.split("/")
    if "src" in parts:
        return "/".join(parts[: len(parts) - parts[::-1].index("src")])
    return posixpath.dirname(importer)


def _closest(found: list[str]) -> list[str]:
    """Of several files ending the same way, the shortest paths (src/pkg/a.py over tests/x/pkg/a.py)."""
    if not found:
        return []
    unique = sorted(set(found), key=lambda p: (p.count("/"), p))
    best_depth = unique[0].count("/")
    return [p for p in unique if p.count("/") == best_depth]
