"""docs/protocol-games.md is what its generator writes from the games' declarations, and the
declarations are what the arena sends: real deals of every game form (French Tarot with 2, 3,
4 and 5 players, Tre e Venticinque, the toy game), played by the table runner with every message
encoded by the arena's own encoders (:mod:`arena.transport.wire`, :mod:`~arena.transport.convert`)
and read back from the bytes, show exactly the documented event kinds and keys, view keys,
phases and decisions, and every request reaches the bot the docs say it is routed to."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import trio

from arena import games
from arena.games import Game
from arena.games.french_tarot import PASS, Bid, Contract, DealState, TableOptions
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import (
    DecisionRequest,
    Notice,
    PlayerInfo,
    TableEnd,
    TableEvent,
    TableRunner,
    TableStart,
)
from arena.table.messages import ViewFn
from arena.transport import convert, protocol_docs, wire
from arena.transport.codecs import codec_for, is_typed
from tests.french_tarot.builders import make_deal
from tests.toy_game.game import TOY_GAME

DEALS = 40


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(games._GAMES, TOY_GAME.name, TOY_GAME)
    yield


@dataclass
class Sent:
    """Everything the arena sent, as read back from the bytes."""

    events: dict[str, set[tuple[str, ...]]] = field(default_factory=lambda: defaultdict(set))
    view_keys: set[tuple[str, ...]] = field(default_factory=set)
    phases: set[str] = field(default_factory=set)
    decisions: set[str] = field(default_factory=set)
    routed: int = 0


class WireSeat:
    """A seat channel that encodes every message as the arena does, decodes the bytes as a bot
    would, and answers a random legal action read from the request's bytes."""

    def __init__(self, game: Game, seat: int, sent: Sent, rng: random.Random,
                 taker: int | None = None) -> None:
        self.game, self.seat, self.sent, self.rng = game, seat, sent, rng
        self.taker = taker
        """The seat that takes (bids Garde, the others pass), if one is imposed."""
        self.connected = True

    def _view(self, view: pb.SeatView) -> None:
        self.sent.phases.add(pb.Phase.Name(view.phase))
        if view.details_json:
            self.sent.view_keys.add(tuple(json.loads(view.details_json)))

    async def start(self, start: TableStart, view: ViewFn) -> None:
        message = pb.ArenaMessage.FromString(wire.serialize(convert.start_to_pb(start)))
        self._view(message.table_start.view)
        assert message.table_start.game.name == self.game.name

    async def send(self, event: TableEvent) -> None:
        message = pb.ArenaMessage.FromString(wire.event(event, self.game)).event
        assert message.seat == self.seat
        kind = message.WhichOneof("kind")
        if kind == "game_event":
            keys = tuple(json.loads(message.game_event.json))
            self.sent.events[message.game_event.kind].add(keys)
        else:
            self.sent.events[f"typed:{kind}"].add(())

    async def ask(self, request: DecisionRequest) -> Any:
        message = pb.ArenaMessage.FromString(wire.request(request, self.game)).request
        routed_to = message.player if message.HasField("player") else message.seat
        assert routed_to == self.seat, "the request reached the bot the docs route it to"
        self.sent.routed += message.HasField("player")
        self.sent.decisions.add(pb.DecisionKind.Name(message.kind))
        decoded = convert.request_from_pb(message, self.game)
        await trio.lowlevel.checkpoint()
        if self.taker is not None and decoded.kind == "bid":
            return Bid(Contract.GARDE) if self.seat == self.taker else PASS
        return self.rng.choice(decoded.legal_actions)

    async def notice(self, notice: Notice) -> None:
        raise AssertionError(f"no infraction expected: {notice}")

    async def end(self, end: TableEnd) -> None:
        message = pb.ArenaMessage.FromString(wire.serialize(convert.end_to_pb(end, self.game)))
        assert list(message.table_end.scores) == list(end.result.scores)


def play(game: Game, players: int, sent: Sent, seed: int) -> None:
    rng = random.Random(seed)
    options = game.options(players)

    async def main() -> None:
        for board in range(DEALS):
            state = game.new_deal(rng.randrange(2**64), options, game.dealer_of(options, board))
            await run(state, [WireSeat(game, s, sent, rng) for s in range(players)])

    trio.run(main)


async def run(state: Any, seats: list[WireSeat]) -> None:
    infos = [PlayerInfo(s, f"b{s}", f"B{s}") for s in range(len(seats))]
    await TableRunner("t", state, seats, infos).run()


def play_forced_trump_discards(sent: Sent) -> None:
    """A taker whose hand and chien hold so many trumps and Kings that it must discard trumps,
    and with trumps to hide from its poignée: what random deals almost never show."""
    trumps = " ".join(f"T{n}" for n in range(2, 19))
    deal = make_deal(4, 0, {0: "T1 T21", 1: f"{trumps} KS"}, chien="KH KD KC QS T19 T20")
    game = games.game("french-tarot")
    for number in range(20):  # seat 1 holds 17 trumps: it shows a poignée, hiding some
        rng = random.Random(number)
        trio.run(run, DealState(deal, TableOptions(4)),
                 [WireSeat(game, s, sent, rng, taker=1) for s in range(4)])



def test_the_document_is_what_the_generator_writes() -> None:
    assert protocol_docs.main(["--check"]) == 0, (
        "docs/protocol-games.md is stale: run python -m arena.transport.protocol_docs")
    text = protocol_docs.PATH.read_text(encoding="utf-8")
    assert "toy" not in protocol_docs.bundled()
    for name in protocol_docs.bundled():
        declared = games.game(name).declaration
        assert f"## {declared.title} (`{name}`)" in text
        for event in declared.events:
            assert f"| `{event.kind}` |" in text


def test_every_game_sends_what_its_declaration_says() -> None:
    for name in ("french-tarot", "tre-e-venticinque", "toy"):
        game = games.game(name)
        declared = game.declaration
        sent = Sent()
        for players in game.seat_counts():
            play(game, players, sent, seed=players)
        if name == "french-tarot":
            play_forced_trump_discards(sent)
        declared_events = {event.kind: event.keys for event in declared.events}
        if is_typed(game):
            typed = codec_for(game).typed_events
            fields = {f"typed:{field}": kind for kind, field in typed.items()}
            assert set(sent.events) <= set(fields), (name, set(sent.events) - set(fields))
            seen = {fields[kind] for kind in sent.events}
        else:
            for kind, keys in sent.events.items():
                assert kind in declared_events, (name, kind)
                assert keys == {declared_events[kind]}, (name, kind, keys)
            seen = set(sent.events)
            assert sent.view_keys == {declared.view_keys}, name
        assert seen == set(declared_events), (name, set(declared_events) - seen)
        codec = codec_for(game)
        phase_type = type(game.decision_phase(next(iter(declared.decisions))))
        documented = {pb.Phase.Name(codec.phase_to_pb(p)) for p in phase_type}
        assert sent.phases <= documented, name
        asked = {pb.DecisionKind.Name(protocol_docs._DECISIONS[k]) for k in declared.decisions}
        assert sent.decisions == asked, (name, asked - sent.decisions)
        if name == "french-tarot":
            assert sent.routed > 0, "the dummy's requests went to the defender"
