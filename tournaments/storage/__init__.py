"""The home of tournament storage: every query on the tournament tables is written here or in
:mod:`tournaments.store` (the tournament's life: creating it, claiming and finishing its
tables, exporting it), and the rest of ``tournaments`` asks them by name.

The tables themselves (``Tournament``, ``Board``, ``ArenaTable``, ``TableSeat``, ``Decision``)
stay declared in :mod:`arena.storage.models`, beside the bots': one database has one schema and
one history of migrations (:mod:`arena.storage.migrations`), which must see every table and
must not import ``tournaments``.

- :mod:`.pages`: what the web pages read (one query per look, no query per row);
- :mod:`.lifecycle`: cancelling and deleting a tournament.
"""
