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
        code = exit_status(exc)
    out, err = capsys.readouterr()
    return code, out, err


def exit_status(exc: SystemExit) -> int:
    """The status a process would exit with: sys.exit() exits 0 and sys.exit("message") 1, as
    the interpreter does."""
    return 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
