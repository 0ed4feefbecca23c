"""What the arena's services decode and encode at the edge (:mod:`arena.transport.convert`).

Each decoder inverts its encoder; the messages the trio side used to build by hand (the
notices of a connection) come out of convert byte for byte as before; the admin service's
requests and replies carry the same fields as the values they stand for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import pytest

from arena.games import WireAction
from arena.games.french_tarot import (
    PASS,
    Action,
    Bid,
    CallCard,
    ChelemChoice,
    Contract,
    DealRecord,
    DeclarePoignee,
    Discard,
    GameState,
    HideTrump,
    Play,
    PoigneeLevel,
    TableOptions,
    seeded_deal,
)
from arena.games.french_tarot.cards import cards_of
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import InfractionKind, Malformed, TimeControl
from arena.transport import convert
from arena.transport.connections import BotConnection, Outbox
from tests.table.fakes import FakeSeat, make_runner, never, player

ACTIONS = [PASS, Bid(Contract.GARDE), CallCard(27), Discard(3), ChelemChoice(True),
           DeclarePoignee(PoigneeLevel.DOUBLE), HideTrump(60), Play(77)]


def test_a_hello_decodes_as_sent() -> None:
    message = convert.hello_to_pb("tka_x", "alpha", "2.1", 12, batching=False).hello
    assert convert.hello_from_pb(message) == convert.Hello("tka_x", "alpha", "2.1", 1, 12, False)
    message = convert.hello_to_pb("t", "b", "", 1, games=["toy", "french-tarot"]).hello
    assert convert.hello_from_pb(message) == convert.Hello(
        "t", "b", "", convert.PROTOCOL_VERSION, 1, True, ("toy", "french-tarot")
    )
    assert convert.hello_from_pb(pb.Hello()) == convert.Hello("", "", "", 0, 0, False, ())


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_a_decision_decodes_to_its_action_in_the_tables_game(action: Action) -> None:
    message = convert.decision_to_pb("t-1", 2**40 + 3, action).decision
    decision = convert.decision_from_pb(message)
    assert (decision.table_id, decision.request_id) == ("t-1", 2**40 + 3)
    assert decision.action == convert.FRENCH_TAROT.action_to_wire(action)
    assert convert.action_from_wire(decision.action, convert.FRENCH_TAROT) == action


@pytest.mark.parametrize(("action", "reason"), [
    (pb.Action(), "the action is empty"),
    (pb.Action(play=200), "200"),
    (pb.Action(bid=99), "99"),
    (pb.Action(notation="fly away"), ""),
])
def test_an_unreadable_decision_is_malformed_not_an_error(action: pb.Action, reason: str) -> None:
    decision = convert.decision_from_pb(pb.Decision(table_id="t", request_id=5, action=action))
    assert (decision.table_id, decision.request_id) == ("t", 5)
    answer = convert.action_from_wire(decision.action, convert.FRENCH_TAROT)
    assert isinstance(answer, Malformed) and reason in answer.reason
    assert answer == convert.action_from_pb(action)  # the same reading as the SDK's


def test_an_action_the_arena_sent_reads_the_same_each_time_and_a_bad_one_always_raises() -> None:
    """The bot side keeps what it read of legal lists: a second reading must give the same
    action, the same field with another value another action, and a malformed one raise again
    (it is never kept)."""
    for action in ACTIONS:
        message = convert.action_to_pb(action)
        assert [convert.action_or_raise(message) for _ in range(2)] == [action, action]
    assert convert.action_or_raise(pb.Action(play=76)) == Play(76)
    for _ in range(2):
        with pytest.raises(ValueError, match="200"):
            convert.action_or_raise(pb.Action(play=200))
        with pytest.raises(ValueError, match="empty"):
            convert.action_or_raise(pb.Action())


def _request(legal: list[pb.Action], hand: list[int]) -> pb.DecisionRequest:
    return pb.DecisionRequest(table_id="t", request_id=9, kind=pb.DECIDE_PLAY,
                              legal_actions=legal, time_limit_ms=1500, hand=hand, seat=2)


def test_a_request_reads_its_legal_list_and_hand_as_field_by_field() -> None:
    """The SDK reads a request's legal actions and hand from its bytes (pb_forms.request_parts):
    the same values as field by field, for every action, twice (the second from what the
    first kept), and a malformed action raises each time."""
    hand = [0, 5, 21, 77]
    for _ in range(2):
        request = convert.request_from_pb(
            _request([convert.action_to_pb(a) for a in ACTIONS], hand))
        assert request.legal_actions == tuple(ACTIONS) and request.hand == tuple(hand)
        assert (request.seat, request.player, request.kind, request.time_limit) == (
            2, 2, "play", 1.5)
        with pytest.raises(ValueError, match="200"):
            convert.request_from_pb(_request([pb.Action(play=200)], hand))


def test_a_request_carries_the_arenas_time_for_the_previous_answer_to_the_microsecond() -> None:
    message = _request([], [1])
    first = convert.request_from_pb(message)
    assert (first.previous_request_id, first.previous_elapsed) == (0, 0.0)  # none: absent
    message.previous_request_id, message.previous_elapsed_us = 2**52 + 1, 87_654
    read = convert.request_from_pb(message)
    assert (read.previous_request_id, read.previous_elapsed) == (2**52 + 1, 0.087654)
    again = convert.request_to_pb(read).request
    assert (again.previous_request_id, again.previous_elapsed_us) == (2**52 + 1, 87_654)
    longest = replace(read, previous_elapsed=5000.0)  # no tournament allows it
    assert convert.request_to_pb(longest).request.previous_elapsed_us == 2**32 - 1


def test_a_hand_the_bytes_cannot_hold_reads_field_by_field() -> None:
    """A card number of two bytes as a varint, and a hand sent unpacked (which a parser must
    accept), read as the hand itself."""
    assert convert.request_from_pb(_request([], [3, 130, 7])).hand == (3, 130, 7)
    packed = _request([], [1, 2]).SerializeToString()
    unpacked = packed.replace(b"\x3a\x02\x01\x02", b"\x38\x01\x38\x02")
    assert unpacked != packed
    assert convert.request_from_pb(pb.DecisionRequest.FromString(unpacked)).hand == (1, 2)
    # A packed hand in two parts: only all of its parts make the hand.
    split = packed.replace(b"\x3a\x02\x01\x02", b"\x3a\x01\x01\x3a\x01\x02")
    assert split != packed
    assert convert.request_from_pb(pb.DecisionRequest.FromString(split)).hand == (1, 2)


def test_a_welcome_round_trips() -> None:
    welcome = convert.Welcome("bot_1", 2, 16, 65536, True, ("french-tarot", "toy"))
    message = convert.welcome_to_pb(welcome)
    assert message.WhichOneof("kind") == "welcome"
    assert convert.welcome_from_pb(message.welcome) == welcome
    assert convert.arena_message_from_pb(message) == welcome


async def test_a_connections_notices_are_the_messages_they_always_were() -> None:
    """A message that answers nothing, and answers to requests unknown or settled: the same
    bytes as the ones built by hand before convert built them."""
    outbox = Outbox(lambda: None)
    connection = BotConnection("bot_1", "alpha", "1", 4, outbox)
    connection.on_stray_message()
    connection.remember_settled(("t", 7), 2)
    for request_id in (7, 8):
        connection.on_decision(convert.Decision("t" * 300 if request_id == 8 else "t",
                                                request_id, WireAction("pass")))
    stray, late, unknown = outbox.take()
    assert stray == pb.ArenaMessage(notice=pb.Notice(
        kind=pb.UNKNOWN_REQUEST,
        message="only Decision and DecisionBatch messages may follow the Hello",
    )).SerializeToString()
    assert late == pb.ArenaMessage(notice=pb.Notice(
        table_id="t", request_id=7, kind=pb.LATE_ANSWER, seat=2,
        message="request 7 of table 't' was already settled: answer dropped",
    )).SerializeToString()
    decoded = pb.ArenaMessage.FromString(unknown).notice
    assert (decoded.table_id, decoded.request_id, decoded.kind) == ("t" * 200, 8,
                                                                    pb.UNKNOWN_REQUEST)
    assert not decoded.HasField("seat") and not decoded.HasField("fallback")
    assert unknown == pb.ArenaMessage(notice=pb.Notice(
        table_id="t" * 200, request_id=8, kind=pb.UNKNOWN_REQUEST,
        message=f"no open request 8 of table {'t' * 300!r} on this connection: answer dropped",
    )).SerializeToString()


# ------------------------------------------------------------------------ admin service

@dataclass(frozen=True)
class Bot:
    id: str = "bot_1"
    name: str = "alpha"
    owner: str = "ann"
    revoked: bool = True
    created_at: str = "2026-01-02T03:04:05+00:00"


def test_bots_and_connections_are_listed_field_by_field() -> None:
    listed = convert.bots_to_pb([Bot()], {"bot_1": 3, "bot_2": 1})
    assert [(b.bot_id, b.name, b.owner, b.revoked, b.created_at, b.connections)
            for b in listed.bots] == [("bot_1", "alpha", "ann", True,
                                       "2026-01-02T03:04:05+00:00", 3)]
    assert convert.bots_to_pb([Bot()], {}).bots[0].connections == 0
    summary = convert.ConnectionSummary("bot_1", "alpha", "2.0", 8, 3)
    (info,) = convert.connections_to_pb([summary]).connections
    assert (info.bot_id, info.bot_name, info.bot_version, info.max_tables, info.tables) == (
        "bot_1", "alpha", "2.0", 8, 3
    )
    assert convert.registered_to_pb(Bot(), "tka_t") == pb.RegisterBotResponse(
        bot_id="bot_1", token="tka_t"
    )
    assert convert.revoked_to_pb(False) == pb.RevokeBotResponse(revoked=False)


def test_a_play_table_request_becomes_a_table_order() -> None:
    request = pb.PlayTableRequest(
        options=pb.TableOptions(players=3, beginner=True), seed=9, dealer=2,
        bot_ids=["a", "b", "c"], time_control=pb.TimeControl(per_decision_ms=250,
                                                             time_bank_ms=1500),
        table_id="mine",
    )
    order = convert.table_order_from_pb(request)
    assert (order.table_id, order.bot_ids, order.time_control) == (
        "mine", ("a", "b", "c"), TimeControl(0.25, 1.5)
    )
    assert isinstance(order.state, GameState) and order.state.game is convert.FRENCH_TAROT
    assert (order.state.deal, order.state.options) == (seeded_deal(9, 3, 2),
                                                       TableOptions(3, beginner=True))
    request.ClearField("table_id")
    request.ClearField("time_control")
    first, second = (convert.table_order_from_pb(request) for _ in range(2))
    assert re.fullmatch(r"table_[0-9a-f]{12}", first.table_id) and first.table_id != (
        second.table_id
    )
    assert first.time_control == TimeControl(1.0, 0.0)  # the protocol's defaults


@pytest.mark.parametrize(("request_", "error"), [
    (pb.PlayTableRequest(options=pb.TableOptions(players=4), bot_ids=["a"] * 3),
     "3 bot ids for a 4-player table"),
    (pb.PlayTableRequest(options=pb.TableOptions(players=6), bot_ids=["a"] * 6), "player"),
    (pb.PlayTableRequest(options=pb.TableOptions(players=3), dealer=3, bot_ids=["a"] * 3),
     "dealer"),
    (pb.PlayTableRequest(options=pb.TableOptions(players=3, game="chess"), bot_ids=["a"] * 3),
     "unknown game 'chess'"),
])
def test_a_bad_play_table_request_says_what_is_wrong(
    request_: pb.PlayTableRequest, error: str
) -> None:
    with pytest.raises(ValueError, match=error):
        convert.table_order_from_pb(request_)


async def test_a_played_table_is_its_revealed_end_and_its_infractions(
    autojump_clock: object,
) -> None:
    seats = [FakeSeat(never), FakeSeat(player()), FakeSeat(player())]
    outcome = await make_runner(seats, seed=4, time_control=TimeControl(0.5)).run()
    response = convert.played_to_pb(outcome)
    assert response.table_id == outcome.table_id == response.end.table_id
    assert response.end.seat == 0
    assert DealRecord.loads(response.end.record_json) == outcome.record
    assert [list(h.cards) for h in response.end.hands] == [
        list(hand) for hand in outcome.state.deal.hands
    ]
    assert list(response.end.chien) == list(outcome.state.deal.chien)
    assert list(response.end.discard) == list(cards_of(outcome.state.discard))
    assert [(i.seat, pb.InfractionKind.Name(i.kind), i.message, i.decision_index)
            for i in response.infractions] == [
        (i.seat, i.kind.name, i.message, i.decision_index) for i in outcome.infractions
    ]
    assert {i.kind for i in outcome.infractions} == {InfractionKind.TIMEOUT}  # seat 0
