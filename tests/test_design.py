"""The design's rules, held by tests: a pure engine, no cycles, small modules and functions, a web layer
that finds games only through the registry."""
import re
import subprocess
import sys
from pathlib import Path

import grimp
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


def game_modules(graph) -> set[str]:
    """Each game's own modules: those named after its slug (``q783.py``, ``q783_rounds.py``…), and those that
    build on one (争上游's variant module imports 跑得快's patterns)."""
    slugs = [game.slug for game in all_games()]
    top = graph.find_children("scoring") - {"scoring.registry"}
    named = {m for m in top if m.split(".")[1].split("_")[0] in slugs}
    return named | {m for m in top if graph.find_modules_directly_imported_by(m) & named}


def slug_pattern() -> re.Pattern:
    slugs = sorted({game.slug for game in all_games()}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(map(re.escape, slugs)) + r")\b")


def web_sources() -> list[Path]:
    """webapp's code and every template but the per-game rules partials (templates/rules/_<slug>.html)."""
    partials = {ROOT / "templates" / "rules" / f"_{game.slug}.html" for game in all_games()}
    templates = [p for p in (ROOT / "templates").rglob("*.html") if p not in partials]
    return python_files("webapp") + sorted(templates)


def test_no_module_of_the_engine_or_the_web_layer_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in python_files(*CODE)
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}


def test_the_web_layer_imports_no_game_module_only_the_registry():
    graph = grimp.build_graph("webapp", "scoring", exclude_type_checking_imports=True)
    owned = game_modules(graph)
    assert {"scoring.q783", "scoring.q783_rounds", "scoring.zhengshangyou"} <= owned  # the check can see them
    found = sorted((importer, imported) for importer in graph.find_descendants("webapp") | {"webapp"}
                   for imported in graph.find_modules_directly_imported_by(importer) if imported in owned)
    assert found == []


def test_no_game_slug_is_written_in_the_web_layer_or_its_templates():
    pattern = slug_pattern()
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in web_sources()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert found == []


def test_the_slug_check_finds_a_slug_where_one_is_written():
    """The check above can fail: it finds every game's slug in a line that names it."""
    pattern = slug_pattern()
    for game in all_games():
        assert pattern.search(f'if table.game == "{game.slug}":')
    assert not pattern.search("if game.live is not None:")


def static_scripts() -> list[Path]:
    return sorted((ROOT / "static").glob("*.js"))


def test_no_page_script_names_a_game():
    named = {p.name: found for p in static_scripts() if (found := slug_pattern().findall(p.read_text("utf-8")))}
    assert named == {}


def declared_names() -> set[str]:
    """Every game's slug, and the name of every input and answer field a game or a core declares."""
    def names(fields):
        for f in fields:
            yield f.name
            yield from names(getattr(f, "fields", ()))
    found = set()
    for game in all_games():
        found.add(game.slug)
        for action in game.action_names():
            schema = game.settle_input if action == "settle" else game.action_input(action)
            answer = game.answer_of(action)
            found.update(names(schema.fields if schema else ()), names(answer.fields if answer else ()))
    return found


#: the scripts that draw the engine's answers in the phone: they draw a view (scoring/result_view.py) or fill the
#: page's words with what the phone's engine worked out (held hands: webapp/offline_page.held_hands), and know no
#: game, no input field and no answer field
ANSWER_SCRIPTS = ("offline-engine.js", "offline-engine-worker.js", "held-in-phone.js")
#: names of the browser's own that a field shares (a PromiseRejectionEvent's ``reason``)
BROWSER_NAMES = {"reason"}


def test_the_scripts_that_draw_answers_name_no_game_and_no_field():
    names = declared_names() - BROWSER_NAMES
    named = {}
    for script in ANSWER_SCRIPTS:
        text = (ROOT / "static" / script).read_text("utf-8")
        found = sorted(n for n in names if re.search(r"""["'.]%s\b(?![-(])""" % re.escape(n), text))
        if found:
            named[script] = found
    assert named == {}


def test_the_check_finds_a_field_a_script_names():
    """The check above can fail: a held hand's deltas read in a script (``phone.deltas``) are found."""
    names = declared_names()
    assert "deltas" in names and re.search(r"""["'.]deltas\b(?![-(])""", "return phone.deltas;")


def test_only_the_storage_module_touches_localstorage_and_names_its_keys():
    """One storage module (static/storage.js) keeps this phone's localStorage and every key in it."""
    source = (ROOT / "static" / "storage.js").read_text("utf-8")
    entry = r""":\s*"(paiju[^"]+)",?\s*//"""
    keys = re.findall(entry, source.split("var KEYS", 1)[1].split("};", 1)[0])
    assert "paiju.outbox" in keys and len(keys) == 6
    named = {p.name: [k for k in keys if k in p.read_text("utf-8")] for p in static_scripts()}
    touching = {p.name for p in static_scripts() if "localStorage." in p.read_text("utf-8")}
    assert touching == {"storage.js"}
    assert {name: found for name, found in named.items() if found} == {"storage.js": keys}
    # the cookies that tell the server what the phone needs: set there too, and read by name only where that
    # module is not loaded (static/pwa.js, to load it when the phone holds hands)
    flags = re.findall(entry, source.split("var FLAGS", 1)[1].split("};", 1)[0])
    assert flags == ["paiju_offline", "paiju_held"]
    setting = {p.name for p in static_scripts() if "document.cookie =" in p.read_text("utf-8")}
    assert setting == {"storage.js"}
    flagged = {p.name: [f for f in flags if f + "=" in p.read_text("utf-8")] for p in static_scripts()}
    assert {name: found for name, found in flagged.items() if found} == {"pwa.js": ["paiju_held"]}
