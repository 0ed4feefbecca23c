"""The versions bots say they run (``Hello.bot_version`` and ``bot_name``), on SQLite and
PostgreSQL: counted once per accepted Hello, never lost between concurrent writers, and added
to a database created before they were stored."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy
from alembic import command
from sqlmodel import Session, select

from arena.storage.bots import VERSIONS_KEPT, BotRegistry, UnknownBotError, VersionSummary
from arena.storage.db import make_engine
from arena.storage.migrate import alembic_config, upgrade
from arena.storage.models import Bot

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_each_version_and_name_is_counted_with_its_first_and_last_sighting(db_url: str) -> None:
    registry = BotRegistry(make_engine(db_url))
    bot, _ = registry.register("heuristic")
    other, _ = registry.register("other")
    assert registry.versions(bot.id) == []
    registry.record_hello(bot.id, "heuristic", "1.0", T0)
    registry.record_hello(bot.id, "heuristic", "1.0", T0 + timedelta(minutes=5))
    registry.record_hello(bot.id, "heuristic", "1.1", T0 + timedelta(minutes=10))
    registry.record_hello(bot.id, "heuristic-exp", "1.1", T0 + timedelta(minutes=7))
    registry.record_hello(bot.id, "heuristic", "", T0 + timedelta(minutes=1))
    registry.record_hello(other.id, "other", "0.1", T0)

    def at(minutes: int) -> str:
        return (T0 + timedelta(minutes=minutes)).isoformat()

    assert registry.versions(bot.id) == [
        VersionSummary("1.1", "heuristic", at(10), at(10), 1),
        VersionSummary("1.1", "heuristic-exp", at(7), at(7), 1),
        VersionSummary("1.0", "heuristic", at(0), at(5), 2),
        VersionSummary("", "heuristic", at(1), at(1), 1),
    ]
    assert registry.versions_by_bot() == {
        bot.id: registry.versions(bot.id), other.id: registry.versions(other.id),
    }
    assert registry.versions(other.id) == [VersionSummary("0.1", "other", at(0), at(0), 1)]


def test_clocks_that_disagree_never_move_a_sighting_the_wrong_way(db_url: str) -> None:
    """Two arenas on one database, one of them a minute behind: first seen stays the earliest,
    last seen the latest."""
    registry = BotRegistry(make_engine(db_url))
    bot, _ = registry.register("bot")
    registry.record_hello(bot.id, "bot", "2", T0)
    registry.record_hello(bot.id, "bot", "2", T0 - timedelta(minutes=1))
    registry.record_hello(bot.id, "bot", "2", T0 + timedelta(minutes=3))
    registry.record_hello(bot.id, "bot", "2", T0 + timedelta(minutes=2))
    (seen,) = registry.versions(bot.id)
    assert seen.first_seen == (T0 - timedelta(minutes=1)).isoformat()
    assert seen.last_seen == (T0 + timedelta(minutes=3)).isoformat()
    assert seen.connections == 4


def test_concurrent_hellos_are_all_counted(db_url: str) -> None:
    """Writers racing on the same row (one bot's connections opening at once, or several
    arenas): each Hello is one upsert, so none is lost and none fails on the primary key."""
    engines = [make_engine(db_url) for _ in range(2)]  # two arenas' engines, one database
    registries = [BotRegistry(engine) for engine in engines]
    bot, _ = registries[0].register("busy")
    hellos = 40
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda i: registries[i % 2].record_hello(bot.id, "busy", "3.0"),
                      range(hellos)))
    (seen,) = registries[1].versions(bot.id)
    assert seen.connections == hellos and seen.first_seen <= seen.last_seen


def test_unknown_bots_and_overlong_texts_are_refused(db_url: str) -> None:
    registry = BotRegistry(make_engine(db_url))
    bot, _ = registry.register("bot")
    with pytest.raises(UnknownBotError, match="no bot with id 'bot_nope'"):
        registry.record_hello("bot_nope", "bot", "1")
    with pytest.raises(UnknownBotError, match="no bot with id 'bot_nope'"):
        registry.versions("bot_nope")
    with pytest.raises(ValueError, match="bot_version is at most 100 characters, got 101"):
        registry.record_hello(bot.id, "bot", "v" * 101)
    with pytest.raises(ValueError, match="bot_name is at most 100 characters, got 101"):
        registry.record_hello(bot.id, "n" * 101, "1")
    registry.record_hello(bot.id, "n" * 100, "é" * 100)  # 100 characters, 200 bytes: fits
    assert registry.versions(bot.id)[0].version == "é" * 100
    assert registry.versions_by_bot().keys() == {bot.id}


def test_a_database_at_revision_0002_is_upgraded_with_its_bots_kept(db_url: str) -> None:
    old = sqlalchemy.create_engine(db_url)
    upgrade(old, "0002")
    with Session(old) as session:
        session.add(Bot(id="bot_old", name="veteran", token_hash="0" * 64))
        session.commit()
    assert "bot_version" not in sqlalchemy.inspect(old).get_table_names()
    old.dispose()

    engine = make_engine(db_url)  # what any command does on startup
    assert "bot_version" in sqlalchemy.inspect(engine).get_table_names()
    with engine.connect() as connection:
        heads = connection.execute(sqlalchemy.text("SELECT version_num FROM alembic_version"))
        assert heads.scalars().all() == ["0004"]
    registry = BotRegistry(engine)
    assert [b.name for b in registry.list()] == ["veteran"]
    assert registry.versions("bot_old") == []
    registry.record_hello("bot_old", "veteran", "2.0", T0)
    assert registry.versions("bot_old") == [
        VersionSummary("2.0", "veteran", T0.isoformat(), T0.isoformat(), 1)
    ]

    config = alembic_config(engine)  # and back: the versions go, the bots stay
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
    assert "bot_version" not in sqlalchemy.inspect(engine).get_table_names()
    with Session(engine) as session:
        assert session.exec(select(Bot.name)).all() == ["veteran"]
    engine.dispose()


def test_a_bot_sending_a_new_version_every_time_keeps_only_the_latest_rows(db_url: str) -> None:
    registry = BotRegistry(make_engine(db_url))
    bot, _ = registry.register("churner")
    start = datetime(2026, 11, 30, tzinfo=UTC)
    for n in range(VERSIONS_KEPT + 10):
        registry.record_hello(bot.id, "churner", f"v{n}", when=start + timedelta(seconds=n))
    kept = registry.versions(bot.id)
    assert len(kept) == VERSIONS_KEPT
    assert {v.version for v in kept} == {f"v{n}" for n in range(10, VERSIONS_KEPT + 10)}
