"""Two players with the dummy (RULES.md, "Variants to offer"): three hands of 24 and a chien of
6; seat 0 is the non-dealer, seat 1 the dealer, seat 2 the dummy; only the players bid, once
each; the dummy is shown to both after the discard (after bidding for Garde Sans and Contre) and
the defender plays it in its turn; it never shows a poignée; scored as for three players, taker
+2X, defender -2X.

The random-deal properties (cards conserved, zero-sum scores recomputed from the tricks, legal
actions exactly what apply accepts) run for this variant in ``test_properties.py``; this file
holds the rules one by one, what each player sees, records and the deal's golden vectors.
"""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest

from arena.games.french_tarot import (
    EXCUSE,
    PASS,
    PETIT,
    Bid,
    ChelemChoice,
    Contract,
    Deal,
    DealOutcome,
    DealRecord,
    DealSummary,
    DeclarePoignee,
    Discard,
    GameState,
    IllegalActionError,
    Observation,
    Phase,
    Play,
    PoigneeLevel,
    RecordError,
    ReplayError,
    Side,
    TableOptions,
    WrongTurnError,
    apply,
    format_cards,
    legal_actions,
    observe,
    replay,
    score_deal,
    seeded_deal,
    settle,
)
from arena.games.french_tarot.cards import HALF_POINTS, cards_of
from arena.games.french_tarot.deal import DUMMY, DUMMY_DEALER
from arena.games.french_tarot.game import explain_illegal
from arena.games.french_tarot.observation import sealed_observation
from arena.schemas import deal_record_schema

from .builders import act, make_deal, new_game, play_out, start_play
from .test_deal import reference_deal
from .test_record import play_policy

TWO = TableOptions(players=2)


def deal_of(hands: dict[int, str] | None = None, chien: str = "") -> Deal:
    return make_deal(2, hands=hands, chien=chien)


# --- the table ---------------------------------------------------------------------------------


def test_two_players_sit_at_three_hands() -> None:
    assert (TWO.players, TWO.seats, TWO.has_dummy, TWO.dealer_seats) == (2, 3, True, (1,))
    four = TableOptions(players=4)
    assert (four.seats, four.has_dummy, four.dealer_seats) == (4, False, (0, 1, 2, 3))
    assert (DUMMY, DUMMY_DEALER) == (2, 1)
    with pytest.raises(ValueError, match=r"played by 2 \(with the dummy\), 3, 4 or 5 players, "
                       "not 1"):
        TableOptions(players=1)


def test_seat_1_always_deals() -> None:
    deal = seeded_deal(5, 2)
    assert deal.dealer == 1 and deal.seats == 3
    assert seeded_deal(5, 2, 1) == deal
    for dealer in (0, 2):
        with pytest.raises(ValueError, match=f"dealer seat {dealer}: with two players seat 1 "
                           r"deals \(seat 0 is the non-dealer, seat 2 the dummy\); the players "
                           "take turns at dealing by changing seats"):
            seeded_deal(5, 2, dealer)
    with pytest.raises(ValueError, match="dealer seat 0: with two players seat 1 deals"):
        Deal(2, 0, deal.hands, deal.chien)
    state = GameState.from_seed(5, TWO)
    assert (state.dealer, state.first_seat, state.to_act) == (1, 0, 0)


def test_a_two_player_deal_is_three_hands_of_24_and_a_chien_of_6() -> None:
    deal = seeded_deal(0, 2)
    assert [len(h) for h in deal.hands] == [24, 24, 24] and len(deal.chien) == 6
    with pytest.raises(ValueError, match="2 hands for 2 players: with the dummy a deal has 3"):
        Deal(2, 1, deal.hands[:2], deal.chien)
    hands = list(deal.hands)
    moved, hands[2] = hands[2][0], hands[2][1:]
    with pytest.raises(ValueError, match="seat 2 holds 23 cards, a 2-player hand has 24"):
        Deal(2, 1, tuple(hands), (*deal.chien, moved))
    with pytest.raises(ValueError, match="the chien has 5 cards, it must have 6 with 2 players"):
        Deal(2, 1, deal.hands, deal.chien[1:])
    assert deal.describe().splitlines()[2] == "dummy 2: " + format_cards(deal.hands[2])


# --- seeded deals: the dealing order, pinned ---------------------------------------------------

GOLDEN_DUMMY_DEALS = {
    0: (
        (
            "AS 3S 5S 9S 10S CS KS 4H 7H JH CH AD 2D 7D KD 3C 9C QC T1 T2 T8 T13 T14 EX",
            "4S 7S JS 2H 3H 5H 9H QH KH 6D 9D AC 6C 8C 10C JC CC KC T5 T9 T15 T16 T20 T21",
            "2S 6S 8S QS 6H 8H 10H 3D 4D 5D 8D 10D CD QD 2C 4C 5C T4 T7 T10 T11 T12 T17 T18",
        ),
        "AH JD 7C T3 T6 T19",
    ),
    1: (
        (
            "5S 9S 10S QS KS AH 2H 3H 7H 8H 9H 3D QD KD 4C 9C QC T4 T6 T7 T13 T15 T20 T21",
            "4S 8S JS 5H 10H KH 2D 4D 8D 9D 10D JD CD AC 2C 6C 7C CC KC T8 T10 T14 T16 T19",
            "AS 2S 3S 7S CS 4H JH CH QH AD 5D 6D 7D 3C 5C 8C 10C JC T1 T3 T5 T9 T12 T18",
        ),
        "6S 6H T2 T11 T17 EX",
    ),
    42: (
        (
            "AS 4S 8S AH 2H 3H 9H QH 4D 7D 8D CD AC 2C 6C 9C 10C T1 T3 T4 T6 T7 T18 T21",
            "9S 10S JS 5H 7H 8H 10H JH AD 2D 5D 6D 10D KD 4C 5C CC KC T5 T8 T10 T12 T14 EX",
            "2S 3S 5S 6S 7S CS QS KS 4H 6H CH KH 3D JD 3C JC T2 T11 T13 T15 T16 T17 T19 T20",
        ),
        "9D QD 7C 8C QC T9",
    ),
    2**64 - 1: (
        (
            "3S 4S 5S 6S CS KS 7H 10H 3D 4D JD CD 6C JC T1 T2 T4 T5 T7 T8 T9 T11 T15 T19",
            "AS 7S 8S 9S 10S QS 3H 5H 8H QH KH 2D 5D 9D 10D KD AC 2C 9C QC T3 T13 T14 EX",
            "2S JS AH 2H 4H JH CH AD 6D 7D 8D QD 3C 4C 10C CC T6 T10 T12 T16 T17 T18 T20 T21",
        ),
        "6H 9H 5C 7C 8C KC",
    ),
    6442: (  # its first shuffle deals a petit sec (step 5 of deal.py): shuffled again
        (
            "2S 5S CS 7H 8H 9H QH KH AD 2D 3D 5D CD QD KD 6C 7C 9C 10C T13 T15 T16 T18 T21",
            "4S 7S 8S 10S QS KS 3H 4H 6H 10H JH 6D 7D JD 4C JC CC KC T1 T3 T6 T11 T12 T17",
            "AS 3S 6S 9S JS AH 2H 5H CH 4D 8D 9D 10D AC 2C 3C 5C 8C QC T2 T8 T14 T19 EX",
        ),
        "T4 T5 T7 T9 T10 T20",
    ),
}
"""Sorted hands (seat 0, seat 1, the dummy) and chien of the two-player deal of each seed."""


@pytest.mark.parametrize("seed", sorted(GOLDEN_DUMMY_DEALS))
def test_golden_two_player_deals(seed: int) -> None:
    hands, chien = GOLDEN_DUMMY_DEALS[seed]
    deal = seeded_deal(seed, 2)
    assert tuple(format_cards(h) for h in deal.hands) == hands
    assert format_cards(deal.chien) == chien
    # deal.py's docstring: dealt as for three players, from seat 0, so the 3-player deal of the
    # same seed dealt by seat 2, seat for seat
    assert (deal.hands, deal.chien) == reference_deal(seed, 3, 2)


def test_the_dealing_order_over_many_seeds() -> None:
    for seed in range(300):
        deal = seeded_deal(seed * 7919, 2)
        assert (deal.hands, deal.chien) == reference_deal(seed * 7919, 3, 2)
        assert deal.petit_sec_seats() == []  # the dummy's hand included


def test_a_petit_sec_dummy_annuls_the_deal() -> None:
    deal = make_deal(2, hands={2: "T1 " + " ".join(f"{r}S" for r in "A23456789")
                               + " 10S JS CS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H"},
                     allow_petit_sec=True)
    assert deal.petit_sec_seats() == [DUMMY]
    state = GameState(deal, TWO)
    assert state.is_over and state.to_act is None and state.decider is None
    assert state.result is not None and state.result.outcome is DealOutcome.PETIT_SEC
    assert state.result.petit_sec_seat == DUMMY and state.result.scores == (0, 0)


# --- bidding -----------------------------------------------------------------------------------


def test_only_the_two_players_bid_once_each() -> None:
    state = new_game(deal_of())
    assert state.phase is Phase.BIDDING and state.to_act == 0 == state.decider
    assert legal_actions(state) == (PASS, *(Bid(c) for c in Contract))
    apply(state, Bid(Contract.PETITE), 0)
    assert state.to_act == 1
    assert legal_actions(state) == (PASS, *(Bid(c) for c in Contract if c > Contract.PETITE))
    with pytest.raises(WrongTurnError, match="it is seat 1's turn, not seat 2's"):
        apply(state, PASS, DUMMY)
    apply(state, Bid(Contract.GARDE), 1)
    # no third bid: the dealer's garde ends the bidding, the dummy never speaks
    assert state.bids == [(0, Bid(Contract.PETITE)), (1, Bid(Contract.GARDE))]
    assert (state.phase, state.taker, state.to_act, state.defender) == (Phase.DISCARDING, 1, 1, 0)


def test_both_pass_voids_the_deal() -> None:
    state = new_game(deal_of())
    act(state, "pass", "pass")
    assert state.is_over and state.to_act is None and state.decider is None
    assert state.result is not None and state.result.outcome is DealOutcome.ALL_PASSED
    assert state.result.scores == (0, 0)
    assert not state.dummy_shown and state.controller(DUMMY) is None
    with pytest.raises(ValueError, match="seat 2 is the dummy: it sees nothing of its own"):
        observe(state, DUMMY)
    # the deal is revealed at its end, the dummy with it; not when the board is still being
    # played elsewhere (a competition): a dummy never shown stays hidden
    assert observe(state, 0).dummy == state.deal.hands[DUMMY]
    assert all(sealed_observation(state, seat).dummy is None for seat in (0, 1))


def test_a_sealed_end_keeps_the_dummy_shown_during_the_deal() -> None:
    state = start_play(deal_of(), taker=0, contract=Contract.GARDE)
    play_out(state)
    assert all(sealed_observation(state, seat).dummy == () for seat in (0, 1))


# --- the dummy shown ---------------------------------------------------------------------------


def views(state: GameState) -> tuple[Observation, Observation]:
    return observe(state, 0), observe(state, 1)


@pytest.mark.parametrize("beginner", [False, True])
def test_the_dummy_is_shown_once_the_discard_is_laid(beginner: bool) -> None:
    state = new_game(deal_of(), beginner=beginner)
    act(state, "bid petite", "pass")
    assert state.phase is Phase.DISCARDING and state.taker == 0
    for _ in range(6):
        assert not state.dummy_shown
        assert all(v.dummy is None for v in views(state))
        apply(state, legal_actions(state)[0], 0)
    assert state.phase is (Phase.PLAYING if beginner else Phase.CHELEM)
    assert state.dummy_shown
    dummy = tuple(cards_of(state.hands[DUMMY]))
    assert all(v.dummy == dummy for v in views(state))
    assert observe(state, DUMMY) == observe(state, 1)  # the dummy's view is its controller's


@pytest.mark.parametrize("contract", [Contract.GARDE_SANS, Contract.GARDE_CONTRE])
def test_the_dummy_is_shown_right_after_bidding_without_the_chien(contract: Contract) -> None:
    state = new_game(deal_of())
    apply(state, PASS, 0)
    assert not state.dummy_shown and all(v.dummy is None for v in views(state))
    apply(state, Bid(contract), 1)
    assert state.phase is Phase.CHELEM and state.dummy_shown
    assert all(v.dummy == tuple(cards_of(state.hands[DUMMY])) for v in views(state))
    assert all(v.chien is None for v in views(state))


# --- who plays the dummy -----------------------------------------------------------------------


def test_turn_order_is_non_dealer_dealer_dummy_and_the_defender_plays_the_dummy() -> None:
    state = start_play(deal_of(), taker=1, contract=Contract.GARDE_SANS)
    assert (state.taker, state.defender) == (1, 0)
    assert [state.controller(s) for s in range(3)] == [0, 1, 0]
    assert state.to_act == 0  # the non-dealer leads
    apply(state, legal_actions(state)[-1], 0)
    assert state.to_act == 1 == state.decider
    apply(state, legal_actions(state)[-1], 1)
    assert state.to_act == DUMMY and state.decider == 0
    legal = legal_actions(state)
    assert legal and all(isinstance(a, Play) and state.hands[DUMMY] >> a.card & 1 for a in legal)
    defender, taker = observe(state, 0), observe(state, 1)
    assert defender.legal_actions == legal and defender.to_act == DUMMY
    assert taker.legal_actions == ()
    with pytest.raises(WrongTurnError, match=r"it is seat 2's turn \(the dummy, played by seat "
                       r"0\), not seat 0's"):
        apply(state, legal[0], 0)
    apply(state, legal[0], DUMMY)
    assert state.history[-1] == (DUMMY, legal[0])
    assert len(state.tricks) == 1 and state.tricks[0].leader == 0


def test_the_taker_can_be_the_non_dealer() -> None:
    state = start_play(deal_of(), taker=0, contract=Contract.GARDE_SANS)
    assert state.defender == 1 and state.controller(DUMMY) == 1
    play_out(state)
    assert state.result is not None and state.result.taker == 0


def test_an_announced_chelem_lets_the_taker_lead() -> None:
    state = start_play(deal_of(), taker=1, contract=Contract.GARDE_SANS, chelem=True)
    assert state.to_act == 1
    for seat in (1, DUMMY, 0):  # then the ring goes on: the dummy, then the non-dealer
        assert state.to_act == seat
        apply(state, legal_actions(state)[0], seat)


def test_every_seat_observation_is_checked() -> None:
    state = new_game(deal_of())
    with pytest.raises(ValueError, match="seat 3 is not a seat of a 2-player table"):
        observe(state, 3)
    with pytest.raises(ValueError, match=r"seat 3 is not a seat of this table \(0 \.\. 2\)"):
        state.controller(3)
    with pytest.raises(ValueError, match="nobody plays it before a player takes"):
        observe(state, DUMMY)


# --- poignées ----------------------------------------------------------------------------------

THIRTEEN = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14"


def test_the_dummy_never_shows_a_poignee() -> None:
    state = start_play(deal_of({DUMMY: THIRTEEN + " T15 T16"}), taker=1,
                       contract=Contract.GARDE_SANS)
    apply(state, legal_actions(state)[0], 0)
    apply(state, legal_actions(state)[0], 1)
    assert state.to_act == DUMMY
    assert not any(isinstance(a, DeclarePoignee) for a in legal_actions(state))
    simple = DeclarePoignee(PoigneeLevel.SIMPLE)
    assert explain_illegal(state, simple) == "the dummy never shows a poignée"
    with pytest.raises(IllegalActionError, match="the dummy never shows a poignée"):
        apply(state, simple, DUMMY)


SPADES = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS"


def test_the_players_show_poignees_as_three_players_do() -> None:
    twelve = THIRTEEN.split(" ", 1)[1]
    state = start_play(deal_of({0: f"{twelve} {SPADES}"}), taker=1, contract=Contract.GARDE_SANS)
    assert not any(isinstance(a, DeclarePoignee) for a in legal_actions(state))  # 12 trumps
    state = start_play(deal_of({0: f"{THIRTEEN} {SPADES[3:]}"}), taker=1,
                       contract=Contract.GARDE_SANS)
    assert DeclarePoignee(PoigneeLevel.SIMPLE) in legal_actions(state)  # 13: a simple poignée
    apply(state, DeclarePoignee(PoigneeLevel.SIMPLE), 0)
    assert state.poignees[0].seat == 0 and len(state.poignees[0].cards) == 13


# --- scoring -----------------------------------------------------------------------------------


def test_the_worked_example_settled_between_two() -> None:
    """RULES.md's example (Garde, 49 points with 2 bouts, a simple poignée, the Petit au bout):
    X = (25 + 8 + 10) x 2 + 20 = 106, as for three players; the defender pays it twice, once
    for its hand and once for the dummy's."""
    summary = DealSummary.with_points(
        49, players=2, contract=Contract.GARDE, bouts=2, petit_au_bout=Side.TAKER,
        poignees=(PoigneeLevel.SIMPLE,),
    )
    breakdown = score_deal(summary)
    assert (breakdown.per_defender, breakdown.taker, breakdown.defender) == (106, 212, -212)
    assert breakdown.partner == 0
    assert settle(summary, 1) == (-212, 212)
    assert settle(summary, 0) == (212, -212)
    three = score_deal(DealSummary.with_points(
        49, players=3, contract=Contract.GARDE, bouts=2, petit_au_bout=Side.TAKER,
        poignees=(PoigneeLevel.SIMPLE,),
    ))
    assert three.per_defender == breakdown.per_defender and three.taker == breakdown.taker


def test_a_lost_contract_pays_the_defender_twice() -> None:
    summary = DealSummary.with_points(40, players=2, contract=Contract.PETITE, bouts=1)
    assert score_deal(summary).per_defender == -(25 + 11)
    assert settle(summary, 0) == (-72, 72)


def test_the_dummy_defends_its_tricks_and_petit_count_for_the_defence() -> None:
    """A deal of random play (seed 789, Garde Sans by the dealer) where the dummy plays its
    Petit to the last trick and the defence takes it: petit au bout for the defence. The dummy
    wins 13 tricks, all the defence's: the taker's points are its own tricks and the chien (which
    holds the Excuse, so no card is exchanged for it)."""
    state = play_policy(789, TWO, 1)
    result = state.result
    assert result is not None and result.summary is not None and result.breakdown is not None
    summary = result.summary
    assert (result.taker, summary.contract) == (1, Contract.GARDE_SANS)
    last = state.tricks[-1]
    assert (DUMMY, PETIT) in last.played_by() and last.winner != 1
    assert summary.petit_au_bout is Side.DEFENCE
    assert sum(t.winner == DUMMY for t in state.tricks) == 13
    assert EXCUSE in state.deal.chien
    taker_cards = [c for t in state.tricks if t.winner == 1 for c in t.cards]
    expected = sum(HALF_POINTS[c] for c in [*taker_cards, *state.deal.chien])
    assert summary.taker_half_points == expected
    x = result.breakdown.per_defender
    assert result.scores == (-2 * x, 2 * x) == (384, -384) and summary.players == 2


# --- what each player sees ---------------------------------------------------------------------

OBSERVATION_FIELDS = {
    "seat", "options", "dealer", "phase", "to_act", "hand", "legal_actions", "bids", "contract",
    "taker", "called_card", "partner", "partner_known", "chien", "discard", "discarded_trumps",
    "chelem_announced", "poignees", "tricks", "current_trick", "result", "deal", "dummy",
}


def visible_cards(view: Observation) -> set[int]:
    """Every card an observation names, in any field (but the deal and result, revealed at the
    end)."""
    seen = {*view.hand, *(view.chien or ()), *(view.discard or ()), *view.discarded_trumps,
            *(view.dummy or ())}
    seen |= {c for p in view.poignees for c in p.cards}
    seen |= {c for t in view.tricks for c in t.cards}
    seen |= {c for _, c in view.current_trick}
    seen |= {a.card for a in view.legal_actions if hasattr(a, "card")}
    if view.called_card is not None:
        seen.add(view.called_card)
    return seen


def allowed_cards(state: GameState, seat: int) -> set[int]:
    """RULES.md restated from the history: the player's own cards (with the chien once it is
    the taker's), the cards played, a chien shown to all, the poignées shown, and the dummy once
    the discard is laid (or the bidding over, for Garde Sans and Contre)."""
    allowed = set(state.deal.hands[seat]) | {c for p in state.poignees for c in p.cards}
    allowed |= {a.card for _, a in state.history if isinstance(a, Play)}
    contract = max((a.contract for _, a in state.bids if isinstance(a, Bid)), default=None)
    bidding_over = len(state.bids) == 2
    discards = [a.card for _, a in state.history if isinstance(a, Discard)]
    allowed |= {c for c in discards if 56 <= c <= 76}  # a trump laid in the discard is shown
    if bidding_over and contract is not None:
        if contract.chien_shown:
            allowed |= set(state.deal.chien)  # shown to both
            discard_laid = len(discards) == 6
        else:
            discard_laid = True
        if discard_laid:
            allowed |= set(state.deal.hands[DUMMY])
    return allowed


def test_no_player_ever_sees_a_hidden_card() -> None:
    """Hundreds of random deals, both players' views at every step: nothing outside what they
    may know, and in particular never the other player's cards nor the dummy before it is
    shown. An Observation field added later must be added to :func:`visible_cards`."""
    assert set(Observation.__dataclass_fields__) == OBSERVATION_FIELDS
    shown_seen = 0
    for number in range(400):
        options = TableOptions(players=2, beginner=number % 5 == 0)
        state = GameState.from_seed(90_000 + number, options)
        rnd = random.Random(number)
        while True:
            for seat in (0, 1):
                view = observe(state, seat)
                if state.is_over:
                    assert view.deal == state.deal
                    break
                seen = visible_cards(view)
                assert seen <= allowed_cards(state, seat), (number, seat, state)
                # the other player's own cards, still in its hand: never seen but in a poignée
                other = set(state.deal.hands[1 - seat]) & set(cards_of(state.hands[1 - seat]))
                shown = {c for p in state.poignees if p.seat == 1 - seat for c in p.cards}
                assert seen & other <= shown
                assert (view.dummy is not None) == state.dummy_shown
                shown_seen += view.dummy is not None
                assert bool(view.legal_actions) == (state.decider == seat)
            if state.is_over:
                break
            legal = legal_actions(state)
            apply(state, legal[int(rnd.random() * len(legal))])
    assert shown_seen > 10_000


# --- records -----------------------------------------------------------------------------------

VALIDATOR = jsonschema.Draft202012Validator(deal_record_schema())


def random_two_player_record(number: int) -> dict[str, Any]:
    rnd = random.Random(number)
    seed = rnd.randrange(2**64)
    state = GameState.from_seed(seed, TableOptions(players=2, beginner=number % 4 == 0))
    while not state.is_over:
        legal = legal_actions(state)
        apply(state, PASS if number % 9 == 0 and PASS in legal else rnd.choice(legal))
    return DealRecord.of(state, seed).to_json()


def test_records_round_trip_replay_and_validate() -> None:
    outcomes = set()
    for number in range(150):
        data = random_two_player_record(number)
        assert not [e.message for e in VALIDATOR.iter_errors(data)], number
        assert data["options"]["players"] == 2 and len(data["hands"]) == 3
        assert len(data["result"]["scores"]) == 2
        record = DealRecord.loads(json.dumps(data))
        assert record.to_json() == data
        state = replay(record)
        assert state.result == record.result
        outcomes.add(data["result"]["outcome"])
    assert outcomes == {"played", "all-passed"}


def test_the_schema_checks_the_shape_of_a_two_player_record() -> None:
    data = random_two_player_record(1)
    for path, value in (("dealer", 0), ("hands", data["hands"][:2])):
        broken = {**data, path: value}
        assert list(VALIDATOR.iter_errors(broken)), path
    broken = json.loads(json.dumps(data))
    broken["result"]["scores"].append(0)
    assert list(VALIDATOR.iter_errors(broken))
    broken = json.loads(json.dumps(data))
    broken["actions"][0][0] = 3
    assert list(VALIDATOR.iter_errors(broken))


def test_a_record_of_the_dummy_card_by_the_defender_seat_is_refused() -> None:
    data = random_two_player_record(2)
    index = next(i for i, (seat, text) in enumerate(data["actions"]) if seat == DUMMY)
    defender = 1 - data["result"]["taker"]
    data["actions"][index][0] = defender
    with pytest.raises(ReplayError, match=rf"it is seat 2's turn \(the dummy, played by seat "
                       rf"{defender}\), not seat {defender}'s"):
        replay(DealRecord.from_json(data))


def test_a_two_player_record_needs_three_hands() -> None:
    data = random_two_player_record(3)
    data["hands"] = data["hands"][:2]
    with pytest.raises(RecordError, match="2 hands for 2 players: with the dummy a deal has 3"):
        DealRecord.from_json(data)


def test_a_chelem_choice_follows_the_dummy_shown_for_garde_sans() -> None:
    state = new_game(deal_of())
    act(state, "pass", "bid garde-sans")
    assert state.phase is Phase.CHELEM and legal_actions(state) == (
        ChelemChoice(False), ChelemChoice(True)
    )
    assert observe(state, 1).legal_actions and not observe(state, 0).legal_actions
