"""What `make run` prints (tools/run_banner.py, issue 40): on HOST=0.0.0.0 the address the phones on the Wi-Fi
open and what works for them over plain http; otherwise how to let them in."""
from __future__ import annotations

import importlib.util
from pathlib import Path

SPEC = importlib.util.spec_from_file_location("run_banner", Path(__file__).resolve().parents[1] / "tools/run_banner.py")
run_banner = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(run_banner)


def test_on_every_interface_it_names_the_lan_address_and_what_needs_https():
    first, second = run_banner.banner("0.0.0.0", "5000", "192.168.1.20")
    assert "http://192.168.1.20:5000/" in first and "http://127.0.0.1:5000/" in first
    assert "table ledger work" in second and "offline mode" in second and "make serve-https" in second


def test_without_a_route_out_it_says_where_to_find_the_address():
    assert "hostname -I" in run_banner.banner("0.0.0.0", "5000", None)[0]


def test_on_loopback_it_says_how_to_let_the_phones_in():
    (line,) = run_banner.banner("127.0.0.1", "5000", None)
    assert "http://127.0.0.1:5000/" in line and "HOST=0.0.0.0 make run" in line


def test_the_lan_address_is_never_loopback():
    address = run_banner.lan_address()
    assert address is None or not address.startswith("127.")
