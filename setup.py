"""The build's one optional step: the engine's hot modules compiled by mypyc (issue 27).

The same typed Python is compiled, nothing hand-written: each module listed in
``arena/native.py`` (``COMPILED``) gets an extension module beside its ``.py`` file, which Python
imports in its place. Without mypyc, a C compiler or Python's headers, or when the build fails,
the package installs as plain Python, the build says so in one line, and everything runs on the
``.py`` files (``TAROT_ARENA_PURE_PYTHON=1`` forces that even where the extensions are built).

``TAROT_ARENA_BUILD_NATIVE=0`` skips the compilation (a quicker install, the pure engine).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def compiled_modules() -> tuple[str, ...]:
    """``COMPILED`` read from arena/native.py without importing the package (whose imports the
    build environment may lack)."""
    tree = ast.parse((ROOT / "arena" / "native.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in targets):
                assert node.value is not None
                return tuple(ast.literal_eval(node.value))
    raise RuntimeError("arena/native.py defines no COMPILED")


def source_of(module: str) -> Path:
    return Path(*module.split(".")).with_suffix(".py")


def say(line: str) -> None:
    print(f"tarot-arena: {line}", file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python instead of failing the install."""

    def run(self) -> None:
        # Where the extensions go, asked before building (setuptools clears inplace meanwhile).
        manifest = Path(self.get_ext_fullpath("arena.native")).parent / "native_manifest.json"
        manifest.unlink(missing_ok=True)  # without it no extension is imported, whatever is built
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as error:  # any failure leaves the pure engine
            say(f"the compiled engine failed to build ({error}): installed as pure Python")
            return
        write_manifest(manifest)
        say(f"the engine's {len(compiled_modules())} hot modules compiled by mypyc")

    def build_extension(self, ext):  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as error:
            text = str(error)
            if "non-zero exit status" in text:  # the compiler's whole command line: too long
                status = text.rsplit(" ", 1)[-1].rstrip(".")
                text = f"the C compiler ({self.compiler.compiler_so[0]}) exited with {status}"
            raise RuntimeError(f"{ext.name}: {text[:300]}") from error


def write_manifest(target: Path) -> None:
    """What was compiled, from which sources: arena/native.py takes the extensions only while
    every source still matches (an edited .py runs as written, not as it was built)."""
    manifest = {
        module: hashlib.sha256((ROOT / source_of(module)).read_bytes()).hexdigest()
        for module in compiled_modules()
    }
    target.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def native_extensions() -> list[object]:
    if os.environ.get("TAROT_ARENA_BUILD_NATIVE", "1") == "0":
        say("TAROT_ARENA_BUILD_NATIVE=0: the engine installed as pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc not found: the engine installed as pure Python")
        return []
    paths = [str(source_of(m)) for m in compiled_modules()]
    try:
        return list(mypycify(paths, group_name="arena.games._engine", opt_level="3"))
    except BaseException as error:  # mypyc reports a type error by SystemExit
        say(f"mypyc could not compile the engine ({error!r}): installed as pure Python")
        return []


setup(ext_modules=native_extensions(), cmdclass={"build_ext": OptionalBuildExt})
