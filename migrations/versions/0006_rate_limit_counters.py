"""rate-limit counters in the database, shared by every worker and server (issue 25)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03 17:50:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('ledger_rate_limits',
                    sa.Column('key', sa.String(length=255), nullable=False),
                    sa.Column('count', sa.Integer(), nullable=False),
                    sa.Column('expires_at', sa.Float(), nullable=False),
                    sa.PrimaryKeyConstraint('key', name=op.f('pk_ledger_rate_limits')))


def downgrade():
    op.drop_table('ledger_rate_limits')
