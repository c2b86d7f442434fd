"""Alembic revisions of the server's schema (run by :func:`septet.server.db.migrate`)."""
