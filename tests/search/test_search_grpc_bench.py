"""bench.search_grpc plays a real tournament over gRPC, each part a process of its own, and
reads its figures back from the arena's database."""

from __future__ import annotations

from pathlib import Path

from bench.search_grpc import parse, run


def test_a_small_run_reports_the_search_bots_decisions_as_the_arena_timed_them(
    tmp_path: Path,
) -> None:
    logs = tmp_path / "logs"
    args = parse(["--players", "3", "--boards", "1", "--tables", "3", "--per-decision", "0.05",
                  "--logs", str(logs)])
    figures = run(args)
    assert figures["tables"] == 3 and figures["tables_at_once"] == 3
    assert figures["search_decisions"] >= 3  # a bid at each table at least
    # The arena never waits past the limit (no bank): a timeout is counted at the limit.
    seconds = (figures["search_seconds_p50"], figures["search_seconds_p99"],
               figures["search_seconds_max"])
    assert 0 < seconds[0] <= seconds[1] <= seconds[2] <= 0.05 + 0.05
    assert set(figures["others_infractions"]) == {"o2", "o3"}
    # --logs keeps every process's log once the temporary folder is gone.
    assert sorted(p.name for p in logs.iterdir()) == ["o2.log", "o3.log", "s.log", "serve.log"]
    assert "connected to" in (logs / "s.log").read_text()
