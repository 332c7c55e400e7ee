"""The OpenAPI 3.1 document at /api/v1/openapi.json: valid, generated from the declarations, cached."""
from __future__ import annotations

import re

import jsonschema
import pytest
from binding_examples import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from properties import examples

from scoring.inputs import Context
from scoring.registry import all_games
from webapp.openapi import document


def schema_of(doc: dict, path: str, method: str = "post") -> dict:
    return doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]


def resolved(doc: dict, schema: dict) -> dict:
    """A schema whose $refs point into this document."""
    return {**schema, "components": doc["components"]}


@pytest.fixture
def doc_en(client):
    resp = client.get("/api/v1/openapi.json", headers={"Accept-Language": "en"})
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    return resp.get_json()


def test_the_document_is_valid_openapi_3_1_in_both_languages(client):
    for lang in ("zh", "en"):
        doc = client.get("/api/v1/openapi.json", headers={"Accept-Language": lang}).get_json()
        assert doc["openapi"] == "3.1.0"
        validate(doc)


def test_the_document_speaks_the_request_language(client):
    zh = client.get("/api/v1/openapi.json").get_json()
    en = client.get("/api/v1/openapi.json", headers={"Accept-Language": "en"}).get_json()
    zh_title = schema_of(zh, "/api/v1/hongwu/settle")["properties"]["bid"]["title"]
    en_title = schema_of(en, "/api/v1/hongwu/settle")["properties"]["bid"]["title"]
    assert (zh_title, en_title) == ("叫分", "the bid")


def test_the_document_is_built_once_per_language(app):
    with app.app_context():
        assert document(app, "en") is document(app, "en")
        assert document(app, "zh") is not document(app, "en")


def test_every_action_of_every_game_is_an_operation(doc_en):
    for game in all_games():
        for action in game.action_names():
            assert f"/api/v1/{game.slug}/{action}" in doc_en["paths"], (game.slug, action)


def test_a_settle_body_has_the_fields_the_game_declares(doc_en):
    for game in all_games():
        body = schema_of(doc_en, f"/api/v1/{game.slug}/settle")
        declared = [f.name for f in game.settle_input.fields]
        assert list(body["properties"]) == declared + ["rules"]
        assert body["required"] == [f.name for f in game.settle_input.fields if f.required]


def test_a_seat_is_an_integer_from_0_to_the_last_seat_or_its_digits(doc_en):
    winner = schema_of(doc_en, "/api/v1/paodekuai/settle")["properties"]["winner"]
    number, digits = winner["anyOf"]
    assert number == {"type": "integer", "minimum": 0, "maximum": 3}
    assert digits["type"] == "string"
    pattern = re.compile(digits["pattern"])  # what strict_int reads: ASCII digits, one sign, spaces around
    assert all(pattern.search(text) for text in ("2", "+2", " 2 ", "-0", "2\u3000"))
    assert not any(pattern.search(text) for text in ("", "２", "٢", "2 2", "1e2", "0x2", "1234567890"))


def test_a_number_field_states_its_range_and_step(doc_en):
    bid = schema_of(doc_en, "/api/v1/erqiwang/settle")["properties"]["bid"]["anyOf"][0]
    assert bid == {"type": "integer", "minimum": 5, "maximum": 80, "multipleOf": 5}


def test_a_bound_that_depends_on_the_house_rules_is_left_out(doc_en):
    bid = schema_of(doc_en, "/api/v1/hongwu/settle")["properties"]["bid"]["anyOf"][0]
    assert bid == {"type": "integer", "multipleOf": 5}


def test_rows_are_an_array_of_objects_with_at_most_max_rows(doc_en):
    rounds = schema_of(doc_en, "/api/v1/q783/settle")["properties"]["rounds"]["anyOf"][0]
    assert rounds["type"] == "array" and rounds["maxItems"] == 80
    declared = next(g for g in all_games() if g.slug == "q783").settle_input.field("rounds").fields
    assert list(rounds["items"]["properties"]) == [f.name for f in declared]
    assert rounds["items"]["required"] == ["winner"]


def test_house_rules_list_every_option_with_its_values_and_default(doc_en):
    for game in all_games():
        rules = doc_en["components"]["schemas"][f"{game.slug}_rules"]["anyOf"][0]
        assert rules["additionalProperties"] is False
        assert rules["properties"]["preset"]["anyOf"][0]["enum"] == [p.name for p in game.ruleset.presets] + [""]
        for option in game.ruleset.options:
            assert rules["properties"][option.name]["default"] == option.default


def test_every_worked_example_is_a_valid_body_and_its_answer_matches_the_document(doc_en, client):
    for slug, worked in ((g.slug, g.examples) for g in all_games()):
        for action, _title, payload in worked:
            path = f"/api/v1/{slug}/{action}"
            jsonschema.Draft202012Validator(resolved(doc_en, schema_of(doc_en, path))).validate(payload)
            resp = client.post(path, json=payload)
            assert resp.status_code == 200, (path, resp.get_json())
            answer = doc_en["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
            jsonschema.Draft202012Validator(answer).validate(resp.get_json())


def answer_schema(doc: dict, path: str) -> dict:
    return doc["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]


def objects_in(schema) -> list[dict]:
    """Every object schema inside ``schema`` (itself included), however deep."""
    if isinstance(schema, list):
        return [o for item in schema for o in objects_in(item)]
    if not isinstance(schema, dict):
        return []
    own = [schema] if schema.get("type") == "object" else []
    return own + [o for value in schema.values() for o in objects_in(value)]


def test_every_answer_schema_and_the_error_is_closed_to_its_depths_and_declares_what_it_requires(doc_en):
    schemas = {(g.slug, a): answer_schema(doc_en, f"/api/v1/{g.slug}/{a}")
               for g in all_games() for a in g.action_names()}
    schemas["Error"] = doc_en["components"]["schemas"]["Error"]
    for where, schema in schemas.items():
        objects = objects_in(schema)
        assert objects and objects[0] is schema, where
        for found in objects:  # the answer, its readings, a chain bomb's x by y, a 冲关 row, an error …
            assert found["additionalProperties"] is False, (where, found)
            assert set(found.get("required", ())) <= set(found["properties"]), (where, found)


def test_the_games_list_is_closed_and_answers_as_the_document_says_in_both_languages(doc_en, client):
    schema = doc_en["paths"]["/api/v1/games"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert all(found["additionalProperties"] is False for found in objects_in(schema) if "properties" in found)
    for lang in ("zh", "en"):
        listed = client.get("/api/v1/games", headers={"Accept-Language": lang}).get_json()
        jsonschema.Draft202012Validator(schema).validate(listed)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"games": [{**listed["games"][0], "more": 1}]}, schema)


def error_schema(doc: dict) -> dict:
    return resolved(doc, {"$ref": "#/components/schemas/Error"})


def test_every_binding_examples_answer_validates_against_its_closed_schema_errors_included(doc_en, client):
    """A 200 against its operation's answer, a refusal against the closed error shape (docs/api.md, Errors)."""
    counted = {"answers": 0, "errors": 0}
    for example in EXAMPLES:
        path = f"/api/v1/{example.slug}/{example.action}"
        resp = client.post(path, json=example.payload)
        ok = resp.status_code == 200
        assert ok or resp.status_code in (400, 422), (example.source, resp.status_code)
        schema = answer_schema(doc_en, path) if ok else error_schema(doc_en)
        jsonschema.Draft202012Validator(schema).validate(resp.get_json())
        counted["answers" if ok else "errors"] += 1
    assert counted["answers"] > 200 and counted["errors"] > 20, counted


def test_an_undeclared_answer_field_is_refused_by_the_schema_at_any_depth(doc_en):
    settled = {"deltas": [1, -1], "steps": [], "outcome": "dankou", "outcome_name": "单扣", "multiplier": 1}
    validator = jsonschema.Draft202012Validator(answer_schema(doc_en, "/api/v1/shuangkou/settle"))
    validator.validate(settled)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**settled, "more": 1})
    reading = {"kind": "q783", "label": "正Q783", "size": 4, "bomb": False, "cards": "♦Q ♦7 ♦8 ♦3", "pure": True}
    checked = {"legal": True, "reason": "", "reading": reading, "readings": [reading]}
    validator = jsonschema.Draft202012Validator(answer_schema(doc_en, "/api/v1/q783/check"))
    validator.validate(checked)
    for wrong in ({**checked, "reading": {**reading, "lines": 7}}, {**checked, "readings": [{**reading, "x": 1}]}):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(wrong)
    error = {"error": {"code": "invalid_cards", "message": "…", "field": "cards"}}
    validator = jsonschema.Draft202012Validator(error_schema(doc_en))
    validator.validate(error)
    for wrong in ({**error, "more": 1}, {"error": {**error["error"], "more": 1}}):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(wrong)


def test_an_error_answer_matches_the_documented_error_shape(doc_en, client):
    resp = client.post("/api/v1/hongwu/settle", json={"declarer": "x", "bid": 7})
    assert resp.status_code == 400
    jsonschema.Draft202012Validator(error_schema(doc_en)).validate(resp.get_json())
    assert len(resp.get_json()["errors"]) > 1


def test_the_ledger_operations_are_described_where_the_app_serves_them(doc_en):
    assert set(doc_en["paths"]["/api/v1/tables/{table_id}/hands/{number}"]) == {"put", "delete"}
    assert "post" in doc_en["paths"]["/api/v1/tables/{table_id}/hands"]
    assert "get" in doc_en["paths"]["/api/v1/tables/{table_id}"]


def test_settle_schemas_hold_under_the_most_seats():
    q783 = next(g for g in all_games() if g.slug == "q783")
    banks = q783.settle_input.field("banks").json_schema(Context(seats=6))
    assert banks["maxItems"] == 6


def card_patterns(schema) -> list[str]:
    """The pattern of every card text in a schema (its description says "cards"), however deep."""
    if isinstance(schema, list):
        return [p for item in schema for p in card_patterns(item)]
    if not isinstance(schema, dict):
        return []
    own = [schema["pattern"]] if str(schema.get("description", "")).startswith("cards") else []
    return own + [p for value in schema.values() for p in card_patterns(value)]


def test_every_place_cards_appear_states_the_one_card_text_pattern(doc_en):
    from scoring.inputs.notation import card_text_pattern
    found = card_patterns(doc_en["paths"])
    assert len(found) > 40 and set(found) == {card_text_pattern(0), card_text_pattern(1)}


def test_card_text_the_reader_reads_but_the_game_refuses_answers_422_and_other_text_400(client):
    cases = [({"cards": "♠A ♠A"}, 422, "too_many_copies"), ({"cards": "大王"}, 422, "card_not_in_deck"),
             ({"cards": "ＳＡ"}, 200, None), ({"cards": "♠⑩"}, 400, "invalid_cards"),
             ({"cards": "♠A x"}, 400, "invalid_cards")]
    for body, status, code in cases:
        resp = client.post("/api/v1/paodekuai/classify", json=body)
        assert resp.status_code == status, (body, resp.get_json())
        assert code is None or resp.get_json()["error"]["code"] == code


def test_a_bomb_row_needs_its_cards_or_its_lines_in_the_document_too(doc_en):
    bombs = schema_of(doc_en, "/api/v1/shuangkou/settle")["properties"]["bombs"]
    row = next(s["items"] for s in bombs.get("anyOf", [bombs]) if "items" in s)
    needs = resolved(doc_en, {"type": "object", **row})
    jsonschema.validate({"seat": 0, "lines": 5}, needs)
    jsonschema.validate({"seat": 0, "cards": "♠7 ♥7 ♣7 ♦7"}, needs)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"seat": 0, "cards": "", "lines": None}, needs)


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["0", "1", "5", "9", ".", " ", "\u3000", "x", "-", "e"]), max_size=14).map("".join))
def test_the_money_per_point_pattern_matches_exactly_what_settle_up_reads(text):
    from scoring.errors import PaijuError
    from scoring.settleup import parse_per_point
    from webapp.ledger.openapi import PER_POINT_TEXT
    try:
        parse_per_point(text)
        read = True
    except PaijuError:
        read = False
    assert (re.fullmatch(PER_POINT_TEXT, text) is not None) == read, ascii(text)
