"""What differs between SQLite and PostgreSQL, one module per dialect.

Each module defines the same SQL fragments (``NAME_EQUALS``, :func:`lock_clause`) so that the
repositories keep one query text; :mod:`storage.dialects.postgresql` also holds the asyncpg
connection adapter, its pool, its transactions and its migrations.
"""
