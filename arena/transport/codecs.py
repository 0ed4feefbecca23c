"""One codec per game: how a game's options, views and events travel in protocol messages.

Every game has the generic codec (:mod:`.codec_generic`); a game may also have typed messages
of its own for some protocol versions, chosen here by version: French Tarot's
(:mod:`.codec_french_tarot`) for versions 1 and 2, so that bots written for them keep working
byte for byte. Every layer asks :func:`codec_for` and never tests which game it holds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol

from arena.games import Game
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

from .codec_french_tarot import FrenchTarotCodec
from .codec_generic import GenericCodec

PROTOCOL_VERSIONS: Final = (1, 2)
"""1: French Tarot only; 2: also the games a bot lists in Hello.games (see the .proto)."""
PROTOCOL_VERSION: Final = 2
"""The newest version."""


class Codec(Protocol):
    """A game's messages in one protocol version."""

    game: Game
    typed_events: Mapping[str, str]
    """Event kind -> the TableEvent field carrying it, for typed events; empty: every event
    is ``game_event``."""

    def options_to_pb(self, options: Any) -> pb.TableOptions: ...

    def options_from_pb(self, message: pb.TableOptions) -> Any:
        """ValueError for bad settings."""
        ...

    def view_to_pb(self, view: Any) -> pb.SeatView: ...

    def view_from_pb(self, message: pb.SeatView, seat: int, options: Any, dealer: int) -> Any:
        """ValueError for a malformed view."""
        ...

    def fill_event(self, out: pb.TableEvent, event: Any) -> None: ...

    def event_from_pb(self, message: pb.TableEvent) -> Any:
        """ValueError for an event this game has not."""
        ...

    def phase_to_pb(self, phase: Any) -> pb.Phase.ValueType: ...

    def outcome_to_pb(self, outcome: Any) -> pb.DealOutcome.ValueType: ...


TYPED: Final[dict[str, tuple[tuple[int, ...], Callable[[Game], Codec]]]] = {
    "french-tarot": ((1, 2), FrenchTarotCodec),
}
"""The games with typed messages of their own: the protocol versions that carry them, and
their codec. A game not here travels in the generic form in every version."""


@functools.cache
def codec_for(game: Game, version: int = PROTOCOL_VERSION) -> Codec:
    """The codec of ``game``'s messages in protocol ``version``."""
    typed = TYPED.get(game.name)
    if typed is not None and version in typed[0]:
        return typed[1](game)
    return GenericCodec(game)


def is_typed(game: Game, version: int = PROTOCOL_VERSION) -> bool:
    """Whether ``game`` travels in typed messages of its own in ``version``."""
    return not isinstance(codec_for(game, version), GenericCodec)
