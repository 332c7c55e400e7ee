"""Benchmarks of the engine (run ``python -m bench`` from the repository root)."""
