"""hands: on SQLite, a hand's result is stored after its other columns (issue 38 item 7)

SQLite keeps a row's columns in order and a large value in a chain of overflow pages: every column stored after
a hand's result (its times, versions, seats, rules; a Q783 hand's result with its steps is up to 100 KB) was read
by walking that chain, so the integrity check, the statistics and every page's small-column queries of a
2,000-hand table walked about 200 MB. The table is rebuilt with the result last; nothing else changes (PostgreSQL
keeps large values apart from the row already: nothing to do there).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07 15:45:00

"""
from alembic import op


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

ORDER = ('id', 'table_id', 'number', 'ends_series', 'created_at', 'updated_at', 'edited_at', 'input_version',
         'changed_version', 'seats', 'rules', 'deltas', 'input', 'result')


def upgrade():
    if op.get_bind().dialect.name != 'sqlite':
        return
    with op.batch_alter_table('ledger_hands', recreate='always', partial_reordering=[ORDER]):
        pass


def downgrade():
    pass  # the order of columns means nothing to what is stored
