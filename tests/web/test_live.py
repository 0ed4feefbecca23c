"""Live updates over HTTP: a table finished while a tournament's page listens to its event
stream changes the standings it is sent, without a card of a board still in play; and the
page served by the arena's own commands (`web`, `serve --web-port`)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from tests.web.conftest import Site
from tests.web.test_pages import card_groups, hidden_hands
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play.manage import cancel_tournament, delete_tournament
from tournaments.store import TournamentStore


def read_event(stream: object) -> tuple[str, str]:
    name, lines = "", []
    while True:
        line = stream.readline().decode()  # type: ignore[attr-defined]
        if line.startswith("event: "):
            name = line[7:].strip()
        elif line.startswith("data: "):
            lines.append(line[6:].rstrip("\n"))
        elif line == "\n" and name:
            return name, "\n".join(lines)
        elif line == "":
            raise EOFError("the event stream ended")


def test_a_table_finished_while_the_page_listens_updates_its_standings(site: Site) -> None:
    data = site.data
    url = f"{site.url}/tournaments/{data.running}/events"
    with urllib.request.urlopen(url, timeout=30) as stream:
        name, before = read_event(stream)
        assert name == "standings"
        assert "6 of 12 tables played" in before and "1 playing now" in before
        data.finish_running_table()
        name, after = read_event(stream)
        assert name == "standings"
    assert "7 of 12 tables played" in after and "playing now" not in after
    totals = re.compile(r'data-bot="([^"]+)">.*?data-label="Total">([^<]+)</td>', re.S)
    assert totals.findall(before) != totals.findall(after)
    shown = set(card_groups(after))
    assert not shown & set(hidden_hands(site, data.running))


def test_the_stream_of_a_finished_tournament_ends(site: Site) -> None:
    with urllib.request.urlopen(f"{site.url}/tournaments/{site.data.finished}/events",
                                timeout=30) as stream:
        assert read_event(stream)[0] == "standings"
        assert read_event(stream) == ("finished", "finished")


def _serve(args: list[str], db: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "TAROT_ARENA_DB": db, "COLUMNS": "200"}
    process = subprocess.Popen([sys.executable, "-m", "tournaments.cli", *args], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        match = re.search(r"web page on (http://\S+)", line)
        if match:
            return process, match[1]
        if not line and process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"{args}: no web page announced")


def _page_of(process: subprocess.Popen[str], url: str) -> str:
    try:
        with urllib.request.urlopen(url + "/", timeout=30) as response:
            return response.read().decode()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def test_the_web_command_and_serve_web_port_serve_the_page(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.db"
    process, url = _serve(["web", "--port", "0"], db)
    assert "No tournament yet" in _page_of(process, url)
    process, url = _serve(["serve", "--port", "0", "--web-port", "0"], db)
    assert "Tournaments" in _page_of(process, url)


def test_a_stream_from_the_page_state_sends_only_changes(site: Site) -> None:
    status, page, _ = site.get(f"/tournaments/{site.data.finished}")
    assert status == 200
    events = re.search(r'data-events="([^"]+)"', page)[1].replace("&amp;", "&")  # type: ignore[index]
    assert "since=" in events
    with urllib.request.urlopen(site.url + events, timeout=30) as stream:
        assert read_event(stream) == ("finished", "finished")  # nothing changed: no standings


def test_a_cancelled_then_deleted_tournament_ends_its_stream_and_its_pages(site: Site) -> None:
    data = site.data
    bots = data.store.settings(data.finished).bots
    tid = data.store.create(TournamentSettings(name="Soon cancelled", bots=bots, boards=2))
    data.play(tid, 1)
    with urllib.request.urlopen(f"{site.url}/tournaments/{tid}/events", timeout=30) as stream:
        assert read_event(stream)[0] == "standings"
        cancel_tournament(data.store, tid)
        name, after = read_event(stream)
        assert name == "standings" and "cancelled" in after
        assert read_event(stream) == ("finished", "cancelled")
    assert site.get(f"/tournaments/{tid}")[0] == 200
    delete_tournament(data.store, tid)
    for path in (f"/tournaments/{tid}", f"/tournaments/{tid}/events",
                 f"/tournaments/{tid}/boards/0", f"/tables/{tid}-b0000-t0"):
        assert site.get(path)[0] == 404, path
    assert "Soon cancelled" not in site.get("/")[1]


def test_tournament_run_serves_its_page_apart_naming_the_bots_awaited(tmp_path: Path) -> None:
    """``tournament run --web-port``: the page in a process of its own (the tables keep the
    arena's interpreter to themselves) that names the bots the run waits for, and stops with
    the run."""
    db = f"sqlite:///{tmp_path}/run.db"
    store = TournamentStore(make_engine(db))
    registry = BotRegistry(store.engine)
    bots = tuple(registry.register(name)[0].id for name in ("alice", "bob", "carol", "dave"))
    tid = store.create(TournamentSettings(name="lonely", bots=bots, boards=2))
    process, url = _serve(["tournament", "run", tid, "--port", "0", "--web-port", "0",
                           "--seat-timeout", "0"], db)
    try:
        deadline = time.monotonic() + 60
        while True:  # the run names them a moment after it starts
            with urllib.request.urlopen(f"{url}/tournaments/{tid}", timeout=30) as response:
                body = response.read().decode()
            if "Waiting for:" in body or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert "Waiting for: alice, bob, carol, dave (registered, not connected" in body
        port = int(url.rsplit(":", 1)[1])
        owners = _listening_pids(port)
        assert owners and process.pid not in owners  # served by another process
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    deadline = time.monotonic() + 30
    while _listening_pids(port) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _listening_pids(port), "the page outlived the run"


def _listening_pids(port: int) -> set[int]:
    """The processes with a socket listening on ``port`` (from /proc: Linux)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(fields[9])
    pids = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:[") and link[8:-1] in inodes:
                        pids.add(int(pid))
    return pids


def test_the_arena_goes_on_when_its_page_process_dies(tmp_path: Path) -> None:
    process, url = _serve(["serve", "--port", "0", "--web-port", "0"],
                          f"sqlite:///{tmp_path}/serve.db")
    try:
        (page,) = _listening_pids(int(url.rsplit(":", 1)[1]))
        os.kill(page, signal.SIGKILL)
        time.sleep(7)  # the arena notices at its next message to the page (every 5 s)
        assert process.poll() is None, "the arena stopped with its page"
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=30)
    assert "the web page's process ended: the arena goes on without its page" in out
    assert "Traceback" not in out
