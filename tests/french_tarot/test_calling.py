"""Five players: the called card (RULES.md 1, "Five players: the called king")."""

from __future__ import annotations

import pytest

from arena.games.french_tarot import (
    CallCard,
    Contract,
    DealOutcome,
    GameState,
    IllegalActionError,
    Phase,
    Play,
    apply,
    legal_actions,
    observe,
    parse_card,
)

from .builders import (
    bid_round,
    cards,
    legal_plays,
    make_deal,
    new_game,
    play,
    play_out,
    plays,
    snapshot,
    start_play,
)


def calls(text: str) -> tuple[CallCard, ...]:
    return tuple(CallCard(c) for c in sorted(cards(text)))


def calling(taker_cards: str, taker: int = 1, contract: Contract = Contract.GARDE) -> GameState:
    state = new_game(make_deal(5, 0, {taker: taker_cards}))
    bid_round(state, taker, contract)
    assert state.phase is Phase.CALLING
    assert state.to_act == taker
    return state


KINGS = "KS KH KD KC"
QUEENS = "QS QH QD QC"
CAVALIERS = "CS CH CD CC"
JACKS = "JS JH JD JC"


class TestCallableCards:
    def test_kings_only(self) -> None:
        state = calling("KS QS QH QD QC CS T5 T6")
        assert legal_actions(state) == calls(KINGS)

    def test_kings_only_without_any_king(self) -> None:
        state = calling("QS QH 2S 3S T5 T6")
        assert legal_actions(state) == calls(KINGS)

    def test_three_kings_and_four_queens_still_kings_only(self) -> None:
        state = calling(f"KS KH KD {QUEENS} {CAVALIERS}")
        assert legal_actions(state) == calls(KINGS)

    def test_all_kings_allow_queens(self) -> None:
        state = calling(f"{KINGS} QS QH QD {CAVALIERS}")
        assert legal_actions(state) == calls(f"{KINGS} {QUEENS}")

    def test_all_kings_and_queens_allow_cavaliers(self) -> None:
        state = calling(f"{KINGS} {QUEENS} CS CH CD JS JH JD JC")
        assert legal_actions(state) == calls(f"{KINGS} {QUEENS} {CAVALIERS}")

    def test_all_kings_queens_and_cavaliers_allow_jacks(self) -> None:
        state = calling(f"{KINGS} {QUEENS} {CAVALIERS} JS T2 T3")
        assert legal_actions(state) == calls(f"{KINGS} {QUEENS} {CAVALIERS} {JACKS}")

    def test_chien_does_not_count_for_the_right_to_call_a_queen(self) -> None:
        """The call comes before the chien is shown: only the taker's own hand counts."""
        state = new_game(make_deal(5, 0, {1: "KS KH KD QS"}, chien="KC"))
        bid_round(state, 1, Contract.GARDE)
        assert legal_actions(state) == calls(KINGS)

    @pytest.mark.parametrize(
        ("card", "reason"),
        [
            ("QS", "Queen of spades cannot be called: a lower rank may be called only when the "
                   "taker holds all four cards of every higher rank"),
            ("JC", "Jack of clubs cannot be called: a lower rank may be called only when the "
                   "taker holds all four cards of every higher rank"),
            ("T21", "only a King (or a Queen, Cavalier, Jack) can be called, not T21"),
            ("EX", "only a King (or a Queen, Cavalier, Jack) can be called, not EX"),
            ("10H", "only a King (or a Queen, Cavalier, Jack) can be called, not 10H"),
        ],
    )
    def test_illegal_call(self, card: str, reason: str) -> None:
        state = calling("KS QS QH T5 T6")
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, CallCard(parse_card(card)), 1)
        assert info.value.reason == reason
        assert snapshot(state) == before

    def test_cavalier_refused_with_kings_but_not_all_queens(self) -> None:
        state = calling(f"{KINGS} QS QH QD CS")
        with pytest.raises(IllegalActionError, match="Cavalier of spades cannot be called"):
            apply(state, CallCard(parse_card("CS")), 1)

    def test_no_call_with_fewer_players(self) -> None:
        state = new_game(make_deal(4))
        bid_round(state, 1, Contract.GARDE)
        with pytest.raises(IllegalActionError, match="not an action of the discarding phase"):
            apply(state, CallCard(parse_card("KS")), 1)


class TestPartner:
    def test_holder_of_the_called_card_is_the_partner(self) -> None:
        deal = make_deal(5, 0, {1: "KS 2S", 3: "KH 2H"})
        state = new_game(deal)
        bid_round(state, 1, Contract.GARDE)
        apply(state, CallCard(parse_card("KH")), 1)
        assert state.called_card == parse_card("KH")
        assert state.partner == 3
        assert state.phase is Phase.DISCARDING
        assert not state.partner_revealed

    @pytest.mark.parametrize("contract", [Contract.GARDE, Contract.GARDE_SANS])
    def test_called_card_in_the_chien_means_taker_alone(self, contract: Contract) -> None:
        deal = make_deal(5, 0, {2: "KS"}, chien="KH")
        state = start_play(deal, 2, contract, call="KH")
        assert state.partner is None
        result = play_out(state)
        assert result.partner is None
        assert result.called_card == parse_card("KH")
        assert result.summary is not None and result.summary.taker_alone
        x = result.scores[0]
        assert result.scores == (x, x, -4 * x, x, x)

    def test_calling_a_king_of_ones_own_means_taker_alone(self) -> None:
        deal = make_deal(5, 0, {4: "KS KH 2H"})
        state = start_play(deal, 4, Contract.GARDE, call="KH")
        assert state.partner is None
        result = play_out(state)
        assert result.partner is None
        assert result.summary is not None and result.summary.taker_alone
        x = result.scores[0]
        assert result.scores == (x, x, x, x, -4 * x)
        assert state.partner_revealed  # the called card was played, by the taker

    def test_partner_shares_the_result(self) -> None:
        deal = make_deal(5, 0, {1: "KS 2S", 3: "KH 2H"})
        state = start_play(deal, 1, Contract.GARDE_SANS, call="KH")
        result = play_out(state)
        assert result.outcome is DealOutcome.PLAYED
        assert result.taker == 1 and result.partner == 3
        assert result.summary is not None and not result.summary.taker_alone
        x = result.scores[0]
        assert result.scores == (x, -2 * x, x, -x, x)
        assert sum(result.scores) == 0


# Seat 1 leads the first trick (dealer 0); seat 3 takes and calls the King of hearts (seat 2).
LEADER_HAND = "AS 2S 3S 2H 5H 9H 4D 5D 6C T2 T3 T4 T5 T6 EX"


class TestFirstCard:
    def state(self, *, leader: str = LEADER_HAND, chelem: bool = False) -> GameState:
        deal = make_deal(5, 0, {1: leader, 2: "KH", 3: "KS QS"})
        return start_play(deal, 3, Contract.GARDE_SANS, call="KH", chelem=chelem)

    def test_leader_may_not_lead_the_called_suit(self) -> None:
        state = self.state()
        assert state.to_act == 1
        assert legal_plays(state) == plays("AS 2S 3S 4D 5D 6C T2 T3 T4 T5 T6 EX")

    def test_leading_the_called_suit_is_refused(self) -> None:
        state = self.state()
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, Play(parse_card("5H")), 1)
        assert info.value.reason == (
            "the first card of the deal may not be of hearts, the called suit"
        )
        assert snapshot(state) == before

    def test_the_called_card_itself_may_be_led(self) -> None:
        deal = make_deal(5, 0, {1: "KH 2H 9H AS T2 T3", 3: "KS QS"})
        state = start_play(deal, 3, Contract.GARDE_SANS, call="KH")
        assert state.partner == 1
        legal = legal_plays(state)
        assert Play(parse_card("KH")) in legal
        assert Play(parse_card("2H")) not in legal and Play(parse_card("9H")) not in legal
        assert Play(parse_card("AS")) in legal

    def test_only_the_first_card_is_restricted(self) -> None:
        # Seat 2 has neither spades nor trumps: after a spade lead it may play its hearts.
        seat2 = "KH QH CH JH 10H 8H 7H 6H 4H 3H AH 7D 8D 9D 10D"
        deal = make_deal(5, 0, {1: LEADER_HAND, 2: seat2, 3: "KS QS"})
        state = start_play(deal, 3, Contract.GARDE_SANS, call="KH")
        play(state, "AS")
        assert legal_plays(state) == plays(seat2)
        play(state, "3H")
        play_out_one_trick(state)
        leader = state.to_act
        assert leader is not None
        # Leading the second trick is free: every card of the hand may be led.
        assert legal_plays(state) == plays_of_hand(state, leader)

    def test_chelem_taker_leads_and_is_restricted(self) -> None:
        taker_hand = "KS QS 3H 4H T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17"
        deal = make_deal(5, 0, {1: LEADER_HAND, 2: "KH", 3: taker_hand})
        state = start_play(deal, 3, Contract.GARDE_SANS, call="KH", chelem=True)
        assert state.to_act == 3
        assert legal_plays(state) == plays("KS QS T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17")

    def test_no_restriction_with_four_players(self) -> None:
        deal = make_deal(4, 0, {1: "2H 5H AS T2 T3"})
        state = start_play(deal, 3, Contract.GARDE_SANS)
        assert legal_plays(state) == plays_of_hand(state, 1)


def plays_of_hand(state: GameState, seat: int) -> tuple[Play, ...]:
    hand = state.hands[seat]
    return tuple(Play(c) for c in range(78) if hand >> c & 1)


def play_out_one_trick(state: GameState) -> None:
    tricks = len(state.tricks)
    while len(state.tricks) == tricks:
        apply(state, legal_plays(state)[0], state.to_act)


class TestPartnerRevealed:
    def test_hidden_until_the_called_card_is_played(self) -> None:
        # Seat 2 holds the King of hearts, led by nobody until it must be played.
        deal = make_deal(5, 0, {1: "KS QS", 2: "KH 2D 3D"})
        state = start_play(deal, 1, Contract.GARDE_SANS, call="KH")
        assert state.partner == 2
        seen_hidden = 0
        while not state.partner_revealed:
            for seat in range(5):
                view = observe(state, seat)
                assert view.partner is None, (seat, state)
                assert view.called_card == parse_card("KH")
            seen_hidden += 1
            apply(state, legal_plays(state)[0], state.to_act)
        assert seen_hidden > 1
        last_played = state.history[-1]
        assert last_played == (2, Play(parse_card("KH")))
        for seat in range(5):
            assert observe(state, seat).partner == 2
        play_out(state)
        for seat in range(5):
            assert observe(state, seat).partner == 2

    def test_partner_revealed_at_the_end_even_if_the_card_never_shows(self) -> None:
        """Garde Sans with the called card in the chien: nobody learns anything until the end."""
        deal = make_deal(5, 0, {1: "KS QS"}, chien="KH")
        state = start_play(deal, 1, Contract.GARDE_SANS, call="KH")
        for seat in range(5):
            view = observe(state, seat)
            assert view.partner is None and view.chien is None
        play_out(state)
        assert not state.partner_revealed
        for seat in range(5):
            view = observe(state, seat)
            assert view.partner is None
            assert view.chien == state.deal.chien
            assert view.result is not None and view.result.partner is None

    def test_call_is_public(self) -> None:
        deal = make_deal(5, 0, {1: "KS QS"})
        state = new_game(deal)
        bid_round(state, 1, Contract.PETITE)
        for seat in range(5):
            assert observe(state, seat).called_card is None
            assert observe(state, seat).chien is None  # called before the chien is shown
        apply(state, CallCard(parse_card("KD")), 1)
        assert state.phase is Phase.DISCARDING
        for seat in range(5):
            view = observe(state, seat)
            assert view.called_card == parse_card("KD")
            assert view.chien == deal.chien
