"""tables: the circle (牌友圈) an evening belongs to and the evening it followed (issue 26 item 8, issue 28 item 3)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 01:50:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    # None on the tables made before: such a table is a circle of its own, named by its id (LedgerTable.circle_id)
    with op.batch_alter_table('ledger_tables') as batch:
        batch.add_column(sa.Column('circle', sa.String(length=32), nullable=True))
        batch.add_column(sa.Column('previous_id', sa.String(length=32), nullable=True))
        batch.create_index('ix_ledger_tables_previous_id', ['previous_id'])
        batch.create_index('ix_ledger_tables_circle', ['circle'])


def downgrade():
    with op.batch_alter_table('ledger_tables') as batch:
        batch.drop_index('ix_ledger_tables_circle')
        batch.drop_index('ix_ledger_tables_previous_id')
        batch.drop_column('previous_id')
        batch.drop_column('circle')
