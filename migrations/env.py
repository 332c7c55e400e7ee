"""Alembic environment for the ledger (Flask-Migrate).

Runs both from ``flask db …`` and from :func:`webapp.ledger.db.ensure_schema` at app
start. Logging is only configured for ``flask db …`` (and only when nothing
configured it yet), so a running server or pytest keep their loggers.
:func:`webapp.ledger.db.migrations_locked` makes several processes starting at once
apply the migrations one after the other.
"""
import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

from webapp.ledger.db import migrations_locked

config = context.config
_auto = current_app.extensions.get("paiju_db", {}).get("auto_migrating")
if config.config_file_name is not None and not _auto and not logging.getLogger().handlers:
    fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")


def get_engine():
    return current_app.extensions["migrate"].db.engine


config.set_main_option("sqlalchemy.url",
                       get_engine().url.render_as_string(hide_password=False).replace("%", "%%"))
target_db = current_app.extensions["migrate"].db


def get_metadata():
    if hasattr(target_db, "metadatas"):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=get_metadata(),
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", process_revision_directives)
    conf_args.setdefault("render_as_batch", True)  # SQLite needs batch mode for ALTERs

    with get_engine().connect() as connection, migrations_locked(connection):
        context.configure(connection=connection, target_metadata=get_metadata(), **conf_args)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
