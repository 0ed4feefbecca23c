"""The bridge between trio and grpc.aio, as a fixture: tests that serve gRPC run once on each.

A test (or fixture) that takes ``bridge_name`` runs once with the stepped bridge and once with
the thread bridge, forced through ``TAROT_ARENA_BRIDGE`` as a user would: a Python whose
asyncio insides change falls back to the thread bridge, which must then be just as correct.
Other folders' conftests import ``bridge_name_fixture`` to use it.
"""

from __future__ import annotations

import pytest

from arena.transport.bridge import BRIDGES, ENV_VAR


@pytest.fixture(name="bridge_name", params=sorted(BRIDGES))
def bridge_name_fixture(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The bridge every :class:`~arena.transport.server.ArenaServer` of the test uses."""
    name: str = request.param
    monkeypatch.setenv(ENV_VAR, name)
    return name
