"""The limits and counts the protocol states, on a real arena: max_tables range, message size,
several connections with one token, one request per discarded card, the names shown."""

from __future__ import annotations

import grpc
import pytest
import trio

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.transport.server import MAX_MESSAGE_BYTES
from tournaments.cli.export import bot_names
from tournaments.store import TournamentStore

from .conftest import Arena
from .raw import RawBot, decision, first_legal


@pytest.mark.parametrize(("max_tables", "accepted"), [(0, False), (1, True), (1024, True),
                                                      (1025, False)])
async def test_max_tables_is_1_to_1024(arena: Arena, max_tables: int, accepted: bool) -> None:
    _, token = arena.register("bot")
    bot = RawBot(arena.target, token, tables=0, max_tables=max_tables)
    # tables=0: it half-closes at its first TableEnd; with none coming, close it by hand.
    done = arena.start(bot)
    with trio.fail_after(5):
        while not bot.received and not done.is_set():
            await trio.sleep(0.01)
    if accepted:
        (welcome,) = bot.messages("welcome")
        assert welcome.welcome.max_tables == max_tables
        assert welcome.welcome.max_message_bytes == MAX_MESSAGE_BYTES == 65536
    else:
        with trio.fail_after(5):
            await done.wait()
        assert bot.status == grpc.StatusCode.INVALID_ARGUMENT
        assert not bot.messages()


async def test_a_message_over_max_message_bytes_ends_the_stream(arena: Arena) -> None:
    def huge(bot: RawBot, request: pb.DecisionRequest) -> list[pb.BotMessage]:
        return [decision(request, pb.Action(notation="x" * (MAX_MESSAGE_BYTES + 1)))]

    bot_ids, bots = arena.start_bots(
        [f"bot{i}" for i in range(3)],
        [huge if i == 0 else first_legal for i in range(3)],
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(arena.play, "huge", bot_ids, 0)
        with trio.fail_after(10):
            while bots[0].status is None:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert bots[0].status == grpc.StatusCode.RESOURCE_EXHAUSTED


async def test_one_token_may_hold_several_connections_and_seats_spread_over_them(
    arena: Arena
) -> None:
    """Two connections of one bot, two tables each: the bot holding two seats of one table
    gets both on the connection heard from last (here: the one that said Hello last), the
    second seat joining the first at its table."""
    twin, token = arena.register("twin")
    first = RawBot(arena.target, token, first_legal, tables=99, max_tables=2)
    second = RawBot(arena.target, token, first_legal, tables=99, max_tables=2)
    arena.start(first)
    with trio.fail_after(5):
        while not first.messages("welcome"):
            await trio.sleep(0.01)
    arena.start(second)
    others = []
    for i in range(2):
        bot_id, other_token = arena.register(f"other{i}")
        others.append(bot_id)
        arena.start(RawBot(arena.target, other_token, first_legal, tables=99))
    with trio.fail_after(5):
        while arena.server.connected_bots().get(twin) != 2 or len(
                arena.server.connected_bots()) != 3:
            await trio.sleep(0.01)
    outcome = await arena.play("shared", [twin, twin, *others], 3)
    assert outcome.infractions == []
    seats = [{m.table_start.seat for m in bot.messages("table_start")} for bot in (first, second)]
    assert seats == [set(), {0, 1}]


async def test_a_discard_is_asked_one_card_at_a_time(arena: Arena) -> None:
    def garde_at_seat_1(bot: RawBot, request: pb.DecisionRequest) -> list[pb.BotMessage]:
        if request.kind == pb.DECIDE_BID:
            garde = [a for a in request.legal_actions
                     if a.WhichOneof("kind") == "bid" and a.bid == pb.GARDE]
            if request.seat == 1 and garde:
                return [decision(request, garde[0])]
            return [decision(request, request.legal_actions[0])]  # pass
        return first_legal(bot, request)

    bot_ids, bots = arena.start_bots(
        [f"bot{i}" for i in range(4)],
        [garde_at_seat_1] * 4,
    )
    outcome = await arena.play("discard", bot_ids, seed=4)  # dealer 0: seat 1 bids first
    assert outcome.infractions == []
    await trio.sleep(0.2)
    discards = [m.request for m in bots[1].messages("request")
                if m.request.kind == pb.DECIDE_DISCARD]
    assert len(discards) == 6  # the chien's size at 4 players
    sizes = [len(r.legal_actions) for r in discards]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 6  # one card less each
    assert all(a.WhichOneof("kind") == "discard" for r in discards for a in r.legal_actions)


async def test_players_see_hello_names_and_standings_show_registered_names(
    arena: Arena
) -> None:
    bot_ids, bots = arena.start_bots(
        [f"registered{i}" for i in range(3)],
        [first_legal] * 3,  # Hello.bot_name: "raw"
    )
    await arena.play("names", bot_ids, 2)
    (start,) = [m.table_start for m in bots[0].messages("table_start")]
    assert [(p.seat, p.bot_id, p.bot_name) for p in start.players] == [
        (i, b, "raw") for i, b in enumerate(bot_ids)]
    store = TournamentStore(arena.registry.engine)
    assert bot_names(store, bot_ids) == {b: f"registered{i}" for i, b in enumerate(bot_ids)}
