"""牌局 Paiju engine: pure Python, no Flask, no I/O."""
