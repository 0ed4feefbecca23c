"""The games of the arena, one package each, the interface they share (:mod:`.base`) and the
kit they are built with (:mod:`.kit`, with :mod:`.tarot_pack`, :mod:`.tricks`, :mod:`.records`).

``game(name)`` is how every layer above finds a game: the table runner, the protocol, storage,
tournaments and the bot SDK hold a :class:`~arena.games.base.Game` and nothing game-specific.
``register`` adds a game that lives outside this package (the tests' toy game, a user's own).
"""

from __future__ import annotations

from .base import AnyGame, Declaration, Game, IllegalActionError, State, WireAction, WrongTurnError
from .registry import _GAMES as _GAMES  # the tests register a game for one test
from .registry import DEFAULT_GAME, decision_kind_of, game, game_of, names, register


def _register_bundled() -> None:
    from .french_tarot.definition import FRENCH_TAROT
    from .tre_e_venticinque.definition import TRE_E_VENTICINQUE

    register(FRENCH_TAROT)
    register(TRE_E_VENTICINQUE)


_register_bundled()

__all__ = [
    "DEFAULT_GAME",
    "AnyGame",
    "Declaration",
    "Game",
    "IllegalActionError",
    "State",
    "WireAction",
    "WrongTurnError",
    "decision_kind_of",
    "game",
    "game_of",
    "names",
    "register",
]
