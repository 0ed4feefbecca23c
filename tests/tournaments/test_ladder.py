"""The ladder's pure parts and its storage: the rating's fit, the matchmaker, the settings,
and what the database keeps (members, boards from the seed, tables seated and withdrawn)."""

from __future__ import annotations

import random

import pytest

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from tournaments.duplicate.seatings import board_seed
from tournaments.duplicate.settings import SettingsError
from tournaments.ladder.matchmaking import Candidate, Field, OpenBoard, matches
from tournaments.ladder.rating import BASE, Play, comparisons, fit
from tournaments.ladder.settings import LadderSettings, VersionPolicy
from tournaments.storage.ladders import LadderStore, UnknownLadderError
from tournaments.store import TournamentStore


# ------------------------------------------------------------------------------- rating
def boards(strength: dict[int, float], count: int, seed: int = 1) -> list[Play]:
    """Two-player results: on each board two tables of two entries drawn at random, each
    seat's score its entry's strength less its opponent's, plus noise."""
    rng = random.Random(seed)
    out = []
    for board in range(count):
        a, b, c, d = rng.sample(sorted(strength), 4)
        for x, y in ((a, b), (c, d)):
            edge = strength[x] - strength[y] + rng.gauss(0, 1)
            out += [Play(board, 0, x, edge, (y,)), Play(board, 1, y, -edge, (x,))]
    return out


def test_the_fit_orders_known_strengths_and_separates_the_far_apart() -> None:
    strength = {1: 2.0, 2: 1.0, 3: 0.0, 4: -1.0, 5: -2.0}
    ratings = fit(boards(strength, 300), players=2)
    order = sorted(ratings, key=lambda e: -ratings[e].rating)
    assert order == [1, 2, 3, 4, 5]
    assert ratings[1].separated_from(ratings[5]) and ratings[2].separated_from(ratings[4])
    assert abs(sum(r.rating for r in ratings.values()) / 5 - BASE) < 1e-6  # centred


def test_the_fit_is_the_same_whatever_the_order_of_the_results() -> None:
    plays = boards({1: 1.0, 2: 0.0, 3: -0.5, 4: 0.2}, 60)
    shuffled = list(plays)
    random.Random(4).shuffle(shuffled)
    assert fit(plays, players=2) == fit(shuffled, players=2)


def test_more_results_narrow_the_interval_and_an_entry_without_any_has_the_priors() -> None:
    strength = {1: 1.0, 2: 0.0, 3: -1.0, 4: 0.5}
    few = fit(boards(strength, 20), [9], players=2)
    many = fit(boards(strength, 200), [9], players=2)
    assert many[1].high - many[1].low < few[1].high - few[1].low
    assert few[9].comparisons == 0 and few[9].rating == BASE
    assert few[9].high - few[9].low > 2 * (few[1].high - few[1].low)


def test_equal_results_tie_and_only_one_seat_of_one_board_is_compared() -> None:
    tied = [Play(b, 0, e, 10.0, (o,)) for b in range(20) for e, o in ((1, 3), (2, 4))]
    ratings = fit(tied, players=2)
    assert ratings[1].rating == pytest.approx(ratings[2].rating)
    # different seats, or different boards: no comparison at all
    apart = [Play(0, 0, 1, 5.0), Play(0, 1, 2, -5.0), Play(1, 0, 3, 1.0)]
    assert comparisons(apart) == {}


def test_a_result_measures_the_entry_against_its_table() -> None:
    """Beating a random bot by the same margin as a draw against a strong one is no better."""
    found = comparisons([Play(0, 0, 1, 100.0, (3,)), Play(0, 0, 2, 0.0, (4,))], players=2)
    ((contrast, (weight, won, who)),) = found.items()
    assert dict(contrast) == {1: 1.0, 2: -1.0, 3: -1.0, 4: 1.0}
    assert (weight, won, who) == (0.5, 0.5, frozenset({1, 2}))  # two seats say one thing


def test_a_seat_held_by_more_entries_weighs_two_over_their_number() -> None:
    group = [Play(0, 0, e, float(e)) for e in (1, 2, 3, 4)]
    weights = {w for w, _, _ in comparisons(group).values()}
    assert weights == {0.5}


# -------------------------------------------------------------------------- matchmaking
def candidate(bot: str, rating: float = 1500.0, sd: float = 100.0, played: int = 5
              ) -> Candidate:
    return Candidate(bot, rating, sd, played)


def test_the_most_uncertain_plays_first_with_the_closest_ratings() -> None:
    free = [candidate("new", sd=350.0, played=0), candidate("a", 1900.0), candidate("b", 1510.0),
            candidate("c", 1200.0)]
    found = matches(free, {}, Field(2, 8, 0), random.Random(1))
    assert sorted(found[0].bots) == ["b", "new"]


def test_a_meeting_already_played_counts_against_a_pair() -> None:
    free = [candidate("x", sd=300.0), candidate("near", 1510.0), candidate("far", 1580.0)]
    met = {frozenset(("x", "near")): 1}
    assert sorted(matches(free, {}, Field(2, 8, 0), random.Random(1), met)[0].bots) == [
        "far", "x"]


def test_the_oldest_open_board_none_of_them_played_then_a_new_one() -> None:
    open_boards = {0: OpenBoard(0, 1, {"a", "b"}), 1: OpenBoard(1, 1, {"c", "d"}),
                   2: OpenBoard(2, 8, {"e", "f"})}
    free = [candidate(b) for b in "abef"]
    found = matches(free, open_boards, Field(2, 8, 3), random.Random(1))
    assert sorted(m.board for m in found) == [1, 1]  # 0: played by a and b; 2: full
    late = matches([candidate("c"), candidate("d")], open_boards, Field(2, 8, 3),
                   random.Random(1))
    assert [m.board for m in late] == [0]  # the late pair plays the oldest board
    assert matches([candidate("a"), candidate("b")], {0: OpenBoard(0, 1, {"a", "b"})},
                   Field(2, 8, 7), random.Random(1))[0].board == 7


def test_no_bot_is_seated_twice_on_a_board_and_the_seats_even_out() -> None:
    rng = random.Random(2)
    open_boards: dict[int, OpenBoard] = {}
    held: dict[str, list[int]] = {b: [0, 0, 0] for b in "abcdefghi"}
    seen: set[tuple[int, str]] = set()
    for _ in range(40):
        free = [Candidate(b, 1500.0, 100.0, 0, tuple(held[b])) for b in held]
        nxt = max(open_boards, default=-1) + 1
        for m in matches(free, open_boards, Field(3, 3, nxt), rng):
            for seat, bot in enumerate(m.bots):
                assert (m.board, bot) not in seen
                seen.add((m.board, bot))
                held[bot][seat] += 1
    assert all(max(c) - min(c) <= 2 for c in held.values()), held


# ----------------------------------------------------------------------------- settings
@pytest.mark.parametrize(("given", "message"), [
    ({"name": "a b"}, "a ladder's name"),
    ({"name": "ok", "players": 7}, "not 7"),
    ({"name": "ok", "game": "tre-e-venticinque", "players": 4}, "not 4"),
    ({"name": "ok", "tables_per_board": 1}, "tables per board"),
    ({"name": "ok", "boards_per_hour": 0}, "boards per hour"),
    ({"name": "ok", "game_settings": {"beginner": "yes"}}, "beginner"),
    ({"name": "ok", "per_decision": 0}, "time per decision"),
])
def test_bad_settings_are_one_clear_line(given: dict[str, object], message: str) -> None:
    with pytest.raises((SettingsError, ValueError)) as info:
        LadderSettings(**given)  # type: ignore[arg-type]
    assert message in str(info.value) and "\n" not in str(info.value)


def test_settings_round_trip_through_json() -> None:
    settings = LadderSettings(name="l", game="french-tarot", players=5,
                              game_settings={"beginner": True},
                              versions=VersionPolicy.CONTINUE, boards_per_hour=30)
    assert LadderSettings.from_json(settings.to_json()) == settings


# ------------------------------------------------------------------------------ storage
def stores(db_url: str) -> tuple[LadderStore, list[str]]:
    engine = make_engine(db_url)
    registry = BotRegistry(engine)
    return LadderStore(engine), [registry.register(f"b{i}")[0].id for i in range(5)]


def test_the_ladder_plays_on_its_own_tournament_once_two_bots_per_seat_joined(
        db_url: str) -> None:
    ladders, bots = stores(db_url)
    lid = ladders.create(LadderSettings(name="duo", players=2)).id
    for bot in bots[:3]:
        assert ladders.join("duo", bot)
    assert not ladders.join("duo", bots[0])  # already in
    assert ladders.ladder("duo").tournament_id is None
    ladders.join(lid, bots[3])
    tid = ladders.ladder("duo").tournament_id
    assert tid is not None
    tournament = TournamentStore(ladders.engine).tournament(tid)
    assert tournament.status is TournamentStatus.FINISHED and tournament.seed == "0"
    ladders.join(lid, bots[4])
    assert TournamentStore(ladders.engine).settings(tid).bots == tuple(bots)
    with pytest.raises(SettingsError, match="exists already"):
        ladders.create(LadderSettings(name="duo", players=2))
    with pytest.raises(UnknownLadderError, match="no ladder named 'trio'"):
        ladders.ladder("trio")
    BotRegistry(ladders.engine).revoke(bots[2])
    ladders.leave(lid, bots[2])
    with pytest.raises(SettingsError, match="revoked"):
        ladders.join(lid, bots[2])


def test_boards_deal_from_the_ladders_seed_and_a_bot_holds_one_seat_of_a_board(
        db_url: str) -> None:
    ladders, bots = stores(db_url)
    lid = ladders.create(LadderSettings(name="duo", players=2), seed=99).id
    for bot in bots[:4]:
        ladders.join(lid, bot)
    entry = {b: ladders.entry_for(lid, b, "", VersionPolicy.NEW_ENTRY) for b in bots[:4]}
    ids = ladders.seat(lid, [(3, [(bots[0], entry[bots[0]]), (bots[1], entry[bots[1]])])])
    assert len(ids) == 1
    tid = ladders.ladder(lid).tournament_id
    assert tid is not None
    (board,) = TournamentStore(ladders.engine).boards(tid)
    assert (board.number, int(board.deal_seed)) == (3, board_seed(99, 3))
    # bots[0] on board 3 again: refused whole, nothing stored
    again = [(3, [(bots[2], entry[bots[2]]), (bots[0], entry[bots[0]])])]
    assert ladders.seat(lid, again) == []
    state = ladders.field(lid)
    assert state.boards == {3: (1, {bots[0], bots[1]})} and state.next_board == 4
    assert state.busy == {bots[0], bots[1]} and state.unplayed == 1
    assert ladders.withdraw(ids) == 1 and ladders.field(lid).unplayed == 0
