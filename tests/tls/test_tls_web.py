"""The web page over HTTPS takes up a renewed certificate without a restart: new connections
get it, a connection opened before keeps working."""

from __future__ import annotations

import functools
import http.client
import ssl

import pytest
import trio
import trustme

from arena.storage.db import make_engine
from arena.transport import tls as tls_module
from arena.transport.tls import ServerTls
from tests.tls.conftest import Pki
from tournaments.web import serve_web


def get(connection: http.client.HTTPSConnection, path: str = "/") -> int:
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response.status


def connect(port: int, cafile: str) -> http.client.HTTPSConnection:
    context = ssl.create_default_context(cafile=cafile)
    return http.client.HTTPSConnection("localhost", port, context=context, timeout=10)


async def test_the_web_page_takes_up_a_renewed_certificate_and_keeps_open_connections(
    nursery: trio.Nursery, pki: Pki, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tls_module, "RECHECK_SECONDS", 0.0)
    engine = make_engine(f"sqlite:///{pki.folder}/web.db")
    served = ServerTls(pki.cert, pki.key)
    urls = await nursery.start(functools.partial(serve_web, tls=served, poll=0.2,
                                                 own_process=False), engine,
                               "127.0.0.1", 0)
    assert urls[0].startswith("https://127.0.0.1:")
    port = int(urls[0].rsplit(":", 1)[1])
    old_ca = str(pki.ca_file)
    before = connect(port, old_ca)
    assert await trio.to_thread.run_sync(get, before) == 200

    new_ca = trustme.CA()
    new_ca_file = str(pki.ca_file_of("new", new_ca))
    pki.replace(*pki.issue("renewed", ca=new_ca))

    after = connect(port, new_ca_file)
    assert await trio.to_thread.run_sync(get, after) == 200
    with pytest.raises(ssl.SSLCertVerificationError):
        await trio.to_thread.run_sync(get, connect(port, old_ca))
    assert await trio.to_thread.run_sync(get, before) == 200  # the open one goes on
    assert served.renewals == 1
    for connection in (before, after):
        connection.close()
