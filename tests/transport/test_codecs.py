"""One codec per game, chosen by protocol version: French Tarot's typed messages in versions 1
and 2, the generic form for every other game; and the generic form carries every game, French
Tarot included, view and events alike, through the bytes and back."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from arena import games
from arena.games import Game
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.transport.codec_french_tarot import FrenchTarotCodec
from arena.transport.codec_generic import GenericCodec
from arena.transport.codecs import codec_for, is_typed
from tests.toy_game.game import TOY_GAME

GAMES = [games.game(name) for name in games.names()] + [TOY_GAME]


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(games._GAMES, TOY_GAME.name, TOY_GAME)
    yield


def test_the_codec_is_chosen_by_game_and_version() -> None:
    french = games.game("french-tarot")
    assert isinstance(codec_for(french, 1), FrenchTarotCodec)
    assert isinstance(codec_for(french, 2), FrenchTarotCodec)
    assert isinstance(codec_for(french, 3), GenericCodec)  # a later version: the generic form
    for game in GAMES[1:]:
        assert not is_typed(game, 1) and not is_typed(game, 2)
        assert isinstance(codec_for(game), GenericCodec)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_generic_form_carries_every_game(game: Game) -> None:
    codec = GenericCodec(game)
    rng = random.Random(game.name)
    for players in game.seat_counts():
        options = game.options(players)
        message = pb.TableOptions.FromString(codec.options_to_pb(options).SerializeToString())
        assert message.game == game.name and codec.options_from_pb(message) == options
        state = game.new_deal(rng.randrange(2**64), options, game.dealer_of(options, 0))
        while state.to_act is not None:
            for seat in range(state.players):
                view = game.observe(state, seat)
                sent = pb.SeatView.FromString(codec.view_to_pb(view).SerializeToString())
                assert codec.view_from_pb(sent, seat, options, state.dealer) == view
            for _, event in game.apply(state, rng.choice(game.legal_actions(state))):
                out = pb.TableEvent()
                codec.fill_event(out, event)
                assert codec.event_from_pb(pb.TableEvent.FromString(out.SerializeToString())) \
                    == event


def test_a_generic_codec_refuses_a_typed_event() -> None:
    tre = games.game("tre-e-venticinque")
    with pytest.raises(ValueError, match="Tre e Venticinque has no event 'card_played'"):
        GenericCodec(tre).event_from_pb(pb.TableEvent(card_played=pb.SeatAction(seat=1)))
