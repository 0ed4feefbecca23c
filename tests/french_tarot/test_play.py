"""Playing the cards (RULES.md 1, "Play"): following, trumping, overtrumping, the Excuse, who wins
a trick and who leads."""

from __future__ import annotations

import pytest

from arena.games.french_tarot import (
    EXCUSE,
    Contract,
    GameState,
    IllegalActionError,
    Phase,
    Play,
    TableOptions,
    WrongTurnError,
    apply,
    legal_actions,
    parse_card,
    suit_card,
)
from arena.games.french_tarot.cards import Card, is_trump, suit_of

from .builders import cards, legal_plays, make_deal, play, plays, snapshot, start_play

# Four players, dealer 0: seat 1 leads the first trick. Every hand is given in full.
DEAL_A = {
    1: "AS 3S 4S 6S 7S 8S 9S 10S JS CS KS T1 T2 T5 T6 T7 T9 T12",
    2: "2S 5S QS 3H 4H 5H 6H 2D 3D 4D 5D 6D T3 T10 T15 T20 EX AC",
    3: "7H 8H 9H 10H JH 7D 8D 9D 10D JD 2C 3C 4C 5C T4 T8 T11 T13",
    0: "CH QH KH CD QD KD 6C 7C 8C 9C 10C JC CC QC KC AH 2H AD",
}
# Chien: T14 T16 T17 T18 T19 T21.

DEAL_B = {
    1: "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH CH QH KH T21 T19 T17 T16",
    2: "T3 T10 T15 T20 5S 6S 7S 8S 9S 10S JS CS QS KS AD 2D 3D EX",
    3: "T4 T8 T11 T13 T18 5D 6D 7D 8D 9D 10D JD CD QD KD AC 2C 3C",
    0: "T2 T5 T7 4C 5C 6C 7C 8C 9C 10C JC CC QC KC AS 2S 3S 4S",
}
# Chien: 4D T1 T6 T9 T12 T14.


def table(hands: dict[int, str], taker: int = 1, *, chelem: bool = False) -> GameState:
    return start_play(make_deal(4, 0, hands), taker, Contract.GARDE_SANS, chelem=chelem)


def refused(state: GameState, card: str, reason: str) -> None:
    """Playing ``card`` is refused with ``reason`` and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, Play(parse_card(card)), state.to_act)
    assert info.value.reason == reason
    assert info.value.seat == state.to_act
    assert info.value.action == Play(parse_card(card))
    assert snapshot(state) == before


class TestSuitLed:
    def test_follow_suit_without_going_higher(self) -> None:
        state = table(DEAL_A)
        play(state, "9S")
        assert state.to_act == 2
        assert legal_plays(state) == plays("2S 5S QS EX")
        refused(state, "3H", "must follow spades")
        refused(state, "T20", "must follow spades")

    def test_must_trump_without_the_suit(self) -> None:
        state = table(DEAL_A)
        play(state, "9S 2S")
        assert legal_plays(state) == plays("T4 T8 T11 T13")
        refused(state, "7H", "must trump")
        refused(state, "2C", "must trump")

    def test_anything_with_neither_suit_nor_trump(self) -> None:
        state = table(DEAL_A)
        play(state, "9S 2S T8")
        assert legal_plays(state) == plays(DEAL_A[0])

    def test_higher_off_suit_card_does_not_win(self) -> None:
        deal = make_deal(4, 0, {
            0: "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH CH QH KH AD 2D 3D 4D",
            1: "3S", 2: "9S", 3: "2S",
        })
        state = start_play(deal, 1, Contract.GARDE_SANS)
        play(state, "3S 9S 2S KH")
        trick = state.tricks[0]
        assert trick.cards == tuple(cards("3S 9S 2S KH"))
        assert trick.leader == 1
        assert trick.winner == 2
        assert state.to_act == 2 and state.trick_leader == 2

    def test_trump_wins_over_the_suit(self) -> None:
        state = table(DEAL_A)
        play(state, "9S QS T8 KH")
        assert state.tricks[0].winner == 3
        assert state.to_act == 3
        assert state.trick == []

    def test_following_after_a_trump_is_still_just_following(self) -> None:
        """A trump in the trick does not oblige a seat that holds the led suit."""
        state = table(DEAL_A)
        play(state, "9S QS T8 KH")  # seat 3 leads the second trick
        play(state, "7H")
        assert legal_plays(state) == plays("AH 2H CH QH")  # seat 0 follows hearts
        play(state, "AH")
        assert legal_plays(state) == plays("T1 T2 T5 T6 T7 T9 T12")  # seat 1: no heart
        play(state, "T1")
        # Seat 2 holds hearts: it follows, low, even though a trump is in the trick.
        assert legal_plays(state) == plays("3H 4H 5H 6H EX")
        play(state, "3H")
        assert state.tricks[1].winner == 1


class TestOvertrumping:
    def test_any_trump_when_the_trick_has_none(self) -> None:
        state = table(DEAL_B)
        play(state, "5H")
        assert legal_plays(state) == plays("T3 T10 T15 T20 EX")
        refused(state, "AD", "must trump")

    def test_must_overtrump_even_over_a_partner(self) -> None:
        # Seats 2 and 3 both defend against seat 1.
        state = table(DEAL_B)
        play(state, "5H T15")
        assert legal_plays(state) == plays("T18")
        refused(state, "T11", "must play a trump higher than 15")
        refused(state, "T4", "must play a trump higher than 15")
        refused(state, "5D", "must trump")

    def test_undertrump_when_unable_to_overtrump(self) -> None:
        state = table(DEAL_B)
        play(state, "5H T15 T18")
        assert legal_plays(state) == plays("T2 T5 T7")
        refused(state, "4C", "must trump")
        play(state, "T2")
        assert state.tricks[0].winner == 3

    def test_five_player_partner_must_overtrump_the_taker(self) -> None:
        deal = make_deal(5, 4, {
            0: "5S",
            1: "T10 T11 KD QD CD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
            2: "KH T5 T12 AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH CH",
        })
        state = start_play(deal, 1, Contract.GARDE_SANS, call="KH")
        assert state.partner == 2
        assert state.to_act == 0
        play(state, "5S")
        assert legal_plays(state) == plays("T10 T11")
        play(state, "T10")
        assert legal_plays(state) == plays("T12")
        refused(state, "T5", "must play a trump higher than 10")


class TestTrumpLed:
    def state_after_first_trick(self) -> GameState:
        state = table(DEAL_B)
        play(state, "5H T15 T18 T2")
        assert state.to_act == 3
        return state

    def test_must_play_a_higher_trump(self) -> None:
        state = self.state_after_first_trick()
        play(state, "T11")
        # Seat 0: T5 and T7, neither higher than 11: any trump, but a trump.
        assert legal_plays(state) == plays("T5 T7")
        refused(state, "4C", "must play a trump")
        play(state, "T7")
        assert legal_plays(state) == plays("T16 T17 T19 T21")
        play(state, "T16")
        # Seat 2 must beat the 16, the highest trump of the trick, not just the 11 led.
        assert legal_plays(state) == plays("T20 EX")
        refused(state, "T10", "must play a trump higher than 16")
        refused(state, "T3", "must play a trump higher than 16")
        refused(state, "5S", "must play a trump")
        play(state, "T20")
        assert state.tricks[1].winner == 2
        assert state.to_act == 2

    def test_anything_without_trumps(self) -> None:
        state = table(DEAL_A)
        play(state, "9S QS T8 KH")  # seat 3 leads
        play(state, "T4")
        assert legal_plays(state) == plays(DEAL_A[0].replace("KH ", ""))


class TestExcuse:
    def test_excuse_led_the_next_card_sets_the_suit(self) -> None:
        state = table(DEAL_B)
        play(state, "5H T15 T18 T2")  # seat 3 wins
        play(state, "T11 T7 T16 T20")  # seat 2 wins
        play(state, "EX")
        hand3 = "T4 T8 T13 5D 6D 7D 8D 9D 10D JD CD QD KD AC 2C 3C"
        assert legal_plays(state) == plays(hand3)  # anything may follow the Excuse
        play(state, "5D")
        assert legal_plays(state) == plays("T5")  # seat 0: no diamond, must trump
        play(state, "T5")
        assert legal_plays(state) == plays("T17 T19 T21")  # seat 1 must overtrump
        play(state, "T17")
        trick = state.tricks[2]
        assert trick.cards[0] == EXCUSE
        assert trick.winner == 1

    def test_excuse_led_then_a_trump_sets_trumps(self) -> None:
        state = table(DEAL_B)
        play(state, "5H T15 T18 T2 T11 T7 T16 T20 EX T8")
        assert legal_plays(state) == plays("T5")  # must trump, none higher than 8
        play(state, "T5")
        assert legal_plays(state) == plays("T17 T19 T21")
        refused(state, "AH", "must play a trump")

    def test_excuse_is_playable_instead_of_following(self) -> None:
        state = table(DEAL_A)
        play(state, "9S")
        play(state, "EX")
        assert legal_plays(state) == plays("T4 T8 T11 T13")  # the Excuse sets nothing
        play(state, "T4")
        play(state, "KH")
        assert state.tricks[0].winner == 3

    def test_excuse_never_wins_an_ordinary_trick(self) -> None:
        deal = make_deal(4, 0, {1: "EX AS", 2: "2S", 3: "3S", 0: "4S"})
        state = start_play(deal, 1, Contract.GARDE_SANS)
        play(state, "EX 2S 3S 4S")
        assert state.tricks[0].winner == 0
        assert state.to_act == 0


class TestLeads:
    def test_first_seat_leads_without_a_chelem(self) -> None:
        state = table(DEAL_B, taker=3)
        assert state.to_act == 1 and state.trick_leader == 1
        assert state.chelem_announced is False

    @pytest.mark.parametrize("taker", [0, 2, 3])
    def test_chelem_announced_taker_leads(self, taker: int) -> None:
        state = table(DEAL_B, taker=taker, chelem=True)
        assert state.chelem_announced is True
        assert state.to_act == taker and state.trick_leader == taker
        assert legal_plays(state) == tuple(
            Play(c) for c in range(78) if state.hands[taker] >> c & 1
        )

    def test_leader_may_lead_anything(self) -> None:
        state = table(DEAL_A)
        assert legal_plays(state) == plays(DEAL_A[1])

    def test_winner_leads_the_next_trick(self) -> None:
        state = table(DEAL_B)
        play(state, "5H T15 T18 T2")
        assert state.tricks[0].winner == 3 and state.to_act == 3
        play(state, "T11 T7 T16 T20")
        assert state.tricks[1].winner == 2 and state.to_act == 2
        assert state.tricks[1].leader == 3
        assert not state.current_trick
        play(state, "EX 5D")
        assert state.current_trick == ((2, EXCUSE), (3, parse_card("5D")))

    def test_playing_out_of_turn(self) -> None:
        state = table(DEAL_A)
        before = snapshot(state)
        with pytest.raises(WrongTurnError, match="seat 1's turn, not seat 2's"):
            apply(state, Play(parse_card("2S")), 2)
        assert snapshot(state) == before

    def test_card_not_in_hand(self) -> None:
        state = table(DEAL_A)
        refused(state, "2S", "2S is not in this hand")
        play(state, "9S")
        refused(state, "AS", "AS is not in this hand")

    def test_no_actions_once_over(self) -> None:
        state = table(DEAL_A)
        while state.phase is Phase.PLAYING:
            apply(state, legal_plays(state)[0], state.to_act)
        assert legal_actions(state) == ()
        assert state.to_act is None
        with pytest.raises(IllegalActionError, match="the deal is over"):
            apply(state, Play(parse_card("AS")))


# A reference implementation of the playing rules, written from RULES.md without the engine's
# bit tricks, to compare with on random deals.


def reference_legal(hand: list[Card], trick: list[Card]) -> set[Card]:
    real = [c for c in trick if c != EXCUSE]
    if not real:
        return set(hand)
    led = real[0]
    trumps = [c for c in hand if is_trump(c)]
    excuse = {EXCUSE} & set(hand)
    if not is_trump(led):
        follow = [c for c in hand if suit_of(c) == suit_of(led)]
        if follow:
            return set(follow) | excuse
    if not trumps:
        return set(hand)
    played_trumps = [c for c in real if is_trump(c)]
    if played_trumps:
        higher = [c for c in trumps if c > max(played_trumps)]
        if higher:
            return set(higher) | excuse
    return set(trumps) | excuse


def reference_winner(leader: int, cards: tuple[Card, ...], players: int) -> int:
    real = [(i, c) for i, c in enumerate(cards) if c != EXCUSE]
    trumps = [(c, i) for i, c in real if is_trump(c)]
    if trumps:
        index = max(trumps)[1]
    else:
        led = suit_of(real[0][1])
        index = max((c, i) for i, c in real if suit_of(c) == led)[1]
    return (leader + index) % players


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deals_match_the_reference(players: int) -> None:
    """Every decision of 40 random deals: legal plays, refusals, trick winners, who leads."""
    options = TableOptions(players=players)
    for number in range(40):
        state = GameState.from_seed(1000 * players + number, options, dealer=number % players)
        pick = number * 7919
        while state.phase is not Phase.FINISHED:
            legal = legal_actions(state)
            if state.phase is Phase.PLAYING:
                seat = state.to_act
                assert seat is not None
                hand = [c for c in range(78) if state.hands[seat] >> c & 1]
                expected = reference_legal(hand, state.trick)
                if not state.tricks and not state.trick and state.called_card is not None:
                    called = state.called_card
                    allowed = {c for c in expected
                               if suit_of(c) != suit_of(called) or c == called}
                    expected = allowed or expected
                got = {a.card for a in legal if isinstance(a, Play)}
                assert got == expected, (state, state.trick)
                if number % 8 == 0:
                    for card in set(hand) - got:
                        before = len(state.history)
                        with pytest.raises(IllegalActionError) as info:
                            apply(state, Play(card), seat)
                        assert info.value.reason
                        assert len(state.history) == before
                tricks_before = len(state.tricks)
            pick = (pick * 1103515245 + 12345) % (1 << 31)
            action = legal[pick % len(legal)]
            apply(state, action, state.to_act)
            if isinstance(action, Play) and len(state.tricks) > tricks_before:
                done = state.tricks[-1]
                expected_winner = reference_winner(done.leader, done.cards, players)
                last = len(state.tricks) == {3: 24, 4: 18, 5: 15}[players]
                if not (last and done.cards[0] == EXCUSE):
                    assert done.winner == expected_winner
                if not last:
                    assert state.to_act == done.winner
        assert state.result is not None
        assert sum(state.result.scores) == 0


def test_suit_card_helper_matches_notation() -> None:
    """The tests above rely on the notation; pin two ids so a typo cannot hide."""
    assert parse_card("CD") == suit_card(2, 11)
    assert parse_card("10H") == suit_card(1, 9)


def test_copy_branches_without_touching_the_original() -> None:
    state = table(DEAL_B)
    play(state, "5H T15")
    branch = state.copy()
    play(branch, "T18 T2")
    assert len(branch.tricks) == 1 and branch.to_act == 3
    assert state.tricks == [] and state.to_act == 3
    assert legal_plays(state) == plays("T18")
    play(state, "T18 T2")
    assert state.tricks == branch.tricks and state.hands == branch.hands
