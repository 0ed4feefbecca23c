"""Bot pinning: which code of a bot a queued tournament was meant to be played with.

A worker plays the bots in its own process, from its own copy of their code. Were two
machines to hold two versions of a bot, one compare's boards would mix them and its verdict
would answer no question. So the code is hashed where the work is queued, stored with the
tournament (``work_pin``), and hashed again by every worker before it plays: a worker whose
copy hashes differently refuses that tournament, says why in one line, and takes other work.

What is hashed, exactly (SHA-256, in this order):

- the spec as it resolves (a bundled bot's name becomes its ``module:Class`` and its
  arguments, as the SDK's runner resolves them);
- the bot class's qualified name and its ``version`` attribute;
- the bytes of the source file of every module that defines a class of the bot's MRO, except
  the SDK's own (``clients.sdk``, part of the arena's release) and the standard library's.

Helper modules that the bot imports but that define none of its classes are not hashed: bump
the bot's ``version`` when only they change (or define the bot in the package it relies on).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SDK = "clients.sdk"


@dataclass(frozen=True, slots=True)
class Pin:
    """A bot's code as hashed here."""

    spec: str
    code_hash: str
    files: tuple[str, ...]
    """The modules hashed, by name (a refusal names them)."""


def pin_of(spec: str, bot: Any, resolved_as: tuple[str, Mapping[str, Any]]) -> Pin:
    """The pin of ``bot``, loaded from ``spec`` (which resolves as ``resolved_as``: a bundled
    bot's ``module:Class`` and arguments)."""
    resolved, kwargs = resolved_as
    cls = type(bot)
    digest = hashlib.sha256()
    digest.update(json.dumps([resolved, kwargs], sort_keys=True, default=repr).encode())
    digest.update(f"\0{cls.__module__}.{cls.__qualname__}\0{getattr(cls, 'version', '')}"
                  .encode())
    modules = []
    for klass in cls.__mro__:
        name = klass.__module__
        if name in modules or _outside(name):
            continue
        modules.append(name)
    for name in modules:
        source = _source(sys.modules.get(name))
        digest.update(f"\0{name}\0".encode())
        digest.update(source)
    return Pin(spec, digest.hexdigest(), tuple(modules))


def _outside(module: str) -> bool:
    """Not the bot's own code: the SDK, builtins, the standard library."""
    if module == SDK or module.startswith(SDK + ".") or module == "builtins":
        return True
    top = module.partition(".")[0]
    return top in sys.stdlib_module_names


def _source(module: Any) -> bytes:
    """The module's source file as bytes (empty for a module without one: built in C, or
    made at run time)."""
    try:
        path = inspect.getsourcefile(module) if module is not None else None
    except TypeError:
        path = None
    if path is None:
        return b""
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def mismatch(stored: Mapping[str, Pin], here: Mapping[str, Pin]) -> str | None:
    """Why the code here is not the code pinned (by bot id), or None when it is."""
    for bot_id, pin in sorted(stored.items()):
        mine = here.get(bot_id)
        if mine is None:
            return f"bot {pin.spec} cannot be loaded here"
        if mine.code_hash != pin.code_hash:
            files = ", ".join(pin.files) or "its class"
            return (f"bot {pin.spec} differs from the code pinned (sha256 {pin.code_hash[:12]}"
                    f" there, {mine.code_hash[:12]} here, over {files})")
    return None
