"""Alembic environment of the Septet server: revisions run on the connection that
:func:`septet.server.db.migrate` passes in (under its migration lock); with none (the
``alembic`` command line), on ``sqlalchemy.url`` or ``$SEPTET_DATABASE_URL``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from septet.server.db import Base, make_engine


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    from septet.server.config import default_database_url

    url = context.config.get_main_option("sqlalchemy.url") or default_database_url()
    engine = make_engine(url)
    with engine.connect() as conn:
        _run(conn)
        conn.commit()
    engine.dispose()


run_migrations_online()
