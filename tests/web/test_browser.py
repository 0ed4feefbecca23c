"""The web page in headless Chromium: every page loads without a script error, a standing
changes live while the page is open, a replay steps with the keyboard, and the screenshots in
docs/screenshots are made here (``make screenshots`` writes them there; the test suite writes
them to a temporary folder and checks them)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.browser import chromium, full_page_screenshot, require_chromium
from tests.web.conftest import Site, WebServer, serving
from tests.web.every_game import EveryGame, every_game  # noqa: F401 (a fixture)
from tests.web.test_pages import LINK

SCREENSHOTS = os.environ.get("TAROT_ARENA_SCREENSHOTS")
"""Where to write the README's screenshots (``make screenshots``); a temporary folder if unset."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    require_chromium()
    with serving("sqlite", tmp_path_factory.mktemp("web")) as served:
        yield served


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    with chromium(tmp_path_factory.mktemp("profile")) as driver:
        yield driver


def _wait(driver: object, condition: object, timeout: float = 15.0) -> object:
    """Until ``condition`` holds; an element the live page replaced between being found and
    being read (stale) is looked for again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(  # type: ignore[arg-type]
        driver, timeout, ignored_exceptions=(StaleElementReferenceException,)
    ).until(condition)


def _text(driver: object, selector: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, selector).text  # type: ignore[attr-defined,no-any-return]


def _errors(driver: object) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser")  # type: ignore[attr-defined]
            if entry["level"] == "SEVERE" and "favicon" not in entry["message"]]


def test_every_page_loads_without_an_error(site: Site, browser: object) -> None:
    seen: set[str] = set()
    todo = ["/"]
    while todo:
        path = todo.pop()
        if path in seen or path.startswith("/static/") or path.endswith(".json"):
            continue
        seen.add(path)
        browser.get(site.url + path)  # type: ignore[attr-defined]
        assert browser.title.endswith("· Tarot Arena"), path  # type: ignore[attr-defined]
        assert _text(browser, "h1"), path
        assert _errors(browser) == [], path
        page = browser.page_source  # type: ignore[attr-defined]
        todo += [link for link in LINK.findall(page) if link not in seen]
    for kind in ("/tournaments/", "/boards/", "/tables/", "/bots/"):
        assert any(kind in path for path in seen), kind


def test_a_standing_changes_live_while_the_page_is_open(site: Site, browser: object) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{site.url}/tournaments/{site.data.running}")  # type: ignore[attr-defined]
    assert "6 of 12 tables played" in _text(browser, "#progress-text")
    assert "since=" in browser.find_element(  # type: ignore[attr-defined]
        By.ID, "live").get_attribute("data-events")
    before = _text(browser, "#standings tbody")
    browser.execute_script("window.notReloaded = true")  # type: ignore[attr-defined]
    site.data.finish_running_table()
    _wait(browser, lambda d: "7 of 12 tables played" in _text(d, "#progress-text"))
    assert _text(browser, "#standings tbody") != before
    assert browser.execute_script("return window.notReloaded") is True  # type: ignore[attr-defined]
    assert "7 of 12" in _text(browser, "#live-note")  # announced to screen readers
    assert _errors(browser) == []


def test_a_replay_steps_with_the_keyboard(site: Site, browser: object) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    data = site.data
    table_id = f"{data.finished}-b0003-t0"
    record = data.store.record(table_id)
    last = len(record.actions)
    browser.get(f"{site.url}/tables/{table_id}")  # type: ignore[attr-defined]
    board = browser.find_element(By.ID, "board")  # type: ignore[attr-defined]
    assert _text(browser, "#step-count") == f"step 0 of {last}"
    hands = browser.find_elements(By.CSS_SELECTOR, ".seat .hand .card")  # type: ignore[attr-defined]
    assert len(hands) == 72  # 4 hands of 18 cards
    board.send_keys(Keys.ARROW_RIGHT * 5)
    assert _text(browser, "#step-count").startswith(f"step 5 of {last}")
    first = record.actions[4]
    assert f"(seat {first[0]})" in _text(browser, "#caption")
    assert "current" in browser.find_element(  # type: ignore[attr-defined]
        By.ID, "step-5").get_attribute("class")
    board.send_keys(Keys.END)
    assert _text(browser, "#step-count").startswith(f"step {last} of {last}")
    assert browser.find_elements(By.CSS_SELECTOR, ".seat .hand .card") == []  # type: ignore[attr-defined]
    board.send_keys(Keys.HOME)
    board.send_keys(Keys.SHIFT + Keys.ARROW_RIGHT)
    step = int(re.match(r"step (\d+)", _text(browser, "#step-count"))[1])  # type: ignore[index]
    assert "1 trick played" in _text(browser, "#step-count")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#trick .card")) == 4  # type: ignore[attr-defined]
    assert "Trick 1 to" in _text(browser, "#caption")
    board.send_keys(Keys.ARROW_LEFT)
    assert _text(browser, "#step-count").startswith(f"step {step - 1} of")
    browser.find_element(By.CSS_SELECTOR, '[data-go="next"]').click()  # type: ignore[attr-defined]
    assert _text(browser, "#step-count").startswith(f"step {step} of")
    assert _errors(browser) == []


def test_the_screenshots(site: Site, browser: object, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from arena.games.french_tarot import Play

    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    data = site.data
    browser.get(f"{site.url}/tournaments/{data.finished}")  # type: ignore[attr-defined]
    full_page_screenshot(browser, folder / "standings.png", 1100, 1330)
    # the replay in the middle of a trick: the third card of the fifth
    table_id = f"{data.finished}-b0005-t1"
    actions = data.store.record(table_id).actions
    plays = [i for i, (_, action) in enumerate(actions, start=1) if isinstance(action, Play)]
    step = plays[4 * 4 + 2]
    for width, name in ((1100, "replay.png"), (400, "replay-phone.png")):
        browser.set_window_size(width, 2400)  # type: ignore[attr-defined]
        browser.get(f"{site.url}/tables/{table_id}")  # type: ignore[attr-defined]
        board = browser.find_element(By.ID, "board")  # type: ignore[attr-defined]
        board.send_keys(Keys.ARROW_RIGHT * step)
        assert _text(browser, "#step-count").startswith(f"step {step} of")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#trick .card")) == 3  # type: ignore[attr-defined]
        browser.execute_script("document.activeElement.blur()")  # type: ignore[attr-defined]
        browser.find_element(By.ID, "replay").screenshot(  # type: ignore[attr-defined]
            str(folder / name))
    for name in ("standings.png", "replay.png", "replay-phone.png"):
        assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    browser.set_window_size(1280, 900)  # type: ignore[attr-defined]


def test_pages_fit_a_phone(site: Site, browser: object) -> None:
    """At a phone's width no page scrolls sideways (wide tables scroll inside their box, the
    standings and the tournament list stack their columns), and the cards still read."""
    from selenium.webdriver.common.by import By

    data = site.data
    browser.set_window_size(390, 844)  # type: ignore[attr-defined]
    try:
        for path in ("/", f"/tournaments/{data.finished}", f"/tournaments/{data.sealed}",
                     f"/tournaments/{data.finished}/boards/1", f"/tables/{data.finished}-b0001-t0",
                     f"/bots/{next(iter(data.names))}"):
            browser.get(site.url + path)  # type: ignore[attr-defined]
            overflow = browser.execute_script(  # type: ignore[attr-defined]
                "return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (path, overflow)
        browser.get(f"{site.url}/tournaments/{data.finished}")  # type: ignore[attr-defined]
        row = browser.find_element(By.CSS_SELECTOR, "#standings tbody tr")  # type: ignore[attr-defined]
        assert row.value_of_css_property("display") == "grid"
    finally:
        browser.set_window_size(1280, 900)  # type: ignore[attr-defined]


def test_wide_tables_and_the_plot_read_on_a_phone(site: Site, browser: object) -> None:
    """At 390 px the plot's labels keep a readable size (the plot scrolls in its box), and the
    crosstable, the board comparison and the bot's tables scroll in their box with the row
    names still in view, their captions whole: nothing is cut."""
    from selenium.webdriver.common.by import By

    data = site.data
    browser.set_window_size(390, 844)  # type: ignore[attr-defined]
    try:
        browser.get(f"{site.url}/tournaments/{data.finished}")  # type: ignore[attr-defined]
        heights = browser.execute_script(  # type: ignore[attr-defined]
            "return [...document.querySelectorAll('.plot text')]"
            ".map(t => t.getBoundingClientRect().height)")
        assert heights and min(heights) >= 10, heights  # pixels on the screen
        pages = {"crosstable": ("", "table.cross"),
                 "board": ("/boards/1", "table.compare")}
        bot = next(iter(data.names))
        for name, (suffix, selector) in pages.items():
            browser.get(f"{site.url}/tournaments/{data.finished}{suffix}")  # type: ignore[attr-defined]
            _scrolls_with_its_row_names(browser, selector, name)
        browser.get(f"{site.url}/bots/{bot}")  # type: ignore[attr-defined]
        for index in range(len(browser.find_elements(By.CSS_SELECTOR, ".scroll > table"))):  # type: ignore[attr-defined]
            _scrolls_with_its_row_names(browser, ".scroll > table", "bot", index)
    finally:
        browser.set_window_size(1280, 900)  # type: ignore[attr-defined]


def _scrolls_with_its_row_names(
    browser: object, selector: str, name: str, index: int = 0
) -> None:
    """The table is in a box that scrolls sideways when it is wider than the screen; its
    caption wraps within the screen; scrolled to its end, its row names are still in view."""
    found = browser.execute_script(  # type: ignore[attr-defined]
        """
        const table = document.querySelectorAll(arguments[0])[arguments[1]];
        const box = table.parentElement;
        const style = getComputedStyle(box).overflowX;
        const inView = el => { const r = el.getBoundingClientRect();
                               return r.left >= -1 && r.right <= window.innerWidth + 1; };
        const caption = table.querySelector('caption');
        const captionWhole = caption === null || inView(caption);
        box.scrollLeft = box.scrollWidth;
        const heads = [...table.querySelectorAll('th[scope="row"]')];
        return {wide: box.scrollWidth > box.clientWidth, style: style,
                heads: heads.length, inView: heads.filter(inView).length,
                caption: captionWhole};
        """, selector, index)
    assert found["style"] in ("auto", "scroll"), (name, found)
    if found["wide"]:
        assert found["heads"] and found["inView"] == found["heads"], (name, found)
    assert found["caption"], (name, found)


@pytest.mark.parametrize("form", ["tre", "french-2", "toy"])
def test_a_replay_of_every_game_steps_with_the_keyboard(
    form: str, every_game: EveryGame, browser: object,  # noqa: F811
) -> None:
    """Tre e Venticinque, two players with the dummy and the toy game step like French Tarot:
    the hands as cards, a trick at a time with Shift+→, the winner named."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    server = WebServer(every_game.store.engine).start()
    try:
        table_id = every_game.table(form)
        record = every_game.store.record(table_id)
        last = len(record.actions)
        browser.get(f"{server.url}/tables/{table_id}")  # type: ignore[attr-defined]
        board = browser.find_element(By.ID, "board")  # type: ignore[attr-defined]
        assert _text(browser, "#step-count") == f"step 0 of {last}"
        dealt = browser.find_elements(By.CSS_SELECTOR, ".seat .hand .card")  # type: ignore[attr-defined]
        hands = len(browser.find_elements(By.CSS_SELECTOR, ".seat"))  # type: ignore[attr-defined]
        assert len(dealt) >= 12 and hands >= 3
        board.send_keys(Keys.SHIFT + Keys.ARROW_RIGHT)
        assert "1 trick played" in _text(browser, "#step-count")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#trick .card")) == hands  # type: ignore[attr-defined]
        assert "Trick 1 to" in _text(browser, "#caption")
        board.send_keys(Keys.END)
        assert _text(browser, "#step-count").startswith(f"step {last} of {last}")
        assert browser.find_elements(By.CSS_SELECTOR, ".seat .hand .card") == []  # type: ignore[attr-defined]
        assert _errors(browser) == []
    finally:
        server.stop()
