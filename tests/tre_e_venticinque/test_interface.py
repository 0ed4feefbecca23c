"""Tre e Venticinque behind the arena's game interface (arena.games.base.Game)."""

from __future__ import annotations

import pytest

from arena.games.base import WIRE_KINDS, Game, IllegalActionError, State, WireAction
from arena.games.tre_e_venticinque import (
    DISCARDS,
    PLAYS,
    TRE_E_VENTICINQUE,
    DealState,
    Phase,
    RecordError,
    ReplayError,
    legal_actions,
)

GAME = TRE_E_VENTICINQUE


def test_it_is_a_game_of_the_arena_and_its_deals_are_states() -> None:
    assert isinstance(GAME, Game)
    assert GAME.name == "tre-e-venticinque" and GAME.title == "Tre e Venticinque"
    assert GAME.deck_size == 78
    assert GAME.seat_counts() == (3,)
    state = GAME.new_deal(7, GAME.options(3), dealer=2)
    assert isinstance(state, State)
    assert state.players == 3 and state.dealer == 2 and state.to_act == 2
    assert not state.is_over


def test_another_player_count_or_a_setting_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="exactly 3 players, not 4"):
        GAME.options(4)
    with pytest.raises(ValueError, match="unknown settings beginner: Tre e Venticinque has no"):
        GAME.options(3, {"beginner": True})
    with pytest.raises(ValueError, match="exactly 3 players, not 5"):
        GAME.options_from_json({"players": 5})
    with pytest.raises(ValueError, match="must be an integer"):
        GAME.options_from_json({"players": "3"})


def test_options_round_trip_through_json() -> None:
    options = GAME.options(3)
    assert GAME.options_to_json(options) == {"players": 3}
    assert GAME.options_from_json(GAME.options_to_json(options)) == options
    assert GAME.players_of(options) == 3


def test_the_decisions_are_discard_then_play_and_the_fallback_is_the_lowest_legal_card() -> None:
    state = GAME.new_deal(3, GAME.options(3))
    assert GAME.decision_kind(state) == "discard"
    assert GAME.fallback_action(state) == GAME.legal_actions(state)[0]
    for _ in range(3):
        GAME.apply(state, GAME.fallback_action(state))
    assert GAME.decision_kind(state) == "play"
    fallback = GAME.fallback_action(state)
    assert fallback.card == min(a.card for a in legal_actions(state))
    while not state.is_over:
        GAME.apply(state, GAME.fallback_action(state))
    result = GAME.result(state)
    assert result is not None and sum(result.scores) == 0 and sum(result.points) == 233
    sealed = GAME.sealed_result(result)
    assert sealed == GAME.bare_result("played", result.scores)
    assert sealed.scores == result.scores and sealed.points == result.points
    assert sealed.dealer is None and sealed.tricks_won == ()
    with pytest.raises(ValueError, match="nobody decides"):
        GAME.decision_kind(state)
    with pytest.raises(ValueError, match="no action to fall back on"):
        GAME.fallback_action(state)


def test_every_action_has_a_neutral_wire_form_and_a_text_form() -> None:
    for action in (*DISCARDS, *PLAYS):
        wire = GAME.action_to_wire(action)
        assert wire.kind in WIRE_KINDS
        assert wire.kind == ("play" if action in PLAYS else "discard")
        assert wire.argument == action.card
        assert GAME.action_from_wire(wire) is action
        text = GAME.format_action(action)
        assert GAME.parse_action(text) is action
        assert GAME.action_from_wire(WireAction("notation", text=text)) is action


@pytest.mark.parametrize(
    ("wire", "message"),
    [
        (WireAction("bid", 2), "no 'bid' action: expected discard, play or notation"),
        (WireAction("shuffle", 2), "no 'shuffle' action: expected one of pass"),
        (WireAction("play", 78), "play 78: a card id is 0..77"),
        (WireAction("notation", text="play EX"), "unknown card 'EX'"),
    ],
)
def test_a_wire_action_that_stands_for_nothing_is_refused(wire: WireAction, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.action_from_wire(wire)


def test_illegal_actions_are_explained() -> None:
    state = GAME.new_deal(3, GAME.options(3))
    king = next(c for c in GAME.hand(state, 0) if c < 56 and c % 14 == 13)
    assert GAME.explain_illegal(state, DISCARDS[king]) == "a King may never be discarded"
    with pytest.raises(IllegalActionError, match="a King may never be discarded"):
        GAME.apply(state, DISCARDS[king])


def test_cards_are_named_and_parsed() -> None:
    assert [GAME.card_name(c) for c in (0, 13, 56, 75, 77)] == ["AS", "KS", "T1", "T20", "M"]
    assert GAME.parse_card("m") == 77


def test_records_and_replays_through_the_interface() -> None:
    state = GAME.new_deal(21, GAME.options(3), dealer=1)
    while not state.is_over:
        GAME.apply(state, GAME.legal_actions(state)[-1])
    data = GAME.record(state, seed=21).to_json()
    assert data["format"] == GAME.record_format
    again = GAME.replay(GAME.load_record(data))
    assert isinstance(again, DealState) and again.phase is Phase.FINISHED
    assert GAME.result(again) == GAME.result(state)
    with pytest.raises(RecordError):
        GAME.load_record({"format": "nope"})
    data["seed"] = 22
    with pytest.raises(ReplayError):
        GAME.replay(GAME.load_record(data))


def test_observations_through_the_interface() -> None:
    state = GAME.new_deal(5, GAME.options(3))
    view = GAME.observe(state, 1)
    mark = GAME.event_mark(state)
    action = GAME.legal_actions(state)[0]
    GAME.apply(state, action)
    for recipient, event in GAME.events_after(state, 0, action, mark):
        if recipient is None or recipient == 1:
            view = GAME.observation_after(view, event)
    assert view == GAME.sealed_observation(state, 1)
