"""A payload as a game tab's form posts it: the (name, value) pairs a player's taps and typing make (the field
names the server's forms give: ``rules-preset``, ``finish_order-1``, ``bombs-0-lines``, ``play2``). Offline mode's
tests enter the binding examples through the pages with these, and check the phone's reading of them."""
from __future__ import annotations

from html.parser import HTMLParser

from databases import mark_migrated, migrated_sqlite_url
from werkzeug.datastructures import MultiDict

from scoring import inputs
from scoring.registry import all_games, get_game
from webapp import create_app
from webapp.offline_page import answer


def _text(value) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return "" if value is None else str(value)


def rules_pairs(rules: dict) -> list[tuple[str, str]]:
    return [(f"rules-{name}", _text(value)) for name, value in (rules or {}).items()]


def _settle_pairs(field, value, name: str) -> list[tuple[str, str]]:
    if value is None:
        return []
    if isinstance(field, inputs.SwitchField):
        return [(name, "y")] if value else []
    if isinstance(field, inputs.RowsField):
        return [pair for i, row in enumerate(value) for sub in field.fields
                for pair in _settle_pairs(sub, row.get(sub.name), f"{name}-{i}-{sub.name}")]
    if isinstance(value, list):
        return [(f"{name}-{i}", _text(v)) for i, v in enumerate(value)]
    return [(name, _text(value))]


def _action_pairs(field, value) -> list[tuple[str, str]]:
    if value is None:
        return []
    if field.entry == "seat_cards":
        return [(f"{field.name.removesuffix('s')}{i}", v) for i, v in enumerate(value)]
    if field.entry == "words":
        return [(field.name, " ".join(_text(v) for v in value))]
    if field.entry == "card_lines":
        return [(field.name, "\n".join(value))]
    if field.entry == "switch":
        return [(field.name, "y")] if value else []
    return [(field.name, _text(value))]


def form_pairs(game, action: str, payload: dict) -> list[tuple[str, str]]:
    """What the ``action`` tab's form posts for ``payload`` (its house rules first)."""
    pairs = rules_pairs(payload.get("rules"))
    if action == "settle":
        for field in game.settle_input.fields:
            pairs += _settle_pairs(field, payload.get(field.name), field.name)
    else:
        for field in game.action_input(action).form_fields():
            pairs += _action_pairs(field, payload.get(field.name))
    return pairs


def examples(actions=None) -> list[tuple[str, str, dict]]:
    """Every worked example the games declare (webapp/examples.py shows them on the rules pages), as
    (game slug, action, payload)."""
    return [(game.slug, action, payload) for game in all_games() for action, _title, payload in game.examples
            if actions is None or action in actions]


#: check and hint inputs of each shedding game (their binding examples' positions), and one refused input each
SHEDDING_HINTS = [
    ("paodekuai", {"previous": "♠5 ♥5", "hand": "♠6 ♥6 ♣9 ♦K ♠2"}),
    ("shuangkou", {"previous": "4 4 5 5 6 6", "hand": "7 7 8 8 9 9 大王 3"}),
    ("q783", {"previous": "♠4", "hand": "♠6 ♥Q ♥7 ♥8 ♥3 ♣9 ♦J"}),
]


# -- a binding example (tests/binding_examples.py) as a player enters it in its tab's form ---------------------

TRICK_GAMES = {"hongwu", "erqiwang"}


def unused_fields(example) -> list[str]:
    """The fields an example gives that its house rules leave unused (variants.md: "when its option is off it is
    … ignored"): the form does not show them under those rules, so the example is entered without them."""
    rules, given = example.payload.get("rules") or {}, example.payload
    if (example.slug, example.action) == ("paodekuai", "settle"):
        used = {"bombs": rules.get("bomb_points", 0), "heart10": rules.get("zhaniao", "off") != "off",
                "let_go": rules.get("baopei", False)}
    elif (example.slug, example.action) == ("erqiwang", "settle"):
        on = rules.get("bottom_bonus", "off") == "on"
        used = {"bottom_points": on, "last_trick": on}
    else:
        used = {}
    return [name for name, is_used in used.items() if name in given and given[name] is not None and not is_used]


def as_entered(example) -> tuple[str, dict]:
    """The tab and payload the page takes for the example: a classify example becomes a lead on the check tab;
    fields its rules leave unused are left out."""
    if example.action != "classify":
        unused = unused_fields(example)
        return example.action, {k: v for k, v in example.payload.items() if k not in unused}
    payload = dict(example.payload)
    cards = payload.pop("cards")
    if example.slug in TRICK_GAMES:
        return "check", {**payload, "lead": None, "hand": cards, "play": cards}
    return "check", {**payload, "previous": None, "play": cards}


def entered_pairs(slug: str, tab: str, payload: dict) -> list[tuple[str, str]]:
    pairs = form_pairs(get_game(slug), tab, payload)
    if "rules-preset" not in dict(pairs):
        pairs.insert(0, ("rules-preset", get_game(slug).ruleset.default_preset))
    return pairs


def view_texts(view: dict) -> list[str]:
    """The words of a result view (scoring/result_view.py) in the order a page shows them, each text stripped."""
    own = [view["text"].strip()] if view.get("text") and view["text"].strip() else []
    return own + [text for child in view.get("children", ()) for text in view_texts(child)]


def phone_messages(slug: str, action: str, payload: dict, lang: str = "zh") -> list[str]:
    """The error messages the phone shows for ``payload`` entered in the ``action`` tab's form."""
    view = answer(slug, action, entered_pairs(slug, action, payload), lang)["view"]
    return [li["text"] for ul in view["children"] for li in ul["children"]]


# -- what the server's page shows for the same entries (the phone must show the same words) ---------------

class PageWords(HTMLParser):
    """The words of a page's answer box (``#result``), each text as the page shows it, in order, and the error
    messages the page puts on its fields and above its form (``.error``)."""

    def __init__(self):
        super().__init__()
        self.result: list[str] = []
        self.errors: list[str] = []
        self.open: list[str] = []  # what each open element is: "result", "error" or ""

    def handle_starttag(self, tag, attrs):
        if tag in ("input", "br", "img", "meta", "link", "option"):
            return
        attrs = dict(attrs)
        inside = "result" if attrs.get("id") == "result" or "result" in self.open else ""
        self.open.append("error" if "error" in (attrs.get("class") or "").split() else inside)

    def handle_endtag(self, tag):
        if tag not in ("input", "br", "img", "meta", "link", "option") and self.open:
            self.open.pop()

    def handle_data(self, data):
        text = data.strip()
        if not text or not self.open:
            return
        if self.open[-1] == "error":
            self.errors.append(text)
        elif "result" in self.open:
            self.result.append(text)


def pages_without_csrf(tmp_path_factory):
    """The pages with no CSRF token to fetch first: a form is posted as a player's tap posts it."""
    url = migrated_sqlite_url(tmp_path_factory.mktemp("pages") / "pages.db")
    app = mark_migrated(create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url,
                                    "WTF_CSRF_ENABLED": False}))
    return app.test_client()


def page_words(client, slug, tab, pairs, lang) -> PageWords:
    client.set_cookie("lang", lang)
    resp = client.post(f"/{slug}/{tab}", data=MultiDict(pairs), headers={"HX-Request": "true"})
    assert resp.status_code == 200
    words = PageWords()
    words.feed(resp.get_data(as_text=True))
    return words
