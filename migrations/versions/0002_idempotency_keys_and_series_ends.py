"""idempotency keys of POST …/hands; whether a hand ends a series (issue 9)

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 12:00:00

"""
import json

from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('ledger_idempotency',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('key', sa.String(length=128), nullable=False),
    sa.Column('status', sa.Integer(), nullable=False),
    sa.Column('answer', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['ledger_tables.id'],
                            name=op.f('fk_ledger_idempotency_table_id_ledger_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_idempotency')),
    sa.UniqueConstraint('table_id', 'key', name='uq_ledger_idempotency_table_key')
    )
    with op.batch_alter_table('ledger_hands') as batch:
        batch.add_column(sa.Column('ends_series', sa.Boolean(), nullable=False, server_default=sa.false()))
    # the hands stored before: a Q783 hand ends its 大局 when its result says game_over
    hands = sa.table('ledger_hands', sa.column('id', sa.Integer), sa.column('result', sa.JSON),
                     sa.column('ends_series', sa.Boolean))
    bind = op.get_bind()
    for hand_id, result in bind.execute(sa.select(hands.c.id, hands.c.result)).all():
        result = json.loads(result) if isinstance(result, str) else (result or {})
        if (result.get('zh') or {}).get('game_over'):
            bind.execute(hands.update().where(hands.c.id == hand_id).values(ends_series=True))


def downgrade():
    with op.batch_alter_table('ledger_hands') as batch:
        batch.drop_column('ends_series')
    op.drop_table('ledger_idempotency')
