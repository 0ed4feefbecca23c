"""Equivalent cards: the card search plays out one card of each class
(:func:`clients.search_rollout.equivalent_classes`) because its members score the same on every
drawn deal. Checked on random positions by playing every legal card out on the same draws."""

from __future__ import annotations

import pytest

from arena.games.french_tarot import Play
from arena.games.french_tarot.cards import EXCUSE, MONDE, PETIT, suit_card, trump
from clients.search_bot import SearchBot
from clients.search_rollout import equivalent_classes

from .positions import request_of, view_of
from .test_search_bot import playing_positions

ROLLOUTS = {
    "quick rollout, 3-5 players": ({}, (3, 4, 5)),
    "rules rollout, 3-5 players": ({"rollout": "rules"}, (3, 4, 5)),
    "exact solver at the end": ({"solver_cards": 3}, (3, 4, 5)),
    "quick rollout, 2 players": ({}, (2,)),
}


def test_classes_join_only_plain_cards_with_nothing_live_between() -> None:
    hearts = [suit_card(1, rank) for rank in (1, 2, 4, 9, 10, 11)]  # 2, 3, 5, 10, J, Q
    gone = 1 << suit_card(1, 3)  # the 4 was played: 3 and 5 join; 2 and 3 are neighbours
    classes = equivalent_classes(hearts, gone | sum(1 << c for c in hearts))
    assert classes == [hearts[:3], [hearts[3]], [hearts[4]], [hearts[5]]]
    trumps = [PETIT, trump(2), trump(3), trump(20), MONDE, EXCUSE]
    assert equivalent_classes(trumps, sum(1 << c for c in trumps)) == [
        [PETIT], [trump(2), trump(3)], [trump(20)], [MONDE], [EXCUSE]]
    # A card between them still out keeps them apart.
    assert equivalent_classes([trump(2), trump(4)], (1 << trump(2)) | (1 << trump(4))) == [
        [trump(2)], [trump(4)]]


@pytest.mark.parametrize(("options", "players"), ROLLOUTS.values(), ids=ROLLOUTS.keys())
def test_a_class_scores_the_same_on_every_draw(
        options: dict[str, object], players: tuple[int, ...]) -> None:
    """Every legal card played out (``merge=False``) on the same draws: the members of each
    class score alike on each draw, and the merged search returns exactly those scores."""
    whole = SearchBot(samples=6, seed=5, merge=False, **options)  # type: ignore[arg-type]
    merged = SearchBot(samples=6, seed=5, **options)  # type: ignore[arg-type]
    joined = 0
    for state in playing_positions(400, players):
        request = request_of(state)
        view = view_of(state, request.player).with_request(request)
        cards = [a.card for a in request.legal_actions if isinstance(a, Play)]
        if len(cards) < 2:
            continue
        scores = whole.evaluate(view, cards, None)
        tried = merged.card_classes(view, cards)
        where = merged.class_index(cards, tried)
        for draw in scores:
            for i, card in enumerate(cards):
                first = cards.index(tried[where[i]][0])
                assert draw[i] == draw[first], (card, tried)
        assert merged.evaluate(view, cards, None) == scores
        joined += len(cards) - len(tried)
    assert joined >= 30  # classes of more than one card are common enough to be tested
