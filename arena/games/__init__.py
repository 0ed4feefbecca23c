"""The games of the arena, one package each, and the interface they share (:mod:`.base`).

``game(name)`` is how every layer above finds a game: the table runner, the protocol, storage,
tournaments and the bot SDK hold a :class:`~arena.games.base.Game` and nothing game-specific.
``register`` adds a game that lives outside this package (the tests' toy game, a user's own).
"""

from __future__ import annotations

from .base import Game, IllegalActionError, State, WireAction, WrongTurnError

DEFAULT_GAME = "french-tarot"

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` known by its name; registering the same object again changes nothing."""
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"another game is already registered as {game.name!r}")
    _GAMES[game.name] = game
    return game


def game(name: str | None = None) -> Game:
    """The game called ``name`` (default: French Tarot); ValueError lists the known ones."""
    try:
        return _GAMES[name or DEFAULT_GAME]
    except KeyError:
        raise ValueError(
            f"unknown game {name!r}: this arena plays {', '.join(names())}"
        ) from None


def names() -> tuple[str, ...]:
    return tuple(_GAMES)


def _register_bundled() -> None:
    from .french_tarot.definition import FRENCH_TAROT
    from .tre_e_venticinque import TRE_E_VENTICINQUE

    register(FRENCH_TAROT)
    register(TRE_E_VENTICINQUE)


_register_bundled()

__all__ = [
    "DEFAULT_GAME",
    "Game",
    "IllegalActionError",
    "State",
    "WireAction",
    "WrongTurnError",
    "game",
    "names",
    "register",
]
