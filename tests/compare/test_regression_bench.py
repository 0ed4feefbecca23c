"""The regression bench's record of the boards it played: read back as played, and played again
when the record is missing or unreadable."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import regression
from bench.duplicate import Board


def test_boards_recorded_once_are_read_back_as_played(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regression, "CACHE", tmp_path / "cache")
    chunk = regression.Chunk("poignee", False, 25, 2)
    boards = [Board(-15.25, 25.0, (30, -10, -10, -10), (45, -15, -15, -15), (False,) * 4),
              Board(0.0, 0.0, (0, 0, 0, 0), (0, 0, 0, 0), (True, False, False, False))]
    key = regression.fingerprint()
    assert regression.recorded(chunk, key) is None
    regression.record(chunk, key, boards)
    assert regression.recorded(chunk, key) == boards
    assert regression.recorded(chunk, "another-code") is None  # the code changed: play again
    assert regression.recorded(regression.Chunk("poignee", True, 25, 2), key) is None
    regression.chunk_file(chunk, key).write_text("[{\"datum\": ")  # cut short
    assert regression.recorded(chunk, key) is None


def test_the_fingerprint_follows_the_code_that_plays_the_boards() -> None:
    assert regression.fingerprint() == regression.fingerprint()
    assert len(regression.fingerprint()) == 16
