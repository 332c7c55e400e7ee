"""The design's rules, held by tests: a pure engine, no cycles, small modules and functions, a web layer
that finds games only through the registry."""
import re
import subprocess
import sys
from pathlib import Path

from importlinter.cli import lint_imports

from scoring.registry import all_games

ROOT = Path(__file__).resolve().parent.parent
CODE = ("scoring", "webapp")
MAX_MODULE_LINES = 600


def python_files(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def test_import_contracts_hold_engine_pure_and_no_cycles():
    """``[tool.importlinter]`` in pyproject.toml: scoring imports nothing of Flask, Werkzeug, SQLAlchemy or
    webapp; no import cycle among the modules of scoring or of webapp."""
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_every_function_has_cyclomatic_complexity_at_most_15():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "C901",
                             "--output-format", "concise", *CODE], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def game_modules() -> set[str]:
    return {type(game).__module__ for game in all_games()}


def slug_pattern() -> re.Pattern:
    slugs = sorted({game.slug for game in all_games()}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(map(re.escape, slugs)) + r")\b")


def web_sources() -> list[Path]:
    """webapp's code and every template but the per-game rules partials (templates/rules/_<slug>.html)."""
    partials = {ROOT / "templates" / "rules" / f"_{game.slug}.html" for game in all_games()}
    templates = [p for p in (ROOT / "templates").rglob("*.html") if p not in partials]
    return python_files("webapp") + sorted(templates)


def test_the_slug_check_finds_a_slug_where_one_is_written():
    """The check above can fail: it finds every game's slug in a line that names it."""
    pattern = slug_pattern()
    for game in all_games():
        assert pattern.search(f'if table.game == "{game.slug}":')
    assert not pattern.search("if game.live is not None:")
