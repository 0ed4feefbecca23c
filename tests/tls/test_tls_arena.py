"""The arena's gRPC port over TLS, with SDK bots: a tournament, every error a bot or an
organiser can meet (one line each), a certificate renewed mid-tournament, mutual TLS.

Real clock, real sockets on loopback (see ``tests/clients/conftest.py``)."""

from __future__ import annotations

import datetime
from concurrent import futures
from pathlib import Path

import grpc
import pytest
import trio
import trustme
from cryptography.hazmat.primitives import serialization
from grpc_health.v1 import health, health_pb2_grpc

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.transport import tls as tls_module
from arena.transport.server import ArenaServer
from arena.transport.tls import ServerTls, TlsConfigError
from clients.heuristic_bot import HeuristicBot
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, ArenaTlsError, Backoff, ClientTls
from tests.tls.conftest import Pki
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play.remote import RemoteArena
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore

FAST = Backoff(0.05, 0.2)


@pytest.fixture(autouse=True)
def renewals_seen_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every handshake looks at the files (the arena does at most once a second)."""
    monkeypatch.setattr(tls_module, "RECHECK_SECONDS", 0.0)


async def serve(nursery: trio.Nursery, registry: BotRegistry, tls: ServerTls | None,
                ) -> tuple[ArenaServer, int]:
    server = ArenaServer(registry, admin_token="admin", tls=tls)
    port = await nursery.start(server.serve)
    return server, port


async def refused(address: str, token: str, tls: bool | ClientTls | None) -> str:
    """The one line an SDK bot ends with against ``address``."""
    client = ArenaClient(RandomBot(), address, token, backoff=FAST, tls=tls)
    with trio.fail_after(15), pytest.raises(ArenaTlsError) as caught:
        await client.run()
    line = str(caught.value)
    assert "\n" not in line
    return line


async def connected(nursery: trio.Nursery, address: str, token: str,
                    tls: bool | ClientTls | None, bot: object = None) -> ArenaClient:
    client = ArenaClient(bot or RandomBot(), address, token, backoff=FAST, tls=tls,  # type: ignore[arg-type]
                         max_tables=4)
    with trio.fail_after(10):
        await nursery.start(client.run)
    return client


def registry_with(count: int, folder: Path) -> tuple[
    TournamentStore, BotRegistry, list[tuple[str, str]]
]:
    engine = make_engine(f"sqlite:///{folder}/arena.db")
    registry = BotRegistry(engine)
    bots = [registry.register(f"bot{i}") for i in range(count)]
    return TournamentStore(engine), registry, [(bot.id, token) for bot, token in bots]


# ------------------------------------------------------------------------------ playing
async def test_a_tournament_over_tls_with_the_bundled_bots(
    nursery: trio.Nursery, pki: Pki
) -> None:
    store, registry, bots = registry_with(4, pki.folder)
    server, port = await serve(nursery, registry, ServerTls(pki.cert, pki.key))
    trust = ClientTls(ca=pki.ca_file)
    clients = [await connected(nursery, f"localhost:{port}", token, trust,
                               HeuristicBot() if i == 0 else RandomBot(seed=i))
               for i, (_, token) in enumerate(bots)]
    tid = store.create(TournamentSettings(name="tls", bots=tuple(b for b, _ in bots),
                                          boards=2, seed=3, per_decision=2.0))
    with trio.fail_after(120):
        await TournamentRunner(store, RemoteArena(server), tid, concurrency=4).run()
    tables = store.tables(tid)
    assert tables and all(table.status.value == "done" for table, _ in tables)
    assert all(seat.infractions == 0 for _, seats in tables for seat in seats)
    assert [client.connections for client in clients] == [1, 1, 1, 1]


async def test_a_certificate_renewed_mid_tournament_keeps_the_tables_and_serves_new_connections(
    nursery: trio.Nursery, pki: Pki
) -> None:
    """The new certificate comes from another CA, so that which one a connection got shows:
    the bots connected before trust the old CA only, the one after the new CA only."""
    store, registry, bots = registry_with(5, pki.folder)
    arena_tls = ServerTls(pki.cert, pki.key)
    server, port = await serve(nursery, registry, arena_tls)
    old_trust = ClientTls(ca=pki.ca_file)
    clients = [await connected(nursery, f"localhost:{port}", token, old_trust)
               for _, token in bots[:4]]
    tid = store.create(TournamentSettings(name="renewal", bots=tuple(b for b, _ in bots[:4]),
                                          boards=6, seed=5, per_decision=2.0))
    new_ca = trustme.CA(organization_name="the renewed certificate's CA")
    new_trust = ClientTls(ca=pki.ca_file_of("new", new_ca))
    renewed_cert, renewed_key = pki.issue("renewed", ca=new_ca)

    async with trio.open_nursery() as playing:
        playing.start_soon(TournamentRunner(store, RemoteArena(server), tid, concurrency=4).run)
        with trio.fail_after(60):
            while store.progress(tid).done < 2:
                await trio.sleep(0.02)
        pki.replace(renewed_cert, renewed_key)
        late = await connected(nursery, f"localhost:{port}", bots[4][1], new_trust)
        assert late.welcome is not None
        line = await refused(f"localhost:{port}", bots[4][1], old_trust)
        assert "does not trust the arena's certificate" in line, line
        assert store.progress(tid).pending > 0, "the renewal came too late to be mid-tournament"
    assert arena_tls.renewals == 1
    tables = store.tables(tid)
    assert all(table.status.value == "done" for table, _ in tables)
    assert all(seat.infractions == 0 for _, seats in tables for seat in seats)
    assert [client.connections for client in clients] == [1, 1, 1, 1]  # never dropped


async def test_a_renewal_whose_key_does_not_match_keeps_the_certificate_served(
    nursery: trio.Nursery, pki: Pki, caplog: pytest.LogCaptureFixture
) -> None:
    _, registry, bots = registry_with(1, pki.folder)
    arena_tls = ServerTls(pki.cert, pki.key)
    _, port = await serve(nursery, registry, arena_tls)
    _, stray_key = pki.issue("stray")
    pki.replace(pki.cert, stray_key)  # the key of another certificate
    client = await connected(nursery, f"localhost:{port}", bots[0][1],
                             ClientTls(ca=pki.ca_file))
    assert client.welcome is not None and arena_tls.renewals == 0
    assert any("does not match" in record.getMessage() for record in caplog.records)


# --------------------------------------------------------------------------- bots' errors
async def test_a_plaintext_bot_on_the_tls_port_is_told_to_use_tls(
    nursery: trio.Nursery, pki: Pki
) -> None:
    _, registry, bots = registry_with(1, pki.folder)
    _, port = await serve(nursery, registry, ServerTls(pki.cert, pki.key))
    line = await refused(f"127.0.0.1:{port}", bots[0][1], None)
    assert line == (f"the arena at 127.0.0.1:{port} speaks TLS: connect with --tls (a public "
                    "certificate) or --tls-ca FILE (the organiser's CA)")


async def test_a_tls_bot_on_a_plaintext_port_is_told_it_is_plaintext(
    nursery: trio.Nursery, pki: Pki
) -> None:
    _, registry, bots = registry_with(1, pki.folder)
    _, port = await serve(nursery, registry, None)
    line = await refused(f"127.0.0.1:{port}", bots[0][1], ClientTls(ca=pki.ca_file))
    assert line.startswith(f"the arena at 127.0.0.1:{port} does not speak TLS"), line


async def test_a_bot_that_does_not_trust_the_certificate_says_which_flag_to_give(
    nursery: trio.Nursery, pki: Pki
) -> None:
    _, registry, bots = registry_with(1, pki.folder)
    _, port = await serve(nursery, registry, ServerTls(pki.cert, pki.key))
    system_roots = await refused(f"localhost:{port}", bots[0][1], True)
    assert system_roots.startswith(
        f"this bot does not trust the arena's certificate at localhost:{port} ("), system_roots
    assert system_roots.endswith("pass --tls-ca FILE with the organiser's CA certificate")
    other = pki.ca_file_of("other", trustme.CA())
    wrong_ca = await refused(f"localhost:{port}", bots[0][1], ClientTls(ca=other))
    assert wrong_ca.endswith("--tls-ca FILE names a CA that did not sign it"), wrong_ca


async def test_a_certificate_for_another_host_is_one_line(
    nursery: trio.Nursery, pki: Pki
) -> None:
    _, registry, bots = registry_with(1, pki.folder)
    cert, key = pki.issue("elsewhere", "arena.example.org")
    _, port = await serve(nursery, registry, ServerTls(cert, key))
    line = await refused(f"127.0.0.1:{port}", bots[0][1], ClientTls(ca=pki.ca_file))
    assert line.startswith("the arena's certificate is not valid for 127.0.0.1: connect to "
                           "the host name it was issued for"), line


async def test_an_expired_certificate_is_one_line_for_the_bot(pki: Pki) -> None:
    """The arena refuses to serve an expired certificate (below); another server might."""
    past = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    cert, key = pki.issue("expired", not_before=past - datetime.timedelta(days=30),
                          not_after=past)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), server)
    port = server.add_secure_port("127.0.0.1:0", grpc.ssl_server_credentials(
        [(key.read_bytes(), cert.read_bytes())]))
    server.start()
    try:
        line = await refused(f"localhost:{port}", "tka_any", ClientTls(ca=pki.ca_file))
    finally:
        server.stop(0)
    assert line.startswith(f"the arena's certificate at localhost:{port} has expired: the "
                           "organiser must renew it"), line


# ------------------------------------------------------------------------------ mutual TLS
async def test_mutual_tls_takes_a_bot_with_a_certificate_of_the_client_ca_only(
    nursery: trio.Nursery, pki: Pki
) -> None:
    _, registry, bots = registry_with(1, pki.folder)
    client_ca = trustme.CA(organization_name="the organiser's bot CA")
    client_ca_file = pki.ca_file_of("bots", client_ca)
    _, port = await serve(nursery, registry, ServerTls(pki.cert, pki.key, client_ca_file))
    address, token = f"localhost:{port}", bots[0][1]
    bot_cert, bot_key = pki.issue("bot", "bot0.example.org", ca=client_ca)
    stranger_cert, stranger_key = pki.issue("stranger", "bot0.example.org")

    accepted = await connected(nursery, address, token,
                               ClientTls(ca=pki.ca_file, cert=bot_cert, key=bot_key))
    assert accepted.welcome is not None
    without = await refused(address, token, ClientTls(ca=pki.ca_file))
    assert without == (f"the arena at {address} asks for a client certificate: pass "
                       "--tls-cert FILE and --tls-key FILE (the organiser issues them)")
    stranger = await refused(address, token, ClientTls(ca=pki.ca_file, cert=stranger_cert,
                                                       key=stranger_key))
    assert stranger == (f"the arena at {address} refused this bot's client certificate: it "
                        "was not issued by the CA the arena trusts, or it has expired")


# ----------------------------------------------------------------------- organiser's errors
async def test_a_key_that_does_not_match_stops_the_arena_before_it_listens(
    nursery: trio.Nursery, pki: Pki
) -> None:
    _, registry, _ = registry_with(1, pki.folder)
    _, other_key = pki.issue("other")
    server = ArenaServer(registry, tls=ServerTls(pki.cert, other_key))
    with pytest.raises(TlsConfigError) as caught:
        await nursery.start(server.serve)
    assert str(caught.value) == (
        f"the key {other_key} does not match the certificate {pki.cert} (the first "
        "certificate of the file must be the key's)")
    assert server.bridge is None  # nothing was started, nothing listened


@pytest.mark.parametrize("problem", ["expired", "not yet valid", "missing", "not PEM",
                                     "key not PEM", "key encrypted", "client CA missing"])
def test_every_bad_file_is_one_line_at_start(pki: Pki, problem: str) -> None:
    now = datetime.datetime.now(datetime.UTC)
    cert, key, client_ca = pki.cert, pki.key, None
    if problem == "expired":
        cert, key = pki.issue("old", not_before=now - datetime.timedelta(days=90),
                              not_after=now - datetime.timedelta(days=1))
        expected = f"the certificate {cert} expired on "
    elif problem == "not yet valid":
        cert, key = pki.issue("future", not_before=now + datetime.timedelta(days=2),
                              not_after=now + datetime.timedelta(days=90))
        expected = f"the certificate {cert} is not valid before "
    elif problem == "missing":
        cert = pki.folder / "nowhere.pem"
        expected = f"cannot read the certificate {cert}: No such file or directory"
    elif problem == "not PEM":
        cert = pki.folder / "garbage.pem"
        cert.write_text("not a certificate\n")
        expected = f"{cert} holds no PEM certificate"
    elif problem == "key not PEM":
        key = pki.folder / "garbage.key"
        key.write_text("not a key\n")
        expected = f"{key} holds no PEM private key"
    elif problem == "key encrypted":
        plain = serialization.load_pem_private_key(pki.key.read_bytes(), password=None)
        key = pki.folder / "locked.key"
        key.write_bytes(plain.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"passphrase")))
        expected = f"the key {key} is encrypted: give the arena an unencrypted key"
    else:
        client_ca = pki.folder / "no-ca.pem"
        expected = f"cannot read the client CA {client_ca}: No such file or directory"
    with pytest.raises(TlsConfigError) as caught:
        ServerTls(cert, key, client_ca).load()
    assert str(caught.value).startswith(expected), caught.value
    assert "\n" not in str(caught.value)


def test_a_bot_s_missing_or_bad_files_are_one_line(pki: Pki, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^cannot read the CA file \(--tls-ca\) .*nowhere"):
        ClientTls(ca=tmp_path / "nowhere.pem").credentials()
    (tmp_path / "junk.pem").write_text("junk")
    with pytest.raises(ValueError, match=r"is not PEM \(no -----BEGIN line\)$"):
        ClientTls(ca=tmp_path / "junk.pem").credentials()
    with pytest.raises(ValueError, match="give both --tls-cert and --tls-key"):
        ClientTls(ca=pki.ca_file, cert=pki.cert)
