"""Persistence in SQLite (aiosqlite): what happened in each tournament, nothing derived.

May import only the standard library and aiosqlite: never swiss, service or anything above.

* :mod:`storage.db` -- ``connect(path)``: start-up checks (refuses a file that is not a database,
  damaged, read-only or from a newer swissbot), WAL, foreign keys, busy timeout, numbered
  migrations (``storage/migrations/NNNN_*.sql``, ``PRAGMA user_version``),
  ``Database.transaction()``.
* Repositories, typed async functions over one connection inside a transaction:
  :mod:`storage.tournaments` (guild settings, tournaments), :mod:`storage.players`,
  :mod:`storage.rounds` (rounds, games with the report / confirm / dispute trail, byes, bye
  requests, forbidden pairs), :mod:`storage.journal` (append-only audit log, outbox).

Pairings and standings are never stored: the service rebuilds a ``swiss.model.Tournament``
from these rows and lets the pure core derive them.
"""
