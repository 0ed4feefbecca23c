"""The dealer's discard: three cards face down, never a King, a trump or the Matto; it counts for
the dealer; then the seat after the dealer leads."""

from __future__ import annotations

import pytest

from arena.games.base import IllegalActionError, WrongTurnError
from arena.games.tre_e_venticinque import (
    DealState,
    Discard,
    Phase,
    Play,
    apply,
    legal_actions,
    parse_card,
)
from arena.games.tre_e_venticinque.cards import KINGS_MASK, MATTO_BIT, TRUMP_MASK, cards_of

from .builders import cards, legal_cards, make_deal, mask, play, thirds


def test_the_dealer_discards_three_cards_one_at_a_time_then_the_next_seat_leads() -> None:
    state = DealState(make_deal(dealer=1))
    assert state.to_act == 1
    for _ in range(3):
        assert state.phase is Phase.DISCARDING
        apply(state, legal_actions(state)[0], 1)
    assert state.phase is Phase.PLAYING
    assert state.to_act == 2 and state.trick_leader == 2
    assert state.discard.bit_count() == 3
    assert state.hands[1].bit_count() == 25


def test_kings_trumps_and_the_matto_are_never_offered() -> None:
    deal = make_deal(0, hands={0: "KS KH T1 T21 T5 M 2S"}, talon="KD QD 3C")
    state = DealState(deal)
    offered = {a.card for a in legal_actions(state)}
    assert all(isinstance(a, Discard) for a in legal_actions(state))
    assert not any(mask_bit & (KINGS_MASK | TRUMP_MASK | MATTO_BIT)
                   for mask_bit in (1 << c for c in offered))
    assert {parse_card("2S"), parse_card("QD"), parse_card("3C")} <= offered


@pytest.mark.parametrize(
    ("card", "reason"),
    [
        ("KS", "a King may never be discarded"),
        ("T5", "trump 5 is a trump: trumps may never be discarded"),
        ("T21", "trump 21 \\(il Mondo\\) is a trump"),
        ("M", "the Matto may never be discarded"),
        ("2H", "2H is not in the dealer's hand"),
    ],
)
def test_a_discard_with_a_king_a_trump_or_the_matto_is_refused_clearly(
    card: str, reason: str
) -> None:
    deal = make_deal(0, hands={0: "KS T5 T21 M", 1: "2H"})
    state = DealState(deal)
    before = state.hands[0]
    with pytest.raises(IllegalActionError, match=reason):
        apply(state, Discard(parse_card(card)))
    assert state.hands[0] == before and state.discard == 0  # unchanged


def test_only_the_dealer_acts_during_the_discard_and_nobody_plays_yet() -> None:
    state = DealState(make_deal(0))
    with pytest.raises(WrongTurnError, match="seat 0's turn, not seat 1's"):
        apply(state, Discard(state.deal.hands[1][0]), 1)
    with pytest.raises(IllegalActionError, match="discards three cards before the first trick"):
        apply(state, Play(legal_actions(state)[0].card))


def test_no_discard_once_play_has_begun() -> None:
    state = DealState(make_deal(0))
    for _ in range(3):
        apply(state, legal_actions(state)[0])
    with pytest.raises(IllegalActionError, match="the discard is over"):
        apply(state, Discard(next(iter(cards("AS")))))


def test_the_discard_counts_for_the_dealer() -> None:
    deal = make_deal(2, hands={2: "QS CS JS"})
    state = DealState(deal)
    for card in ("QS", "CS", "JS"):
        apply(state, Discard(parse_card(card)))
    while state.to_act is not None:
        apply(state, legal_actions(state)[0])
    result = state.result
    assert result is not None
    assert result.discard_thirds == thirds(cards("QS CS JS")) == 27
    trick_points = [thirds(cards_of(pile)) for pile in state.piles]
    assert result.points[2] == trick_points[2] + 27
    assert result.points[:2] == tuple(trick_points[:2])
    assert sum(result.points) == 233


def test_a_dealer_short_of_other_cards_completes_the_discard_with_plain_trumps() -> None:
    """Every King, every trump and the Matto (26 cards) in the dealer's 28: two other cards, so
    the third is a plain trump (2..20), never the 1 or the 21 (the engine's settlement of a case
    the seed does not foresee)."""
    everything = "KS KH KD KC M " + " ".join(f"T{n}" for n in range(1, 22))
    deal = make_deal(0, hands={0: everything[: everything.rindex(" T")]}, talon="T21 2S 3S")
    state = DealState(deal)
    assert state.hands[0] & mask(everything) == mask(everything)
    plain = " ".join(f"T{n}" for n in range(2, 21))
    assert legal_cards(state) == f"2S 3S {plain}"
    apply(state, Discard(parse_card("T7")))
    assert legal_cards(state) == "2S 3S"  # one trump is enough: the others must go now
    apply(state, Discard(parse_card("2S")))
    apply(state, Discard(parse_card("3S")))
    assert state.phase is Phase.PLAYING
    play(state, legal_cards(state).split()[0])
