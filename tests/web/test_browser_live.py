"""In headless Chromium: a page whose live updates stop says so (its server stopped, as when
``tournament run --web-port`` ends, or it refused one more live viewer), instead of showing
"running" for ever; and it names the bots a tournament waits for."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.storage.db import make_engine
from tests.web.arena_data import ArenaData, build
from tests.web.browser import chromium, require_chromium
from tests.web.conftest import WebServer
from tests.web.test_browser import _text, _wait
from tournaments.store import TournamentStore


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ArenaData]:
    require_chromium()
    engine = make_engine(f"sqlite:///{tmp_path_factory.mktemp('live')}/arena.db")
    yield build(TournamentStore(engine))
    engine.dispose()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    with chromium(tmp_path_factory.mktemp("profile")) as driver:
        yield driver


def _state(driver: object) -> str:
    from selenium.webdriver.common.by import By

    element = driver.find_element(By.ID, "live-state")  # type: ignore[attr-defined]
    return "" if not element.is_displayed() else str(element.text)


def test_the_page_says_its_live_updates_stopped_when_its_server_stops(
        data: ArenaData, browser: object) -> None:
    server = WebServer(data.store.engine).start()
    try:
        browser.get(f"{server.url}/tournaments/{data.running}")  # type: ignore[attr-defined]
        _wait(browser, lambda d: d.execute_script(
            "return document.getElementById('live').dataset.live") == "on")
        assert _state(browser) == ""
        assert "running" in _text(browser, "#progress-h").lower()
    finally:
        server.stop()
    _wait(browser, lambda d: "Live updates stopped" in _state(d))
    assert "does not answer" in _state(browser)
    assert "The standings below are as of" in _state(browser)


def test_a_refused_live_viewer_reads_why(data: ArenaData, browser: object,
                                         tmp_path: Path) -> None:
    server = WebServer(data.store.engine, max_streams_per_client=1).start()
    host, port = server.url.removeprefix("http://").split(":")
    held = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        held.request("GET", f"/tournaments/{data.running}/events")
        assert held.getresponse().status == 200  # this address's one live page
        browser.get(f"{server.url}/tournaments/{data.running}")  # type: ignore[attr-defined]
        _wait(browser, lambda d: "Live updates stopped" in _state(d))
        assert "Too many live pages from your address (at most 1)" in _state(browser)
        assert "Trying again in 30 s" in _state(browser)
    finally:
        held.close()
        server.stop()
