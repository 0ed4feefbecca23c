"""What a seat may see (arena/games/french_tarot/observation.py): its own hand and everything
public, nothing else, until the deal is over."""

from __future__ import annotations

import pytest

from arena.games.french_tarot import (
    Contract,
    Discard,
    GameState,
    Observation,
    Phase,
    TableOptions,
    apply,
    legal_actions,
    observe,
    parse_card,
)
from arena.games.french_tarot.cards import TRUMP_MASK, cards_of

from .builders import act, bid_round, make_deal, new_game, play_out, start_play


def check_view(state: GameState, seat: int, view: Observation) -> None:
    """The invariants of one seat's view of ``state``."""
    over = state.phase is Phase.FINISHED
    assert view.seat == seat
    assert view.phase is state.phase
    assert view.to_act == state.to_act
    assert view.hand == tuple(cards_of(state.hands[seat]))
    assert view.legal_actions == (legal_actions(state) if state.to_act == seat else ())
    assert view.bids == tuple(state.bids)
    assert view.contract is state.contract and view.taker == state.taker
    assert view.called_card == state.called_card
    assert view.tricks == tuple(state.tricks)
    assert view.current_trick == state.current_trick
    assert view.poignees == tuple(state.poignees)
    assert view.discarded_trumps == tuple(state.discarded_trumps)
    assert view.chelem_announced == state.chelem_announced
    if over:
        assert view.deal == state.deal
        assert view.chien == state.deal.chien
        assert view.result == state.result
        assert view.partner == state.partner
        if state.taker is not None:
            assert view.discard == tuple(cards_of(state.discard))
        return
    assert view.deal is None
    assert view.result is None
    chien_public = (
        state.contract is not None
        and state.contract.chien_shown
        and state.phase in (Phase.DISCARDING, Phase.CHELEM, Phase.PLAYING)
    )
    assert view.chien == (state.deal.chien if chien_public else None)
    if seat == state.taker:
        assert view.discard == tuple(cards_of(state.discard))
    else:
        assert view.discard is None
    assert view.partner == (state.partner if state.partner_revealed else None)
    # The discarded trumps are exactly the trumps of the discard, shown to all.
    assert sorted(view.discarded_trumps) == cards_of(state.discard & TRUMP_MASK)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_views_along_random_deals(players: int) -> None:
    options = TableOptions(players=players)
    checked = 0
    for number in range(12):
        state = GameState.from_seed(7000 + 10 * players + number, options, dealer=number % players)
        pick = number
        while True:
            for seat in range(players):
                check_view(state, seat, observe(state, seat))
                checked += 1
            if state.phase is Phase.FINISHED:
                break
            legal = legal_actions(state)
            pick = (pick * 48271 + 11) % 2147483647
            apply(state, legal[pick % len(legal)], state.to_act)
    assert checked > 1000


class TestHidden:
    def test_other_hands_never_shown(self) -> None:
        deal = make_deal(4, 0)
        state = new_game(deal)
        for seat in range(4):
            view = observe(state, seat)
            assert view.hand == deal.hands[seat]
            assert view.deal is None and view.chien is None
            others = {c for s in range(4) if s != seat for c in deal.hands[s]} | set(deal.chien)
            assert not others & set(view.hand)

    def test_chien_hidden_during_bidding_shown_after_petite(self) -> None:
        state = new_game(make_deal(4, 0))
        apply(state, legal_actions(state)[1], 1)  # bid petite
        for seat in range(4):
            assert observe(state, seat).chien is None
        bid_round(state, None)
        assert state.phase is Phase.DISCARDING
        for seat in range(4):
            assert observe(state, seat).chien == state.deal.chien

    def test_taker_sees_the_chien_in_hand_others_do_not(self) -> None:
        deal = make_deal(4, 0, chien="KS KH T21 EX 2C 3C")
        state = new_game(deal)
        bid_round(state, 2, Contract.GARDE)
        assert set(deal.chien) <= set(observe(state, 2).hand)
        for seat in (0, 1, 3):
            assert not set(deal.chien) & set(observe(state, seat).hand)

    @pytest.mark.parametrize("contract", [Contract.GARDE_SANS, Contract.GARDE_CONTRE])
    def test_chien_never_shown_before_the_end(self, contract: Contract) -> None:
        state = start_play(make_deal(4, 0), 3, contract)
        while state.phase is Phase.PLAYING:
            for seat in range(4):
                view = observe(state, seat)
                assert view.chien is None and view.deal is None
            apply(state, legal_actions(state)[-1], state.to_act)
        for seat in range(4):
            assert observe(state, seat).chien == state.deal.chien

    def test_discard_seen_by_the_taker_only_but_its_trumps_by_all(self) -> None:
        taker = "KS KH KD KC T1 T21 EX 2S 3H T2 T3 T4 T5 T6 T7 T8 T9 T10"
        state = new_game(make_deal(4, 0, {1: taker}, chien="4D T11 T12 T13 T14 T15"))
        bid_round(state, 1, Contract.PETITE)
        discards = ["2S", "T11", "3H", "T12", "4D", "T13"]
        for number, name in enumerate(discards, start=1):
            apply(state, Discard(parse_card(name)), 1)
            shown = tuple(parse_card(n) for n in discards[:number] if n.startswith("T"))
            for seat in range(4):
                view = observe(state, seat)
                assert view.discarded_trumps == shown
                if seat == 1:
                    assert view.discard == tuple(
                        sorted(parse_card(n) for n in discards[:number])
                    )
                else:
                    assert view.discard is None
        act(state, "no-chelem")
        play_out(state)
        for seat in range(4):
            view = observe(state, seat)
            assert view.discard == tuple(sorted(parse_card(n) for n in discards))


class TestLegalActions:
    def test_only_the_seat_to_act_gets_them(self) -> None:
        state = start_play(make_deal(5, 0, {1: "KS"}), 1, Contract.GARDE, call="KH")
        while state.phase is not Phase.FINISHED:
            for seat in range(5):
                view = observe(state, seat)
                if seat == state.to_act:
                    assert view.legal_actions == legal_actions(state) != ()
                else:
                    assert view.legal_actions == ()
            apply(state, legal_actions(state)[0], state.to_act)
        assert all(observe(state, seat).legal_actions == () for seat in range(5))


class TestEnd:
    def test_whole_deal_revealed(self) -> None:
        deal = make_deal(5, 2, {0: "KS"}, chien="KH")
        state = start_play(deal, 0, Contract.GARDE_SANS, call="KH")
        play_out(state)
        for seat in range(5):
            view = observe(state, seat)
            assert view.deal == deal
            assert view.chien == deal.chien
            assert view.result == state.result
            assert view.hand == ()
            assert view.to_act is None


def test_seat_out_of_range() -> None:
    state = new_game(make_deal(4, 0))
    for seat in (-1, 4):
        with pytest.raises(ValueError, match="not a seat of a 4-player table"):
            observe(state, seat)


def test_partner_known_tells_alone_from_unknown() -> None:
    """Five players: a partner of None means 'unknown' until partner_known, then 'alone'."""
    import random

    from arena.games.french_tarot import GameState, TableOptions, apply, legal_actions, observe

    rng = random.Random(11)
    seen = {"alone": 0, "partner": 0}
    for seed in range(400):
        state = GameState.from_seed(seed, TableOptions(5))
        while state.to_act is not None:
            for seat in range(5):
                view = observe(state, seat)
                if view.partner_known:
                    assert view.called_card is not None
                    assert view.partner == state.partner
                else:
                    assert view.partner is None
            apply(state, rng.choice(legal_actions(state)))
        if state.result is not None and state.result.called_card is not None:
            seen["alone" if state.partner is None else "partner"] += 1
    assert seen["alone"] > 0 and seen["partner"] > 0
