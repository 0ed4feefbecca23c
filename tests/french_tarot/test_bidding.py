"""Bidding (RULES.md 1, "Bidding"): each seat speaks once, in turn from the seat after the
dealer; only higher bids; all passing voids the deal; the beginner variant has two contracts."""

from __future__ import annotations

import pytest

from arena.games.french_tarot import (
    PASS,
    Bid,
    Contract,
    DealOutcome,
    Direction,
    GameState,
    IllegalActionError,
    Phase,
    Play,
    TableOptions,
    WrongTurnError,
    apply,
    legal_actions,
    observe,
    parse_card,
)

from .builders import act, bid_round, make_deal, new_game, snapshot

ALL_BIDS = tuple(Bid(c) for c in Contract)


def game(players: int = 4, dealer: int = 0, *, beginner: bool = False) -> GameState:
    return new_game(make_deal(players, dealer), beginner=beginner)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("dealer_offset", [0, 1, -1])
def test_each_seat_speaks_once_starting_after_the_dealer(players: int, dealer_offset: int) -> None:
    dealer = dealer_offset % players
    state = game(players, dealer)
    assert state.phase is Phase.BIDDING
    spoken = []
    while state.phase is Phase.BIDDING:
        seat = state.to_act
        assert seat is not None
        spoken.append(seat)
        apply(state, PASS, seat)
    assert spoken == [(dealer + 1 + i) % players for i in range(players)]
    assert [seat for seat, _ in state.bids] == spoken


@pytest.mark.parametrize("players", [3, 4, 5])
def test_first_bid_may_be_any_contract(players: int) -> None:
    state = game(players)
    assert legal_actions(state) == (PASS, *ALL_BIDS)


def test_only_higher_bids_are_offered() -> None:
    state = game(4)
    act(state, "bid petite")
    assert legal_actions(state) == (PASS, *ALL_BIDS[1:])
    act(state, "pass")
    assert legal_actions(state) == (PASS, *ALL_BIDS[1:])
    act(state, "bid garde-sans")
    assert legal_actions(state) == (PASS, Bid(Contract.GARDE_CONTRE))
    act(state, "bid garde-contre")
    assert state.phase is Phase.CHELEM
    assert state.taker == 0
    assert state.contract is Contract.GARDE_CONTRE


def test_after_garde_contre_only_pass_remains() -> None:
    state = game(4)
    act(state, "bid garde-contre")
    for _ in range(3):
        assert legal_actions(state) == (PASS,)
        act(state, "pass")
    assert state.taker == 1
    assert state.contract is Contract.GARDE_CONTRE


def test_highest_bidder_takes_even_if_a_later_seat_passes() -> None:
    state = game(4, dealer=2)  # seats speak 3, 0, 1, 2
    act(state, "bid petite", "bid garde", "pass", "pass")
    assert state.taker == 0
    assert state.contract is Contract.GARDE
    assert state.bids == [
        (3, Bid(Contract.PETITE)), (0, Bid(Contract.GARDE)), (1, PASS), (2, PASS),
    ]
    assert state.phase is Phase.DISCARDING
    assert state.to_act == 0


def test_a_seat_that_bid_does_not_speak_again() -> None:
    """One turn each: the first bidder, outbid, gets no second chance."""
    state = game(3)  # seats speak 1, 2, 0
    act(state, "bid petite", "bid garde", "pass")
    assert state.phase is Phase.DISCARDING
    assert state.taker == 2
    assert len(state.bids) == 3


def test_the_last_seat_may_take_after_everybody_passed() -> None:
    state = game(5, dealer=3)  # seats speak 4, 0, 1, 2, 3
    act(state, "pass", "pass", "pass", "pass", "bid petite")
    assert state.taker == 3
    assert state.phase is Phase.CALLING
    assert state.to_act == 3


@pytest.mark.parametrize("players", [3, 4, 5])
def test_all_pass_voids_the_deal(players: int) -> None:
    state = game(players)
    bid_round(state, None)
    assert state.phase is Phase.FINISHED
    assert state.is_over
    assert state.to_act is None
    assert legal_actions(state) == ()
    result = state.result
    assert result is not None
    assert result.outcome is DealOutcome.ALL_PASSED
    assert result.scores == (0,) * players
    assert result.taker is None and result.contract is None and result.summary is None
    assert state.taker is None and state.contract is None
    with pytest.raises(IllegalActionError, match="the deal is over"):
        apply(state, PASS)
    for seat in range(players):
        view = observe(state, seat)
        assert view.result == result
        assert view.legal_actions == ()
        assert view.deal == state.deal  # a void deal is revealed too


@pytest.mark.parametrize(
    ("contract", "phase"),
    [
        (Contract.PETITE, Phase.DISCARDING),
        (Contract.GARDE, Phase.DISCARDING),
        (Contract.GARDE_SANS, Phase.CHELEM),
        (Contract.GARDE_CONTRE, Phase.CHELEM),
    ],
)
@pytest.mark.parametrize("players", [3, 4])
def test_phase_after_bidding(players: int, contract: Contract, phase: Phase) -> None:
    state = game(players)
    bid_round(state, 2, contract)
    assert state.phase is phase
    assert state.to_act == 2
    assert state.taker == 2
    assert state.contract is contract


@pytest.mark.parametrize("contract", list(Contract))
def test_five_players_call_before_anything_else(contract: Contract) -> None:
    state = game(5)
    bid_round(state, 4, contract)
    assert state.phase is Phase.CALLING
    assert state.to_act == 4


class TestBeginnerVariant:
    def test_only_petite_and_garde(self) -> None:
        state = game(4, beginner=True)
        assert state.options.contracts == (Contract.PETITE, Contract.GARDE)
        assert legal_actions(state) == (PASS, Bid(Contract.PETITE), Bid(Contract.GARDE))
        act(state, "bid petite")
        assert legal_actions(state) == (PASS, Bid(Contract.GARDE))
        act(state, "bid garde")
        assert legal_actions(state) == (PASS,)

    @pytest.mark.parametrize("contract", [Contract.GARDE_SANS, Contract.GARDE_CONTRE])
    def test_strong_contracts_are_refused(self, contract: Contract) -> None:
        state = game(4, beginner=True)
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, Bid(contract), 1)
        assert info.value.reason == f"{contract.label} is not a contract of the beginner variant"
        assert snapshot(state) == before

    def test_no_chelem_question_after_the_discard(self) -> None:
        state = game(4, beginner=True)
        bid_round(state, 1, Contract.GARDE)
        while state.phase is Phase.DISCARDING:
            apply(state, legal_actions(state)[0], 1)
        assert state.phase is Phase.PLAYING
        assert state.to_act == 1  # first seat after dealer 0 leads
        assert state.chelem_announced is False


class TestRefusedActions:
    def test_wrong_turn(self) -> None:
        state = game(4, dealer=0)
        before = snapshot(state)
        with pytest.raises(WrongTurnError) as info:
            apply(state, Bid(Contract.GARDE), 2)
        assert isinstance(info.value, IllegalActionError)
        assert info.value.reason == "it is seat 1's turn, not seat 2's"
        assert info.value.seat == 2
        assert info.value.action == Bid(Contract.GARDE)
        assert snapshot(state) == before
        apply(state, Bid(Contract.GARDE), 1)  # the right seat may still bid
        assert state.taker == 1

    def test_wrong_turn_even_for_a_pass(self) -> None:
        state = game(3, dealer=2)  # seat 0 speaks first
        with pytest.raises(WrongTurnError):
            apply(state, PASS, 1)

    def test_no_seat_given_means_the_seat_to_act(self) -> None:
        state = game(4, dealer=3)
        apply(state, PASS)
        assert state.bids == [(0, PASS)]

    @pytest.mark.parametrize(
        ("first", "second", "reason"),
        [
            (Contract.PETITE, Contract.PETITE, "a bid must be higher than petite"),
            (Contract.GARDE, Contract.PETITE, "a bid must be higher than garde"),
            (Contract.GARDE, Contract.GARDE, "a bid must be higher than garde"),
            (Contract.GARDE_SANS, Contract.GARDE, "a bid must be higher than garde-sans"),
            (Contract.GARDE_CONTRE, Contract.GARDE_SANS, "a bid must be higher than garde-contre"),
        ],
    )
    def test_a_bid_not_higher_is_refused(
        self, first: Contract, second: Contract, reason: str
    ) -> None:
        state = game(4)
        apply(state, Bid(first), 1)
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, Bid(second), 2)
        assert not isinstance(info.value, WrongTurnError)
        assert info.value.reason == reason
        assert str(info.value) == reason
        assert info.value.seat == 2
        assert snapshot(state) == before

    def test_other_phase_actions_are_refused(self) -> None:
        state = game(4)
        card = parse_card("KS")
        with pytest.raises(IllegalActionError) as info:
            apply(state, Play(card))
        assert info.value.reason == "play KS is not an action of the bidding phase"

    def test_bidding_phase_actions_are_refused_later(self) -> None:
        state = game(4)
        bid_round(state, 1, Contract.GARDE_SANS)
        assert state.phase is Phase.CHELEM
        with pytest.raises(IllegalActionError, match="not an action of the chelem phase"):
            apply(state, PASS)


def test_table_options_must_match_the_deal() -> None:
    with pytest.raises(ValueError, match="4-player deal"):
        GameState(make_deal(4), TableOptions(players=5))


def test_bids_are_public() -> None:
    state = game(4)
    act(state, "bid petite", "pass")
    for seat in range(4):
        view = observe(state, seat)
        assert view.bids == ((1, Bid(Contract.PETITE)), (2, PASS))
        assert view.contract is Contract.PETITE
        assert view.taker == 1
        assert view.legal_actions == (legal_actions(state) if seat == 3 else ())


@pytest.mark.parametrize("players", [3, 4, 5])
def test_clockwise_tables_speak_in_the_same_order(players: int) -> None:
    """Direction only changes how seats are shown, never the turn order."""
    deal = make_deal(players, 1)
    orders = []
    for direction in Direction:
        state = GameState(deal, TableOptions(players=players, direction=direction))
        spoken = []
        while state.phase is Phase.BIDDING:
            spoken.append(state.to_act)
            apply(state, PASS)
        orders.append(spoken)
    assert orders[0] == orders[1] == [(2 + i) % players for i in range(players)]


def test_petit_sec_deal_is_annulled_before_bidding() -> None:
    seat2 = "T1 AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS AH 2H 3H"
    with pytest.raises(ValueError, match="petit sec"):
        make_deal(4, 0, {2: seat2})
    deal = make_deal(4, 0, {2: seat2}, allow_petit_sec=True)
    assert deal.petit_sec_seats() == [2]
    state = GameState(deal)
    assert state.phase is Phase.FINISHED and state.to_act is None
    assert legal_actions(state) == ()
    assert state.result is not None
    assert state.result.outcome is DealOutcome.PETIT_SEC
    assert state.result.petit_sec_seat == 2
    assert state.result.scores == (0, 0, 0, 0)
    with pytest.raises(IllegalActionError, match="the deal is over"):
        apply(state, PASS)
