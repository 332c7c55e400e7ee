"""What `make run` prints before serving (issue 40): the address to open, and, when it listens on every
interface (HOST=0.0.0.0), the address the phones on the same Wi-Fi open and what works for them there.

Usage: python tools/run_banner.py HOST PORT
"""
from __future__ import annotations

import socket
import sys

EVERY_INTERFACE = ("0.0.0.0", "::", "")
OVER_HTTP = ("On those phones (plain http) settling, checking, the rules and the table ledger work; offline mode, "
             "install to the home screen, keeping the screen on and one-tap copy need https: "
             "DOMAIN=… make serve-https (docs/deploy.md).")


def lan_address() -> str | None:
    """This computer's address on its network: the one its route to the outside leaves from (a UDP socket
    connected to a documentation address sends nothing). None when it has no such route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def banner(host: str, port: str, lan: str | None) -> list[str]:
    if host not in EVERY_INTERFACE:
        return [f"Paiju on http://{host}:{port}/ (this computer only; to let the phones on the same Wi-Fi join: "
                "HOST=0.0.0.0 make run)"]
    phones = (f"http://{lan}:{port}/" if lan else
              f"http://<this computer's address on the network>:{port}/ (hostname -I lists it)")
    return [f"Paiju on http://127.0.0.1:{port}/ (this computer); the phones on the same Wi-Fi open {phones}",
            OVER_HTTP]


def main(argv: list[str]) -> int:
    host, port = argv
    print("\n".join(banner(host, port, lan_address() if host in EVERY_INTERFACE else None)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
