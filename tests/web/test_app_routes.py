"""URL rules made again for every app (webapp/serving.py, ``SharedBuilderRule``): the apps of one process share
each rule's builder, and every URL an app builds is the one Werkzeug's own rules build."""
from __future__ import annotations

from flask import Flask
from werkzeug.routing import Map, Rule

from webapp import create_app
from webapp.serving import SharedBuilderRule

VALUES = {"integer": 7, "default": "x-1", "string": "x-1", "path": "a/b", "game": "q783"}


def value_for(converter):
    """A value the converter takes: one of its choices (``any(…)``), else one of its kind."""
    choices = getattr(converter, "items", None)
    return sorted(choices)[0] if choices else VALUES.get(type(converter).__name__.removesuffix("Converter").lower(),
                                                         "x-1")


def arguments(rule) -> dict:
    return {name: value_for(rule._converters[name]) for name in rule.arguments}


def test_two_apps_of_one_process_share_each_rules_builder_and_build_the_same_urls(tmp_path):
    first = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path}/a.db"})
    second = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path}/b.db"})
    assert first.url_rule_class is SharedBuilderRule
    pairs = list(zip(first.url_map.iter_rules(), second.url_map.iter_rules(), strict=True))
    assert all(a.rule == b.rule for a, b in pairs)
    shared = [a for a, b in pairs if not a.defaults and a._build.__func__ is b._build.__func__]
    assert len(shared) == sum(1 for a, _ in pairs if not a.defaults) > 50
    plain = Map([Rule(rule.rule, endpoint=rule.endpoint, defaults=rule.defaults, methods=rule.methods)
                 for rule in second.url_map.iter_rules()], converters=second.url_map.converters).bind("localhost")
    with second.test_request_context():
        built = second.url_map.bind("localhost")
        for rule in second.url_map.iter_rules():
            values = {**arguments(rule), "extra": "é &"}
            assert built.build(rule.endpoint, values) == plain.build(rule.endpoint, values), rule.rule


def test_a_rule_with_defaults_gets_a_builder_of_its_own():
    app = Flask(__name__)
    app.url_rule_class = SharedBuilderRule
    app.add_url_rule("/page/<int:n>", "page", defaults={"n": 1})
    app.add_url_rule("/page/<int:n>", "page_two", defaults={"n": 2})
    with app.test_request_context():
        built = app.url_map.bind("localhost")
        assert built.build("page", {}) == "/page/1"
        assert built.build("page_two", {}) == "/page/2"
