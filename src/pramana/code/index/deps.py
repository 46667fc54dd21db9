"""Where an import leads inside the repository, per language's own rules.

Imports of third-party packages resolve to nothing and are reported as external.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable

from pramana.code import languages

_TS_SUFFIXES = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")


_Ranks = tuple[tuple[str, ...], ...]
# The files that are a module `a.b` (a/b + each suffix), by rank: the first rank with a file is the module.
# Cython's `cimport` reads a module's `.pxd` declarations; a Cython module without them is its Python
# or its `.pyx` (`import` of a compiled module).
_MODULE_FILES: dict[str, _Ranks] = {
    "python": ((".py", "/__init__.py", ".pyi"),),
    "cython": ((".pxd", "/__init__.pxd"), (".py", "/__init__.py", ".pyi"), (".pyx",)),
}
# The files that are a submodule `b` of `from a import b`.
_SUBMODULES: dict[str, _Ranks] = {
    "python": ((".py", "/__init__.py"),),
    "cython": ((".pxd", "/__init__.pxd"), (".py", "/__init__.py"), (".pyx",)),
}


class Resolver:
    def __init__(self, paths: Iterable[str]):
        self.paths = set(paths)
        self._by_suffix: dict[str, list[str]] = defaultdict(list)  # 'b/c.py' -> ['src/a/b/c.py']
        self._dirs: dict[str, list[str]] = defaultdict(list)
        self._dirs_by_suffix: dict[str, list[str]] = defaultdict(list)
        for path in self.paths:
            parts = path.split("/")
            for start in range(len(parts)):
                self._by_suffix["/".join(parts[start:])].append(path)
            self._dirs[posixpath.dirname(path)].append(path)
            folder = parts[:-1]
            for start in range(len(folder)):
                self._dirs_by_suffix["/".join(folder[start:])].append(path)

    def resolve(self, importer: str, language: str, module: str, names: list[str]) -> list[str]:
        family = "typescript" if language in ("tsx", "javascript") else language
        method = getattr(self, f"_{family}", None)
        found = method(importer, module, names) if method else self._by_path(importer, language, module)
        return sorted(set(found) - {importer})

    def _by_path(self, importer: str, language: str, module: str) -> list[str]:
        """Every other language: the module names a file, relative to the importer (`#include "x.h"`,
        `require_relative`, `source ./lib.sh`) or by the end of its path (`java.util.List` ->
        `.../java/util/List.java`, `Ecto.Repo` -> `.../ecto/repo.ex`); a module of the standard
        library or another package names no file of the repository and stays external."""
        spec = languages.language(language)
        separator = spec.syntax.separator if spec.syntax is not None else "/"
        text = re.sub(r"^\$\([^)]*\)/?|^\$\{[^}]*\}/?", "", module.strip())
        if text.startswith("package:"):  # Dart: package:name/path is the package's lib/path
            text = "lib/" + text.removeprefix("package:").partition("/")[2]
        # A module named with one of the language's extensions is a path (Julia's `include("a.jl")`,
        # Fortran's `include "a.f90"`), not `a.jl` read as the module `a` and its part `jl`.
        if separator != "/" and not text.endswith(spec.extensions):
            parts = [p for p in text.split(separator) if p and p != "*"]
            if language == "elixir":  # Ecto.Repo lives in ecto/repo.ex
                parts = [re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", p).lower() for p in parts]
            elif language == "ocaml":  # module Printf is printf.ml
                parts = [p[:1].lower() + p[1:] for p in parts]
            text = "/".join(parts)
        if not text:
            return []
        parts = text.split("/")
        # `Shop\Money\Amount` in src/Money/Amount.php (PSR-4): the namespace's first parts may be no folder.
        stems = ["/".join(parts[start:]) for start in range(max(1, len(parts) - 1))]
        relative = posixpath.normpath(posixpath.join(posixpath.dirname(importer), text))
        candidates = [relative + ext for ext in ("", *spec.extensions)] + [f"{relative}/init.lua"]
        found = next(([c] for c in candidates if c in self.paths), None)
        if found:
            return found
        for stem in stems:
            for ext in ("", *spec.extensions):
                matches = self._by_suffix.get(stem + ext)
                if matches and (ext or posixpath.splitext(stem)[1]):
                    return _closest(matches)
            if module.endswith("*") and stem in self._dirs_by_suffix:  # `import a.b.*`: the folder's files
                return sorted(p for p in self._dirs_by_suffix[stem] if p.endswith(spec.extensions))
        return []

    def _python(self, importer: str, module: str, names: list[str], family: str = "python") -> list[str]:
        if module.startswith("."):
            dots = len(module) - len(module.lstrip("."))
            base = posixpath.dirname(importer)
            for _ in range(dots - 1):
                base = posixpath.dirname(base)
            rest = module[dots:].replace(".", "/")
            stem = posixpath.join(base, rest) if rest else base
            return self._python_exact(stem, names, family)
        stem = module.replace(".", "/")
        return self._python_suffix(stem, names, family)

    def _cython(self, importer: str, module: str, names: list[str]) -> list[str]:
        """`include "a.pxi"`: the file named, beside the includer (else where a path ends so: an include
        folder of the build); `cimport a.b`, `from a cimport b`, `import a.b`: Python's rules, with
        Cython's files of a module (_MODULE_FILES)."""
        if "/" not in module and not module.endswith(languages.language("cython").extensions):
            return self._python(importer, module, names, "cython")
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(importer), module))
        if beside in self.paths:
            return [beside]
        return _closest(self._by_suffix.get(posixpath.normpath(module), []))

    def _python_exact(self, stem: str, names: list[str], family: str) -> list[str]:
        # `from . import a, b` names submodules; `from .m import f` names things inside m.
        submodules = [p for name in names for p in self._module_files(f"{stem}/{name}", _SUBMODULES[family])]
        if submodules:
            return submodules
        return self._module_files(stem, _MODULE_FILES[family])[:1]

    def _python_suffix(self, stem: str, names: list[str], family: str) -> list[str]:
        ranks = _SUBMODULES[family]
        submodules = [p for name in names for p in self._module_files(f"{stem}/{name}", ranks, anywhere=True)]
        if submodules:
            return _closest(submodules)
        return _closest(self._module_files(stem, _MODULE_FILES[family], anywhere=True))

    def _module_files(self, stem: str, ranks: _Ranks, anywhere: bool = False) -> list[str]:
        """The files of module `stem` of the first rank that has any: at that path, or (`anywhere`) at
        any path ending so."""
        for rank in ranks:
            if anywhere:
                found = [p for suffix in rank for p in self._by_suffix.get(stem + suffix, [])]
            else:
                found = [stem + suffix for suffix in rank if stem + suffix in self.paths]
            if found:
                return found
        return []

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
        # `#[path = "unix.rs"] mod imp;`: that file, from the declaring one's folder
        if module.endswith(".rs"):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(importer), module))
            return [path] if path in self.paths else []
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
