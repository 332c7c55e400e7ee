"""hands: the result stored once in no language, its texts rendered when shown (issue 11)

Before, ``ledger_hands.result`` held the result rendered in each language, ``{"zh": {...}, "en": {...}}``.
Now it holds it once, every text as ``{"$zh": template, "$en": template, **params}``
(``scoring.i18n.to_json``).
A stored hand's two renderings become one result whose texts are the two rendered strings (no
parameters): it shows exactly as before in either language. Downgrading renders them again.
The format is written out here, not imported, so that this migration keeps doing what it did.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 16:00:00

"""
import json

from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

ZH, EN = '$zh', '$en'
BATCH = 500

hands = sa.table('ledger_hands', sa.column('id', sa.Integer), sa.column('result', sa.JSON))


def merged(zh, en):
    """One value in no language from its two renderings: where they differ, a text of the two."""
    if isinstance(zh, dict) and isinstance(en, dict):
        return {key: merged(zh[key], en.get(key, zh[key])) for key in zh}
    if isinstance(zh, list) and isinstance(en, list) and len(zh) == len(en):
        return [merged(a, b) for a, b in zip(zh, en)]
    if isinstance(zh, str) and isinstance(en, str) and zh != en:
        return {ZH: zh, EN: en}
    return zh


def rendered(value, lang):
    """A value in no language rendered in ``lang`` (scoring.i18n.render_json as of this migration)."""
    if isinstance(value, dict):
        if ZH not in value:
            return {key: rendered(v, lang) for key, v in value.items()}
        template = value.get(EN, value[ZH]) if lang == 'en' else value[ZH]
        params = {key: rendered(v, lang) for key, v in value.items() if key not in (ZH, EN)}
        return template.format(**params) if params else template
    if isinstance(value, list):
        return [rendered(v, lang) for v in value]
    return value


def is_per_language(result):
    return isinstance(result, dict) and 'zh' in result and set(result) <= {'zh', 'en'}


def to_neutral(result):
    if not is_per_language(result):
        return None
    return merged(result['zh'] or {}, result.get('en') or result['zh'] or {})


def to_per_language(result):
    if not isinstance(result, dict) or is_per_language(result):
        return None
    return {lang: rendered(result, lang) for lang in ('zh', 'en')}


def convert(change):
    """Rewrite every hand's result with ``change`` (None: leave it), a batch of rows at a time."""
    bind = op.get_bind()
    last = 0
    while True:
        rows = bind.execute(sa.select(hands.c.id, hands.c.result).where(hands.c.id > last)
                            .order_by(hands.c.id).limit(BATCH)).all()
        if not rows:
            return
        updates = []
        for hand_id, result in rows:
            result = json.loads(result) if isinstance(result, str) else result
            new = change(result)
            if new is not None:
                updates.append({'hand_id': hand_id, 'new': new})
        if updates:
            bind.execute(hands.update().where(hands.c.id == sa.bindparam('hand_id'))
                         .values(result=sa.bindparam('new', type_=sa.JSON)), updates)
        last = rows[-1][0]


def upgrade():
    convert(to_neutral)


def downgrade():
    convert(to_per_language)
