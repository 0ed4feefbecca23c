"""The heuristic's replies inside the card search: each later seat of the trick plays the card
the heuristic plays from that seat's view of the drawn deal, and the trick ends there."""

from __future__ import annotations

from collections.abc import Iterator

from arena.games.french_tarot import GameState, Phase, Play, legal_actions
from arena.games.french_tarot.cards import cards_of
from arena.games.french_tarot.simulate import copy_state, play_unchecked, playable
from clients.heuristic_bot import choose_card
from clients.search_reply import Replies, heuristic_reply, reply_to_trick

from .positions import random_position, view_of


def card_play_positions(first_seed: int, count: int) -> Iterator[tuple[GameState, int]]:
    """Random positions of 3 to 5 players in the card play, with the seat to act."""
    for number in range(count):
        state = random_position(first_seed + number, 3 + number % 3, min_cards=1)
        if state.phase is Phase.PLAYING and state.to_act is not None:
            yield state, state.to_act


def test_the_replies_are_the_heuristics_cards_to_the_end_of_the_trick() -> None:
    checked = 0
    for state, seat in card_play_positions(4100, 40):
        mask = playable(state)
        play_unchecked(state, (mask & -mask).bit_length() - 1)
        if not state.trick or state.to_act is None:
            continue
        expected = copy_state(state)
        while expected.trick and expected.to_act is not None:
            cards = [a.card for a in legal_actions(expected) if isinstance(a, Play)]
            actor = expected.to_act
            card = cards[0] if len(cards) == 1 else choose_card(view_of(expected, actor), cards)
            assert heuristic_reply(expected) == card
            play_unchecked(expected, card)
            checked += 1
        reply_to_trick(state, seat)
        assert not state.trick
        assert state.history == expected.history
    assert checked > 10


def test_no_replies_at_the_dummys_table() -> None:
    for number in range(20):
        state = random_position(4300 + number, 2, min_cards=1)
        if state.phase is Phase.PLAYING and state.to_act is not None and not state.trick:
            seat = state.to_act
            mask = playable(state)
            play_unchecked(state, (mask & -mask).bit_length() - 1)
            before = list(state.history)
            reply_to_trick(state, seat)
            assert state.history == before
            return
    raise AssertionError("no position to test")


def test_one_decisions_replies_share_what_the_finished_tricks_show() -> None:
    """A card decision's :class:`Replies` answers every card tried as replies read alone do,
    reading the finished tricks once."""
    checked = 0
    for state, seat in card_play_positions(4500, 60):
        answers = Replies()
        for card in cards_of(playable(state)):
            shared, alone = copy_state(state), copy_state(state)
            play_unchecked(shared, card)
            play_unchecked(alone, card)
            answers.to_trick(shared, seat)
            reply_to_trick(alone, seat)
            assert shared.history == alone.history
            checked += 1
        if answers.history is not None:
            assert answers.history.tricks == len(state.tricks)
    assert checked > 100
