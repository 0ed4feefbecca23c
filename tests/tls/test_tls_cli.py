"""TLS the way an organiser and the bots' authors use it: ``tarot-arena tournament run`` with
its files from the environment and its web page over HTTPS, ``tarot-arena bot --tls-ca``
processes, the plaintext warning, and the one-line errors at start."""

from __future__ import annotations

import signal
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import trio

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from arena.transport.server import ArenaServer
from arena.transport.tls import ServerTls
from tests.cli.entry import run_entry_point
from tests.cli.test_cli import read_until
from tests.processes import ROOT, environment, free_port
from tests.tls.conftest import Pki
from tournaments.duplicate.settings import TournamentSettings
from tournaments.store import TournamentStore


def arena_process(*args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT,
                            env=environment(**env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def stop(process: subprocess.Popen[str]) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()


def test_a_tournament_runs_over_tls_with_bot_processes_and_the_web_page_over_https(
    tmp_path: Path, pki: Pki
) -> None:
    url = f"sqlite:///{tmp_path}/arena.db"
    store = TournamentStore(make_engine(url))
    registry = BotRegistry(store.engine)
    registered = [registry.register(f"bot{i}") for i in range(4)]
    tid = store.create(TournamentSettings(name="public", bots=tuple(b.id for b, _ in registered),
                                          boards=2, seed=8, per_decision=2.0))
    port, web_port = free_port(), free_port()
    arena = arena_process("--db", url, "tournament", "run", tid, "--port", str(port),
                          "--web-port", str(web_port), "--seat-timeout", "60",
                          TAROT_ARENA_TLS_CERT=str(pki.cert), TAROT_ARENA_TLS_KEY=str(pki.key),
                          TAROT_ARENA_ADMIN_TOKEN="admin")
    bots: list[subprocess.Popen[str]] = []
    try:
        seen = read_until(arena, "arena listening", 30)
        assert "TLS: certificate for localhost, 127.0.0.1, valid until" in seen, seen
        assert f"web page on https://127.0.0.1:{web_port}" in seen, seen
        trusting = ssl.create_default_context(cafile=str(pki.ca_file))
        with urllib.request.urlopen(f"https://localhost:{web_port}/", context=trusting,
                                    timeout=10) as page:
            assert page.status == 200 and b"public" in page.read()
        with pytest.raises((urllib.error.URLError, ConnectionError)):  # no plaintext there
            urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=10)
        for _, token in registered:
            bots.append(subprocess.Popen(
                [sys.executable, "-m", "tournaments.cli", "bot", "heuristic", "--server",
                 f"localhost:{port}", "--tls-ca", str(pki.ca_file), "--max-tables", "4"],
                cwd=ROOT, env=environment(TAROT_ARENA_TOKEN=token), stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True))
        _, err = arena.communicate(timeout=180)
    finally:
        if arena.poll() is None:
            arena.kill()
        for bot in bots:
            try:
                bot.wait(20)
            except subprocess.TimeoutExpired:
                bot.kill()
    logs = [bot.communicate()[0] for bot in bots]
    assert arena.returncode == 0, err
    assert all(bot.returncode == 0 for bot in bots), logs
    assert all("Traceback" not in log and "notice" not in log for log in logs), logs
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert "warning" not in err, err  # TLS: nothing travels in clear


@pytest.mark.parametrize(("host", "extra", "warned"), [
    ("0.0.0.0", (), True),
    ("0.0.0.0", ("--insecure",), False),
    ("127.0.0.1", (), False),
])
def test_plaintext_that_other_machines_reach_warns_in_one_line(
    tmp_path: Path, host: str, extra: tuple[str, ...], warned: bool
) -> None:
    port = free_port()
    process = arena_process("--db", f"sqlite:///{tmp_path}/arena.db", "serve", "--host", host,
                            "--port", str(port), *extra, TAROT_ARENA_ADMIN_TOKEN="admin")
    try:
        read_until(process, "arena listening", 30)
    except AssertionError:
        raise AssertionError(stop(process)) from None
    _, err = stop(process)
    line = (f"warning: plaintext on {host}:{port}: bot and admin tokens travel in clear; give "
            "--tls-cert and --tls-key, or --insecure if this network is yours")
    assert (line in err.splitlines()) is warned, err


@pytest.mark.parametrize("problem", ["key of another certificate", "key missing",
                                     "cert without key", "insecure with tls",
                                     "client ca without tls"])
def test_tls_options_that_cannot_be_served_are_one_line_before_listening(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    pki: Pki, problem: str,
) -> None:
    monkeypatch.delenv("TAROT_ARENA_TLS_CERT", raising=False)
    monkeypatch.delenv("TAROT_ARENA_TLS_KEY", raising=False)
    _, other_key = pki.issue("other")
    port = free_port()
    base = ["--db", f"sqlite:///{tmp_path}/arena.db", "serve", "--port", str(port)]
    args, message = {
        "key of another certificate": (
            ["--tls-cert", str(pki.cert), "--tls-key", str(other_key)],
            f"error: the key {other_key} does not match the certificate {pki.cert} (the first "
            "certificate of the file must be the key's)"),
        "key missing": (
            ["--tls-cert", str(pki.cert), "--tls-key", str(tmp_path / "gone.key")],
            f"error: cannot read the key {tmp_path / 'gone.key'}: No such file or directory"),
        "cert without key": (
            ["--tls-cert", str(pki.cert)],
            "error: --tls-cert needs --tls-key too (from the option or TAROT_ARENA_TLS_KEY)"),
        "insecure with tls": (
            ["--tls-cert", str(pki.cert), "--tls-key", str(pki.key), "--insecure"],
            "error: --insecure is for plaintext: leave it out with --tls-cert"),
        "client ca without tls": (
            ["--tls-client-ca", str(pki.ca_file)],
            "error: --tls-client-ca needs --tls-cert and --tls-key: mutual TLS is TLS first"),
    }[problem]
    code, _, err = run_entry_point(capsys, monkeypatch, *base, *args)
    assert code == 1
    assert " ".join(err.split()) == message, err


@pytest.mark.parametrize("runner", [("tournaments.cli", "bot"), ("clients.run",)])
@pytest.mark.parametrize(("bot_tls", "arena_tls", "expected"), [
    ((), True, "speaks TLS: connect with --tls (a public certificate) or --tls-ca FILE"),
    (("--tls-ca", "CA"), False, "does not speak TLS: connect without --tls/--tls-ca"),
    (("--tls",), True, "this bot does not trust the arena's certificate at"),
])
async def test_the_bot_command_ends_on_a_tls_mismatch_with_one_line(
    nursery: trio.Nursery, pki: Pki, bot_tls: tuple[str, ...], arena_tls: bool, expected: str,
    runner: tuple[str, ...],
) -> None:
    """One line on stderr, gRPC's own lines for the failed handshake left out (both ways of
    starting the runner)."""
    registry = BotRegistry(make_engine(f"sqlite:///{pki.folder}/arena.db"))
    _, token = registry.register("bot")
    server = ArenaServer(registry, tls=ServerTls(pki.cert, pki.key) if arena_tls else None)
    port = await nursery.start(server.serve)
    args = [str(pki.ca_file) if arg == "CA" else arg for arg in bot_tls]
    env = {k: v for k, v in environment(TAROT_ARENA_TOKEN=token).items()
           if k != "GRPC_VERBOSITY"}
    done = await trio.run_process(
        [sys.executable, "-m", *runner, "random", "--server", f"localhost:{port}", *args,
         "--connect-timeout", "20", "--log-level", "ERROR"],
        cwd=ROOT, env=env, capture_stdout=True, capture_stderr=True, check=False)
    err = done.stderr.decode()
    assert done.returncode == 3, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and expected in lines[0], err


def test_the_bot_command_names_a_missing_ca_file(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "clients.run", "random", "--tls-ca", str(tmp_path / "ca.pem")],
        cwd=ROOT, env=environment(TAROT_ARENA_TOKEN="tka_x"), capture_output=True, text=True,
        timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"error: cannot read the CA file (--tls-ca) "
                                   f"{tmp_path / 'ca.pem'}: No such file or directory")
