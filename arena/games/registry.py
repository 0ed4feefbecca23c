"""Which games the arena knows, by name and by the class of their states.

Kept apart from the games so that a game's state can say which game it is a deal of
(:class:`OfGame`) without importing the game's definition back: the definition registers
itself, the state asks the registry.
"""

from __future__ import annotations

from typing import Final

from .base import AnyGame

DEFAULT_GAME: Final = "french-tarot"

_GAMES: dict[str, AnyGame] = {}
_BY_STATE: dict[type, AnyGame] = {}


def register(game: AnyGame) -> AnyGame:
    """Make ``game`` known by its name; registering the same object again changes nothing."""
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"another game is already registered as {game.name!r}")
    _GAMES[game.name] = game
    _BY_STATE[game.state_type] = game
    return game


def game(name: str | None = None) -> AnyGame:
    """The game called ``name`` (default: French Tarot); ValueError lists the known ones."""
    try:
        return _GAMES[name or DEFAULT_GAME]
    except KeyError:
        raise ValueError(
            f"unknown game {name!r}: this arena plays {', '.join(names())}"
        ) from None


def names() -> tuple[str, ...]:
    return tuple(_GAMES)


def game_of(state: object) -> AnyGame:
    """The game ``state`` is a deal of; LookupError for a state of no registered game."""
    found = _BY_STATE.get(type(state))
    if found is None:
        for kind, candidate in _BY_STATE.items():
            if isinstance(state, kind):
                return candidate
        raise LookupError(f"{type(state).__name__} is the state of no registered game")
    return found


class OfGame:
    """A base for a game's state class: ``state.game`` (OpenSpiel's ``get_game``), what a layer
    holding only a state asks for everything else."""

    __slots__ = ()

    @property
    def game(self) -> AnyGame:
        return game_of(self)
