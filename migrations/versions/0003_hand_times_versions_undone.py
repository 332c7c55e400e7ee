"""hands: when their input was last edited, the table version that last wrote their input and their result;
tables: the hand undo took (for redo), the last change a live poll cannot send as changed hands (issue 10) and
the kept totals (issue 11); who sits where (tables: for the next hands; hands: in each hand)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 13:40:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('ledger_hands') as batch:
        batch.add_column(sa.Column('edited_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('input_version', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('changed_version', sa.Integer(), nullable=False, server_default='0'))
        batch.create_index('ix_ledger_hands_table_changed', ['table_id', 'changed_version'])
        batch.add_column(sa.Column('seats', sa.JSON(), nullable=True))
    with op.batch_alter_table('ledger_tables') as batch:
        batch.add_column(sa.Column('undone', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('reset_version', sa.Integer(), nullable=False, server_default='0'))
        # kept from the first write on (webapp/models.py locked_table): no table is read here
        batch.add_column(sa.Column('kept_totals', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('seated', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('ledger_tables') as batch:
        batch.drop_column('seated')
        batch.drop_column('kept_totals')
        batch.drop_column('reset_version')
        batch.drop_column('undone')
    with op.batch_alter_table('ledger_hands') as batch:
        batch.drop_column('seats')
        batch.drop_index('ix_ledger_hands_table_changed')
        batch.drop_column('changed_version')
        batch.drop_column('input_version')
        batch.drop_column('edited_at')
