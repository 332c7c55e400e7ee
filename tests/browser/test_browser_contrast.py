"""What a player can't read (issue 26): the chosen money chip on 结账 keeps its text readable in light and dark."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

LUMINANCE = """el => {
  const rgb = s => s.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const st = getComputedStyle(el); const a = lum(rgb(st.color)), b = lum(rgb(st.backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_chosen_money_chip_on_settle_up_has_readable_contrast(page, live_server, scheme):
    page.emulate_media(color_scheme=scheme)
    created = page.request.post(live_server + "/api/v1/tables",
                                data={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).json()
    page.goto(f"{live_server}/tables/{created['id']}/settle-up?per_point=1")
    chip = page.locator("a.chip.on").first
    assert chip.is_visible()
    assert chip.evaluate(LUMINANCE) >= 4.5
