"""Schema migrations with alembic, run from code: ``upgrade(engine)`` brings a database to head.

The migration scripts live in ``arena/storage/migrations/versions``; after changing
``models.py``, write a new one with ``make migration m="what changed"``.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(engine: Engine | None = None, url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url)
    elif engine is not None:
        config.set_main_option(
            "sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%")
        )
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def revise(url: str, message: str) -> None:
    """Autogenerate a migration script against the database at ``url`` (kept at head)."""
    command.revision(alembic_config(url=url), message=message, autogenerate=True)
