"""circle aliases: two spellings of one person in a circle (牌友圈) counted as one (issue 28 item 4)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 04:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('ledger_circle_aliases',
                    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
                    sa.Column('circle', sa.String(length=32), nullable=False),
                    sa.Column('name', sa.String(length=64), nullable=False),
                    sa.Column('same_as', sa.String(length=64), nullable=False),
                    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
                    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_circle_aliases')),
                    sa.UniqueConstraint('circle', 'name', name='uq_ledger_circle_aliases_circle_name'))


def downgrade():
    op.drop_table('ledger_circle_aliases')
