"""The page's data layer: the cache of a tournament's standings and its background refresh,
and the cumulative score's interval."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from arena.games.french_tarot import DealRecord, replay
from arena.games.french_tarot.definition import FRENCH_TAROT
from arena.storage.db import make_engine
from tests.web.arena_data import build
from tournaments.duplicate.scoring import Entry, compute_standings
from tournaments.duplicate.stats import mean_interval
from tournaments.store import TournamentStore
from tournaments.web.replay import replay_steps
from tournaments.web.views import WebData, cumulative_scores

GOLDEN = Path(__file__).parent.parent / "french_tarot" / "golden"


def test_standings_are_cached_until_a_table_finishes_then_refreshed(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/arena.db")
    data = build(TournamentStore(engine))
    web = WebData(engine, idle_ratio=0)
    first = web.tournament(data.running)
    assert web.tournament(data.running) is first  # nothing changed: the cached one
    assert web.refresh() == 0
    data.finish_running_table()
    assert web.refresh() == 1  # recomputed in the background, before anyone asks
    again = web.tournament(data.running)
    assert again is not first and again.progress.done == first.progress.done + 1
    assert web.tournament(data.running) is again
    engine.dispose()


def test_standings_costly_to_compute_are_not_computed_again_at_once(tmp_path: Path) -> None:
    """A tournament whose standings took T to compute is not recomputed within IDLE_RATIO x T:
    the page serves the last ones meanwhile (here the ratio is huge: never)."""
    engine = make_engine(f"sqlite:///{tmp_path}/arena.db")
    data = build(TournamentStore(engine))
    patient, eager = WebData(engine, idle_ratio=1e9), WebData(engine, idle_ratio=0)
    first = patient.tournament(data.running)
    data.finish_running_table()
    assert patient.refresh() == 0 and patient.tournament(data.running) is first
    assert eager.tournament(data.running).progress.done == first.progress.done + 1
    patient.forget()
    assert patient.tournament(data.running).progress.done == first.progress.done + 1
    engine.dispose()


def test_the_cumulative_interval_is_the_mean_interval_times_the_boards() -> None:
    scores = [120, -40, 300, 10, -220, 75]
    entries = []
    for board, score in enumerate(scores):
        entries += [Entry(board, 0, f"t{board}a", "a", score), Entry(board, 0, f"t{board}b",
                                                                      "b", -score)]
    standings = compute_standings(entries)
    points = cumulative_scores(standings)["a"]
    assert [b for b, _, _ in points] == list(range(len(scores)))
    assert math.isinf(points[0][2])
    for k in range(2, len(scores) + 1):
        datums = scores[:k]  # a's datum: its score minus the mean of a and b
        interval = mean_interval([float(d) for d in datums])
        assert math.isclose(points[k - 1][1], sum(datums))
        assert math.isclose(points[k - 1][2], k * interval.half_width, rel_tol=1e-9)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_the_replay_of_every_golden_deal(path: Path) -> None:
    """Every kind of deal the rules know (chelem, poignées with hidden trumps, five players,
    all passed...) steps through the viewer: one step per action, each described in words,
    the hands emptied by the end, every trick with its winner, the poignées shown with their
    cards."""
    record = DealRecord.loads(path.read_text())
    viewer = replay_steps(FRENCH_TAROT, record, [])
    assert viewer is not None
    steps = viewer["steps"]
    assert len(steps) == len(record.actions) + 1
    for step, (seat, action) in zip(steps[1:], record.actions, strict=True):
        assert step["seat"] == seat
        assert step["text"] and step["text"] != str(action), step["text"]
    state = replay(record)
    if state.tricks:
        assert all(hand == [] for hand in steps[-1]["hands"])
        assert sum(steps[-1]["won"]) == len(state.tricks)
    assert [(t["leader"], t["winner"]) for t in viewer["tricks"]] == [
        (t.leader, t.winner) for t in state.tricks]
    poignees = next((f for f in viewer["facts"] if f["title"] == "Poignées"), None)
    shown = [] if poignees is None else [line["cards"] for line in poignees["lines"]]
    assert shown == [list(p.cards) for p in state.poignees]


def test_live_pages_share_one_look_at_the_database(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/arena.db")
    data = build(TournamentStore(engine))
    web = WebData(engine)
    looks = []
    real = WebData.version

    def counted(self: WebData, tournament_id: str) -> str:
        looks.append(tournament_id)
        return real(self, tournament_id)

    monkeypatch.setattr(WebData, "version", counted)
    first = web.recent_version(data.running, max_age=60)
    assert all(web.recent_version(data.running, max_age=60) == first for _ in range(50))
    assert looks == [data.running]
    data.finish_running_table()
    assert web.recent_version(data.running, max_age=0) != first
    assert len(looks) == 2
    engine.dispose()


def test_the_page_seals_what_the_store_seals(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/arena.db")
    data = build(TournamentStore(engine))
    web = WebData(engine)
    for tid in (data.finished, data.running, data.sealed):
        head = web.head(tid)
        assert head.sealed == data.store.sealed(tid)
        assert head.seed == data.store.public_seed(tid)
    assert web.head(data.sealed).sealed and web.head(data.sealed).seed is None
    engine.dispose()


def test_a_bot_page_is_cached_until_one_of_its_tournaments_changes(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/arena.db")
    data = build(TournamentStore(engine))
    web = WebData(engine, idle_ratio=0)
    bot = next(b for b, n in data.names.items() if n == "heuristic")
    first = web.bot(bot)
    assert web.bot(bot)["latency"] is first["latency"]  # cached (versions are read anew)
    data.finish_running_table()
    again = web.bot(bot)
    assert again["latency"] is not first["latency"]
    # the table's board is still being played at another table: its times are not shown yet
    assert again["latency"][""].decisions == first["latency"][""].decisions
    data.play(data.running, 1)  # the board's last table
    assert web.bot(bot)["latency"][""].decisions > first["latency"][""].decisions
    engine.dispose()
