"""The CLI's real entry point run in-process, as the tests of several folders call it."""

from __future__ import annotations

import sys

import pytest

from tournaments.cli import commands as cli_module


def run_entry_point(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                    *argv: str) -> tuple[int, str, str]:
    """``tarot-arena ARGV...``: (exit status, stdout, stderr)."""
    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", ["tarot-arena", *argv])
    try:
        cli_module.main()
        code = 0
    except SystemExit as exc:
        # sys.exit() exits 0 and sys.exit("message") exits 1, as the interpreter does
        code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err
