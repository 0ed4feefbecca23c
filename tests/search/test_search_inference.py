"""The search's reading of the bids: a draw agrees with a seat's bid when the rules would have
said it holding the drawn hand, and the reader keeps mostly the draws that agree."""

from __future__ import annotations

from arena.games.french_tarot import Contract, GameState, Phase, TableOptions, apply, legal_actions
from arena.games.french_tarot.cards import cards_of
from clients.heuristic_bot import wanted_contract
from clients.sdk import Sampler
from clients.search_bidding import rules_bid
from clients.search_inference import BidReader, Spoken, agrees, spoken

from .positions import view_of

CONTRACTS = TableOptions(players=4).contracts


def bid_by_the_rules(seed: int) -> GameState:
    """A 4-player deal bid by the heuristic's rules, at its first card (or passed out)."""
    state = GameState.from_seed(seed, TableOptions(players=4), dealer=seed % 4)
    while state.phase is Phase.BIDDING:
        apply(state, rules_bid(state))
    while state.phase not in (Phase.PLAYING, Phase.FINISHED):
        apply(state, legal_actions(state)[0])
    return state


def test_a_word_agrees_with_the_hands_the_rules_would_have_said_it_with() -> None:
    for seed in range(40):
        hand = GameState.from_seed(seed, TableOptions(players=4), dealer=0).hands[1]
        wanted = wanted_contract(cards_of(hand), 4)
        assert agrees(Spoken(1, None, None), hand, 4, CONTRACTS) == (wanted is None)
        if wanted is not None:
            assert agrees(Spoken(1, wanted, None), hand, 4, CONTRACTS)
            assert agrees(Spoken(1, None, wanted), hand, 4, CONTRACTS)  # outbid: it passes
            if wanted > Contract.PETITE:
                assert not agrees(Spoken(1, Contract.PETITE, None), hand, 4, CONTRACTS)


def test_the_reader_keeps_mostly_draws_that_agree_with_the_bids() -> None:
    agreed = {"uniform": 0, "read": 0}
    played = [s for s in map(bid_by_the_rules, range(30)) if s.phase is Phase.PLAYING][:12]
    for state in played:
        seat = (state.taker + 1) % 4  # type: ignore[operator]
        view = view_of(state, seat)
        words = spoken(view)
        assert [w.seat for w in words] == [s for s, _ in state.bids if s != seat]
        uniform = Sampler(view, seed=1, exact_limit=0)
        reader = BidReader(view, Sampler(view, seed=1, exact_limit=0), 0.05, seed=2)
        for _ in range(4):
            for name, sample in (("uniform", uniform.sample()), ("read", reader.sample())):
                hands, _ = sample.dealt_masks()
                agreed[name] += all(agrees(w, hands[w.seat], 4, CONTRACTS) for w in words)
    assert agreed["read"] > 2 * agreed["uniform"]
