"""Storage through SQLModel: SQLite by default, PostgreSQL through a database URL."""
