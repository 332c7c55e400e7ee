"""idempotency keys remember what the first request sent, so a key reused with another body is refused (issue 25)

Rows kept before have no digest (NULL) and are not compared.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03 17:40:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('ledger_idempotency') as batch:
        batch.add_column(sa.Column('request_digest', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('ledger_idempotency') as batch:
        batch.drop_column('request_digest')
