"""The table ledger (issue 5). Placeholder until the ledger lands."""


def init_app(app):
    return None
