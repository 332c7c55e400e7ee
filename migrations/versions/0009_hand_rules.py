"""hands: the house rules each hand was settled with, once a table's rules changed during the evening
(issue 38 item 5)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade():
    # NULL: the table's rules now (every hand stored before this migration: its table's rules never changed);
    # a change of the table's rules writes them into its hands that have none (webapp/ledger/table_rules.py)
    with op.batch_alter_table('ledger_hands') as batch:
        batch.add_column(sa.Column('rules', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('ledger_hands') as batch:
        batch.drop_column('rules')
