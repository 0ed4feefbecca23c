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
_BY_TYPE: dict[type, AnyGame] = {}
"""A cache of :func:`game_of`, checked against the registry on every hit."""


def register(game: AnyGame) -> AnyGame:
    """Make ``game`` known by its name; registering the same object again changes nothing."""
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"another game is already registered as {game.name!r}")
    _GAMES[game.name] = game
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


def game_of(value: object) -> AnyGame:
    """The game ``value`` is of: a deal's state, an observation or a phase (the game's
    ``value_types``); LookupError for a value of no registered game."""
    found = _BY_TYPE.get(type(value))
    if found is not None and _GAMES.get(found.name) is found:
        return found
    for candidate in _GAMES.values():
        if isinstance(value, candidate.value_types):
            _BY_TYPE[type(value)] = candidate
            return candidate
    raise LookupError(f"{type(value).__name__} is a value of no registered game")


def decision_kind_of(phase: object) -> str:
    """The decision kind made in ``phase`` (a game's phase), per its game's declaration; empty
    for a phase in which nobody decides, or of no registered game."""
    try:
        declaration = game_of(phase).declaration
    except LookupError:
        return ""
    value = getattr(phase, "value", phase)
    return next((kind for kind, at in declaration.decisions.items() if at == value), "")


class OfGame:
    """A base for a game's state class: ``state.game`` (OpenSpiel's ``get_game``), what a layer
    holding only a state asks for everything else."""

    __slots__ = ()

    @property
    def game(self) -> AnyGame:
        return game_of(self)
