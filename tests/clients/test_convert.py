"""The decoders the SDK needs in arena.transport.convert: each one inverts its encoder."""

from __future__ import annotations

import dataclasses

import pytest

from arena.games.french_tarot import (
    PASS,
    DealRecord,
    DeclarePoignee,
    DummyShown,
    GameState,
    HideTrump,
    Phase,
    Play,
    PoigneeLevel,
    TableOptions,
    apply,
    event_mark,
    legal_actions,
    observe,
    parse_action,
    seeded_deal,
    trump,
)
from arena.games.french_tarot.cards import cards_of
from arena.games.french_tarot.events import TrickWon, events_after
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import DecisionRequest, InfractionKind, Notice, TableEnd, TableEvent
from arena.table.messages import Malformed
from arena.transport import convert
from tests.french_tarot.builders import make_deal


def finished_state(seed: int = 5) -> GameState:
    state = GameState(seeded_deal(seed, 4, 1), TableOptions(4))
    while state.to_act is not None:
        apply(state, legal_actions(state)[-1], state.to_act)
    return state


def test_table_end_round_trip() -> None:
    state = finished_state()
    assert state.result is not None
    end = TableEnd("t9", 2, state.result, state.game.revealed(state), DealRecord.of(state))
    decoded = convert.arena_message_from_pb(convert.end_to_pb(end))
    assert decoded == end


def test_table_end_without_a_usable_record_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="t9"):
        convert.end_from_pb(pb.TableEnd(table_id="t9", record_json="{}"))


def test_notice_round_trip_with_and_without_fallback() -> None:
    for fallback in (Play(3), None):
        notice = Notice("t1", 1, 42, InfractionKind.TIMEOUT, "too slow", fallback)
        assert convert.arena_message_from_pb(convert.notice_to_pb(notice)) == notice
    with pytest.raises(ValueError, match="infraction"):
        convert.notice_from_pb(pb.Notice(kind=pb.INFRACTION_UNSPECIFIED))


def test_request_welcome_and_bot_messages() -> None:
    request = DecisionRequest("t1", 3, 7, Phase.BIDDING, (PASS,), 1.0, 0.5, (1, 2))
    assert convert.arena_message_from_pb(convert.request_to_pb(request)) == request
    welcome = pb.ArenaMessage(welcome=pb.Welcome(bot_id="bot_x", protocol_version=1,
                                                 max_tables=4, max_message_bytes=65536))
    assert convert.arena_message_from_pb(welcome) == convert.Welcome("bot_x", 1, 4, 65536)
    hello = convert.hello_to_pb("tok", "name", "1.0", 4).hello
    assert (hello.token, hello.bot_name, hello.bot_version, hello.protocol_version,
            hello.max_tables, hello.batching) == ("tok", "name", "1.0", 1, 4, True)
    batch = pb.ArenaMessage(batch=pb.MessageBatch(messages=[welcome, welcome]))
    assert convert.unbatch(batch) == [welcome, welcome] and convert.unbatch(welcome) == [welcome]
    decision = convert.decision_to_pb("t1", 7, Play(77)).decision
    assert (decision.table_id, decision.request_id, decision.action.play) == ("t1", 7, 77)
    with pytest.raises(ValueError, match="kind"):
        convert.arena_message_from_pb(pb.ArenaMessage())


def test_every_event_of_a_deal_round_trips_with_its_trick_number() -> None:
    """Decoded events equal the arena's own, so a bot's ``on_event`` sees each TrickWon with
    its number in the deal (it once came as -1: the number was not on the wire)."""
    state = GameState(seeded_deal(11, 5, 0), TableOptions(5))
    won = []
    while state.to_act is not None:
        seat, action, tricks_before = state.to_act, legal_actions(state)[-1], len(state.tricks)
        apply(state, action, seat)
        for number, (_, event) in enumerate(events_after(state, seat, action, tricks_before)):
            message = TableEvent("t1", 3, number, event)
            assert convert.arena_message_from_pb(convert.event_to_pb(message)) == message
            if isinstance(event, TrickWon):
                won.append(event.index)
    assert won == list(range(len(state.tricks))) and len(won) > 10


def test_a_poignee_choice_crosses_the_protocol() -> None:
    """``hide`` (a trump kept out of the poignée) and DECIDE_POIGNEE, both ways; the text
    spelling too; a card that does not exist is malformed, not an exception."""
    hides = tuple(HideTrump(trump(n)) for n in (21, 12, 1))
    for action in (*hides, DeclarePoignee(PoigneeLevel.SIMPLE)):
        message = convert.action_to_pb(action)
        assert convert.action_from_pb(message) == action
        assert convert.action_from_pb(pb.Action(notation=str(action))) == action
    assert convert.action_to_pb(HideTrump(trump(1))).hide == trump(1)
    assert convert.action_from_pb(pb.Action(notation="hide T1")) == HideTrump(trump(1))
    bad = convert.action_from_pb(pb.Action(hide=78))
    assert isinstance(bad, Malformed) and "card 78 does not exist" in bad.reason
    request = DecisionRequest("t1", 1, 8, Phase.POIGNEE, hides, 1.0, 0.0, (trump(1), trump(12)))
    encoded = convert.request_to_pb(request)
    assert encoded.request.kind == pb.DECIDE_POIGNEE
    assert [a.hide for a in encoded.request.legal_actions] == [trump(21), trump(12), trump(1)]
    assert convert.arena_message_from_pb(encoded) == request


def test_the_seat_choosing_its_poignee_is_told_the_play_phase_in_its_seat_view() -> None:
    state = GameState(
        make_deal(4, 0, {1: " ".join(f"T{n}" for n in range(1, 13))}), TableOptions(4)
    )
    for action in ("pass", "bid garde-sans", "pass", "pass", "no-chelem", "poignee simple"):
        apply(state, parse_action(action), state.to_act)
    assert state.phase is Phase.POIGNEE and state.to_act == 1
    view = convert.view_to_pb(observe(state, 1))
    assert view.phase == pb.PLAYING
    assert convert.view_from_pb(view, 1, TableOptions(4), 0).phase is Phase.PLAYING


def test_the_dummy_crosses_the_protocol_in_views_and_as_an_event() -> None:
    """Two players: a view carries the dummy's cards once shown (none before, an empty list once
    all are played, told apart on the wire), the current trick of three hands, and the event
    that shows it; a request for the dummy's seat names the player who decides."""
    options = TableOptions(2)
    state = GameState(seeded_deal(7, 2, 1), options)
    seen_views = {"none": 0, "cards": 0, "empty": 0}
    shown = 0
    while state.to_act is not None:
        seat, player = state.to_act, state.decider
        assert player is not None
        for who in (0, 1):
            view = observe(state, who)
            decoded = convert.view_from_pb(convert.view_to_pb(view), who, options, 1)
            # (the wire cannot tell an empty discard from none: the SDK's TableView settles it)
            expected = dataclasses.replace(view, legal_actions=(), discard=view.discard or None)
            assert decoded == expected
            key = "none" if view.dummy is None else "cards" if view.dummy else "empty"
            seen_views[key] += 1
        request = DecisionRequest("t1", seat, 9, state.phase, legal_actions(state), 1.0, 0.0,
                                  tuple(cards_of(state.hands[seat])), player=player)
        assert convert.arena_message_from_pb(convert.request_to_pb(request)) == request
        action = legal_actions(state)[-1 if state.phase is Phase.BIDDING else 0]
        mark = event_mark(state)
        apply(state, action, seat)
        for number, (_, event) in enumerate(events_after(state, seat, action, mark)):
            message = TableEvent("t1", 0, number, event)
            assert convert.arena_message_from_pb(convert.event_to_pb(message)) == message
            shown += isinstance(event, DummyShown)
    assert shown == 1 and seen_views["none"] and seen_views["cards"]
    view = observe(state, 0)
    assert view.dummy == ()
    assert convert.view_to_pb(view).HasField("dummy")
    assert convert.view_from_pb(convert.view_to_pb(view), 0, options, 1).dummy == ()


def test_a_decision_encodes_each_action_as_it_did_before_it_was_kept() -> None:
    """Every action of a deal, answered twice: the same message as one built from the action
    itself, also after the first message was changed by its receiver (the kept form is
    copied into each message, never handed out)."""
    state = GameState(seeded_deal(17, 4, 0), TableOptions(4))
    seen = 0
    while state.to_act is not None:
        for action in legal_actions(state):
            expected = pb.BotMessage(decision=pb.Decision(
                table_id="t1", request_id=9, action=convert.action_to_pb(action)))
            first = convert.decision_to_pb("t1", 9, action)
            assert first == expected
            first.decision.action.Clear()
            first.decision.action.notation = "play 21"
            assert convert.decision_to_pb("t1", 9, action) == expected
            seen += 1
        apply(state, legal_actions(state)[-1], state.to_act)
    assert seen > 100


def test_a_legal_list_reads_as_each_action_alone_and_a_malformed_one_is_refused() -> None:
    state = GameState(seeded_deal(18, 4, 0), TableOptions(4))
    while state.to_act is not None:
        request = convert.request_to_pb(DecisionRequest(
            "t1", state.to_act, 1, state.phase, tuple(legal_actions(state)), 1.0, 0.0, ()))
        listed = request.request.legal_actions
        assert convert.pb_forms.actions_or_raise(listed, convert.DEFAULT_GAME) == tuple(
            convert.action_or_raise(action) for action in listed) == tuple(legal_actions(state))
        apply(state, legal_actions(state)[-1], state.to_act)
    with pytest.raises(ValueError, match="card"):
        convert.pb_forms.actions_or_raise([pb.Action(play=3), pb.Action(play=99)],
                                          convert.DEFAULT_GAME)
