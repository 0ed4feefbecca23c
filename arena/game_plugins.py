"""Games from outside the arena's own package (a user's game, the tests' toy game), made known
to :func:`arena.games.game` by every entry point before it reads a game's name.

Two sources, both read by :func:`load`: installed packages that declare an entry point in the
group ``tarot_arena.games`` (the object it names is a :class:`arena.games.base.Game`), and the
environment variable ``TAROT_ARENA_GAMES``, a comma-separated list of ``module:attribute`` for
games that are not installed (the module must be importable from the current folder). Kept out
of :mod:`arena.games`, which is pure and imports nothing it is not given.
"""

from __future__ import annotations

import importlib
import os
import sys
from importlib.metadata import entry_points

from arena import games
from arena.games.base import Game

ENV: str = "TAROT_ARENA_GAMES"
GROUP: str = "tarot_arena.games"


class GamePluginError(ValueError):
    """A game named by ``TAROT_ARENA_GAMES`` or an entry point could not be loaded."""


def load(spec: str | None = None) -> list[str]:
    """Register every game the environment (or ``spec``) and installed packages name; the
    names of the games registered. Raises :class:`GamePluginError` saying which one failed."""
    loaded = []
    for point in entry_points(group=GROUP):
        loaded.append(_register(point.value, lambda point=point: point.load()))
    text = os.environ.get(ENV, "") if spec is None else spec
    for item in filter(None, (part.strip() for part in text.split(","))):
        loaded.append(_register(item, lambda item=item: _import(item)))
    return loaded


def _import(item: str) -> object:
    module_name, _, attribute = item.partition(":")
    if not module_name or not attribute:
        raise GamePluginError(
            f"{ENV}: {item!r} is not module:attribute (e.g. mygame.rules:MY_GAME)"
        )
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: the current folder's modules
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise GamePluginError(f"{ENV}: cannot import {module_name!r}: {exc}") from None
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise GamePluginError(f"{ENV}: {module_name!r} has no {attribute!r}") from None


def _register(where: str, get: object) -> str:
    try:
        game = get()  # type: ignore[operator]
    except GamePluginError:
        raise
    except Exception as exc:  # an entry point's import failed: say which
        raise GamePluginError(f"game {where!r} could not be loaded: {exc}") from None
    if not isinstance(game, Game):
        raise GamePluginError(f"{where!r} is not a game (see arena.games.base.Game)")
    try:
        games.register(game)
    except ValueError as exc:
        raise GamePluginError(f"{where!r}: {exc}") from None
    return game.name
