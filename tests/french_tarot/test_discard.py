"""The chien and the discard (RULES.md 1, "Chien and discard")."""

from __future__ import annotations

import pytest

from arena.games.french_tarot import (
    ANNOUNCE_CHELEM,
    NO_CHELEM,
    Contract,
    Discard,
    GameState,
    IllegalActionError,
    Phase,
    apply,
    legal_actions,
    observe,
    parse_card,
)
from arena.games.french_tarot.cards import TOTAL_HALF_POINTS, mask_of

from .builders import (
    bid_round,
    cards,
    half_points,
    make_deal,
    mask,
    new_game,
    play_out,
    snapshot,
    start_play,
)

# Four players, dealer 0: seat 1 takes.
TAKER_HAND = "KS QS 2S 3H KH T1 T5 T21 EX 4D 5D 6D 7C 8C 9C 10C JC CC"
CHIEN = "KD 2C T10 AS 3S 4S"
DISCARDABLE = "QS 2S 3H 4D 5D 6D 7C 8C 9C 10C JC CC 2C AS 3S 4S"

# Only three cards other than Kings, bouts and trumps once the chien is taken.
TRUMPY_HAND = "KS KH KD KC T1 T21 EX 2S 3H T2 T3 T4 T5 T6 T7 T8 T9 T10"
TRUMPY_CHIEN = "4D T11 T12 T13 T14 T15"
TRUMPY_PLAIN = "2S 3H 4D"
TRUMPY_TRUMPS = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15"


def discards(text: str) -> tuple[Discard, ...]:
    return tuple(Discard(c) for c in sorted(cards(text)))


def discarding(
    hand: str = TAKER_HAND, chien: str = CHIEN, contract: Contract = Contract.PETITE
) -> GameState:
    state = new_game(make_deal(4, 0, {1: hand}, chien=chien))
    bid_round(state, 1, contract)
    assert state.phase is Phase.DISCARDING
    return state


def discard(state: GameState, text: str) -> None:
    for card in cards(text):
        apply(state, Discard(card), state.taker)


class TestPetiteAndGarde:
    @pytest.mark.parametrize("contract", [Contract.PETITE, Contract.GARDE])
    def test_chien_joins_the_takers_hand(self, contract: Contract) -> None:
        state = discarding(contract=contract)
        assert state.to_act == 1
        assert state.hands[1] == mask(TAKER_HAND) | mask(CHIEN)
        for seat in (0, 2, 3):
            assert state.hands[seat] == state.deal.hand_masks[seat]

    def test_never_a_king_a_bout_or_a_trump_when_avoidable(self) -> None:
        state = discarding()
        assert legal_actions(state) == discards(DISCARDABLE)

    def test_one_card_per_action_then_the_chelem_question(self) -> None:
        state = discarding()
        chosen = cards("QS 2S 3H 4D 5D 6D")
        for number, card in enumerate(chosen, start=1):
            assert state.phase is Phase.DISCARDING
            apply(state, Discard(card), 1)
            assert state.discard == mask_of(chosen[:number])
            assert state.hands[1].bit_count() == 24 - number
            assert Discard(card) not in legal_actions(state)
        assert state.phase is Phase.CHELEM
        assert state.to_act == 1
        assert state.discarded_trumps == []
        assert state.hands[1] == (mask(TAKER_HAND) | mask(CHIEN)) & ~mask_of(chosen)

    def test_five_players_discard_three(self) -> None:
        deal = make_deal(5, 0, {1: "KS QS 2S"}, chien="3S 4S 5S")
        state = start_play(deal, 1, Contract.GARDE, call="KH", discard="2S 3S 4S")
        assert state.discard == mask("2S 3S 4S")
        assert state.hands[1].bit_count() == 15

    @pytest.mark.parametrize(
        ("card", "reason"),
        [
            ("KS", "a King may never be discarded"),
            ("KD", "a King may never be discarded"),  # a King from the chien
            ("T21", "trump 21 is a bout and may never be discarded"),
            ("T1", "le Petit (trump 1) is a bout and may never be discarded"),
            ("EX", "the Excuse is a bout and may never be discarded"),
            ("T5", "T5 is a trump: trumps may be discarded only when nothing else can be"),
            ("T10", "T10 is a trump: trumps may be discarded only when nothing else can be"),
            ("7H", "7H is not in the taker's hand"),
        ],
    )
    def test_refused_discards(self, card: str, reason: str) -> None:
        state = discarding()
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, Discard(parse_card(card)), 1)
        assert info.value.reason == reason
        assert snapshot(state) == before

    def test_wrong_seat_may_not_discard(self) -> None:
        state = discarding()
        with pytest.raises(IllegalActionError, match="seat 1's turn, not seat 2's"):
            apply(state, Discard(parse_card("7H")), 2)


class TestTrumpsWhenUnavoidable:
    def test_trumps_offered_only_while_needed(self) -> None:
        state = discarding(TRUMPY_HAND, TRUMPY_CHIEN)
        assert legal_actions(state) == discards(f"{TRUMPY_PLAIN} {TRUMPY_TRUMPS}")
        discard(state, "T2")
        rest = TRUMPY_TRUMPS.replace("T2 ", "")
        assert legal_actions(state) == discards(f"{TRUMPY_PLAIN} {rest}")
        discard(state, "T15 T7")
        # Three trumps are down and three cards are left to discard: exactly the plain ones.
        assert legal_actions(state) == discards(TRUMPY_PLAIN)
        with pytest.raises(IllegalActionError, match="T3 is a trump"):
            discard(state, "T3")
        discard(state, "3H")
        assert legal_actions(state) == discards("2S 4D")
        discard(state, "2S 4D")
        assert state.phase is Phase.CHELEM
        assert state.discarded_trumps == cards("T2 T15 T7")
        assert state.discard == mask("T2 T15 T7 2S 3H 4D")

    def test_plain_cards_first_still_leaves_trumps_open(self) -> None:
        state = discarding(TRUMPY_HAND, TRUMPY_CHIEN)
        discard(state, "2S 3H 4D")
        assert legal_actions(state) == discards(TRUMPY_TRUMPS)
        discard(state, "T9 T11 T14")
        assert state.phase is Phase.CHELEM
        assert state.discarded_trumps == cards("T9 T11 T14")

    def test_discarded_trumps_are_public_the_rest_is_not(self) -> None:
        state = discarding(TRUMPY_HAND, TRUMPY_CHIEN)
        discard(state, "2S T4")
        for seat in range(4):
            view = observe(state, seat)
            assert view.discarded_trumps == tuple(cards("T4"))
            assert view.chien == tuple(sorted(cards(TRUMPY_CHIEN)))
            if seat == 1:
                assert view.discard == tuple(sorted(cards("2S T4")))
            else:
                assert view.discard is None
        discard(state, "3H 4D T5 T6")
        state_views = [observe(state, seat) for seat in range(4)]
        for seat, view in enumerate(state_views):
            assert view.phase is Phase.CHELEM
            assert view.discarded_trumps == tuple(cards("T4 T5 T6"))
            assert (view.discard is None) == (seat != 1)


class TestDiscardCounts:
    """A taker holding every trump, the Excuse and two Kings makes every trick (see
    test_excuse_and_chelem); the only question is where the chien's 9 points go."""

    TAKER = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 EX KS KH"
    CHIEN = "QS CS JS 10S 9S 8S"

    def play(self, contract: Contract) -> int:
        deal = make_deal(3, 0, {1: self.TAKER}, chien=self.CHIEN)
        state = start_play(deal, 1, contract, discard=self.CHIEN)
        if contract.chien_shown:
            assert state.discard == mask(self.CHIEN)
        result = play_out(state, late={1: "EX"})
        assert result.summary is not None
        assert result.summary.bouts == 3
        assert all(trick.winner == 1 for trick in state.tricks)
        return result.summary.taker_half_points

    @pytest.mark.parametrize("contract", [Contract.PETITE, Contract.GARDE, Contract.GARDE_SANS])
    def test_discard_or_chien_counts_for_the_taker(self, contract: Contract) -> None:
        assert self.play(contract) == TOTAL_HALF_POINTS

    def test_garde_contre_chien_counts_for_the_defence(self) -> None:
        assert half_points(cards(self.CHIEN)) == 18
        assert self.play(Contract.GARDE_CONTRE) == TOTAL_HALF_POINTS - 18


class TestGardeSansAndContre:
    @pytest.mark.parametrize("contract", [Contract.GARDE_SANS, Contract.GARDE_CONTRE])
    @pytest.mark.parametrize("players", [3, 4, 5])
    def test_no_discard_and_the_chien_stays_hidden(self, players: int, contract: Contract) -> None:
        deal = make_deal(players, 0)
        state = new_game(deal)
        bid_round(state, 1, contract)
        if players == 5:
            assert state.phase is Phase.CALLING
            apply(state, legal_actions(state)[0], 1)
        assert legal_actions(state) == (NO_CHELEM, ANNOUNCE_CHELEM)
        assert state.hands[1] == deal.hand_masks[1]
        assert state.discard == 0
        for seat in range(players):
            view = observe(state, seat)
            assert view.chien is None
            assert view.discarded_trumps == ()
        apply(state, legal_actions(state)[0], 1)  # no chelem
        assert state.phase is Phase.PLAYING
        while state.phase is Phase.PLAYING:
            for seat in range(players):
                assert observe(state, seat).chien is None
            apply(state, legal_actions(state)[-1], state.to_act)
        for seat in range(players):
            view = observe(state, seat)
            assert view.chien == deal.chien
            assert view.deal == deal
        assert state.discard == 0

    def test_chien_cards_never_reach_a_hand(self) -> None:
        deal = make_deal(4, 0, chien="KS KH T21 EX 2C 3C")
        state = start_play(deal, 2, Contract.GARDE_SANS)
        chien = deal.chien_mask
        while state.phase is Phase.PLAYING:
            assert all(not hand & chien for hand in state.hands)
            apply(state, legal_actions(state)[-1], state.to_act)
        assert not any(chien >> card & 1 for trick in state.tricks for card in trick.cards)
