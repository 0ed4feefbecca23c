"""The engine's compiled core: which modules of :mod:`arena.games` mypyc compiles, and the
import hook that decides, once per process, whether they run compiled or as their ``.py`` files.

The build (``setup.py``, run by ``make install``) compiles the modules of :data:`COMPILED` from
the same typed Python and writes ``native_manifest.json`` beside this file: each module with the
SHA-256 of the source it was built from. The extensions are imported only when all of these hold:

- ``TAROT_ARENA_PURE_PYTHON`` is not set to a true value (``1``, ``true``, ``yes``): set, every
  module of the games is imported from its ``.py`` file even where an extension is built, which
  is how the suite checks that both variants behave the same (``make test-pure``);
- the manifest is there and names exactly :data:`COMPILED`;
- every listed source is unchanged since the build, and every extension is there.

Otherwise the whole engine runs as pure Python, never part of it: the compiled modules call each
other directly, so a pure module beside compiled ones would be a second copy of its classes. An
edited source after a build gives one warning naming it (``make native`` rebuilds), so a change
always runs as written. Pure Python is the reference: both behave identically, the compiled
core only faster (docs/architecture.md, "The compiled engine").
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

COMPILED: Final = (
    "arena.games.cardsets",
    "arena.games.dealing_core",
    "arena.games.frozen",
    "arena.games.registry",
    "arena.games.french_tarot.game",
    "arena.games.french_tarot.observation",
    "arena.games.french_tarot.scoring_core",
    "arena.games.french_tarot.simulate",
    "arena.games.tre_e_venticinque.game",
    "arena.games.tre_e_venticinque.simulate",
)
"""The hot modules, profiled (docs/architecture.md): what a deal and a rollout spend their time
in. The build reads this tuple from the source; keep it a literal."""

SHARED_LIBRARY: Final = "arena.games._engine__mypyc"
"""The extension holding the compiled code of every module (mypyc's group ``arena.games._engine``):
each module's own extension only points into it."""

PURE_ENV: Final = "TAROT_ARENA_PURE_PYTHON"
MANIFEST: Final = Path(__file__).resolve().with_name("native_manifest.json")
_PACKAGE_ROOT: Final = Path(__file__).resolve().parent.parent


def _source_of(module: str) -> Path:
    return _PACKAGE_ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(module: str) -> str:
    """The SHA-256 of ``module``'s source, as the build's manifest records it (setup.py)."""
    return hashlib.sha256(_source_of(module).read_bytes()).hexdigest()


def _has_extension(module: str) -> bool:
    source = _source_of(module)
    stem = source.with_suffix("")
    return any(
        Path(f"{stem}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def _decide() -> tuple[bool, str]:
    """(compiled, why): whether the extensions are imported in this process, in one line."""
    if os.environ.get(PURE_ENV, "").strip().lower() in ("1", "true", "yes"):
        return False, f"pure Python ({PURE_ENV} is set)"
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False, "pure Python (the engine was not compiled: no mypyc build)"
    except (OSError, ValueError) as error:
        return False, f"pure Python (unreadable {MANIFEST.name}: {error})"
    if not isinstance(manifest, dict) or sorted(manifest) != sorted(COMPILED):
        return False, "pure Python (the compiled modules are not today's list: make native)"
    for module in COMPILED:
        try:
            digest = source_digest(module)
        except OSError:
            return False, f"pure Python ({module}'s source is missing)"
        if digest != manifest[module]:
            reason = f"{_source_of(module).name} of {module} changed since the build"
            warnings.warn(
                f"arena: the compiled engine is stale ({reason}): running pure Python; "
                "`make native` compiles it again",
                RuntimeWarning,
                stacklevel=3,
            )
            return False, f"pure Python ({reason}: make native)"
        if not _has_extension(module):
            return False, f"pure Python ({module}'s extension is missing: make native)"
    return True, f"compiled by mypyc ({len(COMPILED)} modules)"


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the games' modules as ``.py`` files (or packages), unless the compiled engine is
    on and the module is one of :data:`COMPILED`: then the usual finders take its extension."""

    def __init__(self, compiled: bool) -> None:
        self.native = frozenset((*COMPILED, SHARED_LIBRARY)) if compiled else frozenset()

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("arena.games.") or fullname in self.native or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            finder = importlib.machinery.FileFinder(
                entry,
                (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES),
                (importlib.machinery.SourcelessFileLoader, importlib.machinery.BYTECODE_SUFFIXES),
            )
            spec = finder.find_spec(fullname)
            if spec is not None and spec.name.rpartition(".")[2] == leaf:
                return spec
        return None


COMPILED_NOW, STATUS = _decide()
"""Whether this process runs the compiled engine, and why, in one line (``make bench`` prints
it)."""


def install() -> None:
    """Put the finder first on :data:`sys.meta_path` (once): before any game module loads."""
    if not any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(COMPILED_NOW))
