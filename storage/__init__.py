"""Persistence in SQLite (aiosqlite) or PostgreSQL (asyncpg): what happened in each tournament,
nothing derived.

May import only the standard library, aiosqlite and asyncpg: never swiss, service or anything
above. See docs/database.md.

* :mod:`storage.db` -- ``connect(path_or_url)``: a ``postgresql://`` URL opens a pool
  (:mod:`storage.dialects.postgresql`); a path opens SQLite with start-up checks (refuses a file
  that is not a database, damaged, read-only or from a newer swissbot), WAL, foreign keys, busy
  timeout, numbered migrations (``storage/migrations/NNNN_*.sql``, ``PRAGMA user_version``;
  PostgreSQL's twins in ``storage/migrations_postgresql``), ``Database.transaction()``.
* :mod:`storage.connection` -- the ``Connection`` interface of both backends, ``IntegrityError``,
  ``dialect(conn)``; :mod:`storage.dialects` -- what differs per dialect.
* :mod:`storage.moving` -- ``swissbot db copy`` and ``db check``.
* Repositories, typed async functions over one connection inside a transaction:
  :mod:`storage.tournaments` (guild settings, tournaments), :mod:`storage.players`,
  :mod:`storage.rounds` (rounds, games with the report / confirm / dispute trail, byes, bye
  requests, forbidden pairs), :mod:`storage.journal` (append-only audit log, outbox).

Pairings and standings are never stored: the service rebuilds a ``swiss.model.Tournament``
from these rows and lets the pure core derive them.
"""
