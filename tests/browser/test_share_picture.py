"""The night as a picture (issue 28 item 1), in Chromium at 360 px: from 结账 one tap makes a PNG of the evening at
phone width (360 px drawn at 2×) that decodes, is not blank, and carries every player's name and the transfers;
it goes to the share sheet where the browser can share files, and is downloaded elsewhere."""
from __future__ import annotations

import base64
import struct
import zlib

import pytest

from test_browser_pwa import wait_until
from test_evening_browser import NAMES, hongwu_evening
from test_tables_browser import api

pytestmark = pytest.mark.browser


def png_chunks(data: bytes) -> dict[bytes, list[bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    chunks, at = {}, 8
    while at < len(data):
        (length,), kind = struct.unpack(">I", data[at:at + 4]), data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + body), kind
        chunks.setdefault(kind, []).append(body)
        at += 12 + length
    return chunks


def decoded(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, the raw scanlines): the PNG decodes (8-bit RGBA, as a canvas writes it)."""
    chunks = png_chunks(data)
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][0][:10])
    assert (depth, colour) == (8, 6)
    raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
    assert len(raw) == height * (1 + width * 4)
    return width, height, raw


def words_in(data: bytes) -> str:
    [itxt] = png_chunks(data)[b"iTXt"]
    keyword, _, rest = itxt.partition(b"\0")
    assert keyword == b"Description"
    return rest[4:].decode("utf-8")  # compression flag, method, no language tag, no translated keyword


def check_picture(data: bytes, expected_text: str) -> None:
    width, height, raw = decoded(data)
    assert width == 720 and 600 < height < 4000
    assert len(set(raw[1:width * 4:4])) > 1 or len(set(raw)) > 8  # something is drawn, not one flat colour
    words = words_in(data)
    assert words == expected_text
    assert all(name in words for name in NAMES)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sharing_the_evening_downloads_a_phone_width_png_with_every_name_where_files_cannot_be_shared(
        page, context, live_server, lang, tmp_path):
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    page.add_init_script("Object.defineProperty(navigator, 'canShare', {value: undefined})")
    created = hongwu_evening(live_server)
    page.goto(live_server + f"/tables/{created['id']}/settle-up?per_point=0.5")
    with page.expect_download() as info:
        page.click("button.share-picture")
    path = tmp_path / "evening.png"
    info.value.save_as(path)
    assert info.value.suggested_filename.startswith("paiju-") and info.value.suggested_filename.endswith(".png")
    text = api(live_server, "GET", f"tables/{created['id']}/settle-up?per_point=0.5", lang=lang)["share_text"]
    check_picture(path.read_bytes(), text)
    assert page.locator(".picture-status").inner_text() in ("图片已下载", "The picture is downloaded")


def test_where_files_can_be_shared_the_picture_goes_to_the_share_sheet(page, live_server):
    page.add_init_script("""
        window.__shared = null;
        Object.defineProperty(navigator, 'canShare', {value: () => true});
        Object.defineProperty(navigator, 'share', {value: async (d) => {
            const bytes = new Uint8Array(await d.files[0].arrayBuffer());
            let s = ''; bytes.forEach(b => s += String.fromCharCode(b));
            window.__shared = {name: d.files[0].name, type: d.files[0].type, data: btoa(s)};
        }});""")
    created = hongwu_evening(live_server)
    page.goto(live_server + f"/tables/{created['id']}/settle-up")
    page.click("button.share-picture")
    wait_until(page, "window.__shared !== null")  # the page's CSP forbids wait_for_function's eval
    shared = page.evaluate("window.__shared")
    assert shared["type"] == "image/png"
    text = api(live_server, "GET", f"tables/{created['id']}/settle-up")["share_text"]
    check_picture(base64.b64decode(shared["data"]), text)
    assert page.locator(".picture-status").inner_text() == "图片已交给分享"
