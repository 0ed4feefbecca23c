"""Which database a command uses, and the traps of a database URL.

Every command that opens the database says so in its first line (password hidden); a SQLite
file in a folder that does not exist is refused unless ``--create-dir`` is given; the default
file is ``tarot-arena.db`` in the current folder, shown with its absolute path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.cli import commands as cli_module

ROOT = Path(__file__).resolve().parents[2]


def tarot_arena(*args: str, cwd: Path, env: dict[str, str] | None = None) -> (
    subprocess.CompletedProcess[str]
):
    base = {k: v for k, v in os.environ.items() if k not in ("TAROT_ARENA_DB", "COLUMNS")}
    return subprocess.run([sys.executable, "-m", "tournaments.cli", *args], cwd=cwd,
                          env={**base, **(env or {})}, capture_output=True, text=True,
                          timeout=60)


def run_in_process(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", ["tarot-arena", *args])
    try:
        cli_module.main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def test_a_missing_folder_is_refused_unless_asked(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/typo/arena.db"
    result = tarot_arena("--db", url, "bots", "list", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"error: no folder {tmp_path}/typo for the database file arena.db: check the path, "
        "or pass --create-dir to create it"]
    assert not (tmp_path / "typo").exists()  # nothing created
    created = tarot_arena("--db", url, "bots", "add", "first", "--create-dir", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert created.stdout.splitlines()[0] == f"database: {tmp_path}/typo/arena.db (SQLite, new)"
    again = tarot_arena("--db", url, "bots", "list", cwd=tmp_path)
    assert again.returncode == 0 and "first" in again.stdout
    assert again.stdout.splitlines()[0] == f"database: {tmp_path}/typo/arena.db (SQLite)"


def test_the_default_database_is_in_the_current_folder_and_named(tmp_path: Path) -> None:
    result = tarot_arena("bots", "list", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"database: {tmp_path}/tarot-arena.db (SQLite, new)"
    assert (tmp_path / "tarot-arena.db").exists()
    relative = tarot_arena("--db", "sqlite:///sub.db", "bots", "list", cwd=tmp_path)
    assert relative.stdout.splitlines()[0] == f"database: {tmp_path}/sub.db (SQLite, new)"
    from_env = tarot_arena("bots", "list", cwd=tmp_path,
                           env={"TAROT_ARENA_DB": f"sqlite:///{tmp_path}/env.db"})
    assert from_env.stdout.splitlines()[0] == f"database: {tmp_path}/env.db (SQLite, new)"


@pytest.mark.parametrize("args", [
    ["bots", "list"], ["tournament", "list"], ["standings", "tour_x"],
    ["tournament", "tables", "tour_x"], ["replay", "t_x"], ["tournament", "cancel", "tour_x"],
    ["export", "tour_x"], ["bots", "revoke", "bot_x"],
])
def test_every_command_names_its_database_with_the_password_hidden(
    db_url: str, args: list[str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, out, err = run_in_process(["--db", db_url, *args], capsys, monkeypatch)
    first = out.splitlines()[0]
    assert first.startswith("database: "), (out, err)
    if db_url.startswith("postgresql"):
        password = db_url.split("://", 1)[1].split("@")[0].split(":")[1]
        assert first == "database: " + db_url.replace(f":{password}@", ":***@")
        assert f":{password}@" not in out + err
    else:
        assert first == f"database: {db_url.split('///', 1)[1]} (SQLite, new)" or (
            first == f"database: {db_url.split('///', 1)[1]} (SQLite)")


def test_with_json_the_database_line_goes_to_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_in_process(
        ["--db", f"sqlite:///{tmp_path}/a.db", "bots", "list", "--json"], capsys, monkeypatch)
    assert code == 0 and json.loads(out) == []
    assert err.strip() == f"database: {tmp_path}/a.db (SQLite, new)"


@pytest.mark.parametrize(("url", "message"), [
    ("sqlite://arena.db", "a SQLite URL names no host ('arena.db' here): its file comes after "
                          "three slashes, sqlite:///arena.db"),
    ("sqlite://me@/arena.db", "a SQLite URL names no host ('me' here)"),
    ("sqlite:/arena.db", "Could not parse SQLAlchemy URL from given URL string: a SQLite file "
                         "is sqlite:///FILE"),
])
def test_a_bad_sqlite_url_is_one_line_and_creates_nothing(
    tmp_path: Path, url: str, message: str
) -> None:
    """Once, ``sqlite://arena.db`` was refused only after a folder ``sqlite:`` was made."""
    result = tarot_arena("--db", url, "bots", "list", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip().startswith(f"error: cannot open database {url}: {message}")
    assert len(result.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_sqlite_url_with_a_query_makes_the_file_s_folder_not_one_named_after_the_query(
    tmp_path: Path,
) -> None:
    result = tarot_arena("--create-dir", "--db", "sqlite:///sub/arena.db?timeout=5", "bots",
                         "list", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub"]
    assert (tmp_path / "sub" / "arena.db").exists()
