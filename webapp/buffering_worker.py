"""gunicorn's threaded worker, reading each request whole before a thread sees it (`make serve`).

gunicorn's ``gthread`` worker hands a connection to a thread as soon as its first byte arrives, and the
thread then blocks until the rest of the request comes: a client trickling its headers or its body holds
a thread for as long as it likes, and a few dozen such clients stop a server from answering anyone. This
worker's main loop reads every connection itself, without blocking, as a buffering proxy would: a
connection costs a socket and a buffer until its request is complete (the headers, then the body its
``Content-Length`` or chunks announce), and only then does a thread parse it, from memory, and run the
app. A request must be whole within ``HEADER_TIMEOUT`` seconds of the connection and its body within
``BODY_TIMEOUT`` seconds of its headers; past that the worker answers 408 and closes the connection.

What is not buffered goes to a thread as gunicorn would send it: TLS connections, a body announced larger
than ``BODY_BUFFER_LIMIT`` (the app refuses it unread with a 413), a request that expects
``100-continue``, and a head that grew past ``HEAD_LIMIT`` without ending (gunicorn's parser refuses it).
"""
from __future__ import annotations

import errno
import os
import re
import selectors
import time
from functools import partial

from gunicorn.workers.gthread import TConn, ThreadWorker

HEADER_TIMEOUT = float(os.environ.get("HEADER_TIMEOUT") or 10)
BODY_TIMEOUT = float(os.environ.get("BODY_TIMEOUT") or 20)
#: a browser's head is a few KiB; a longer one goes to gunicorn's parser, which refuses what passes its limits
HEAD_LIMIT = 64 * 1024
#: above the app's MAX_CONTENT_LENGTH (256 KiB); a longer announced body is handed over unread, to be refused
BODY_BUFFER_LIMIT = 320 * 1024
#: how long a stopping worker (max_requests, a restart) still waits for requests it has begun to receive
STOP_LINGER = 2.0
#: how often, at most, the main loop looks for connections past their deadline
EXPIRY_INTERVAL = 0.25

REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length[ \t]*:[ \t]*(\d+)[ \t]*(?=\r\n|$)", re.IGNORECASE)
CHUNKED = re.compile(rb"\r\ntransfer-encoding[ \t]*:[^\r\n]*chunked", re.IGNORECASE)
EXPECT = re.compile(rb"\r\nexpect[ \t]*:", re.IGNORECASE)


def chunked_body_end(data: bytes | bytearray, limit: int) -> bool:
    """Whether ``data`` holds a whole chunked body (its last chunk and the blank line after its trailers),
    or more than ``limit`` bytes of one. Malformed framing counts as whole: the parser will refuse it."""
    if len(data) > limit:
        return True
    at = 0
    while True:
        line_end = data.find(b"\r\n", at)
        if line_end < 0:
            return False
        try:
            size = int(bytes(data[at:line_end]).split(b";", 1)[0].strip(), 16)
        except ValueError:
            return True
        if size == 0:
            return data.find(b"\r\n\r\n", line_end) >= 0
        at = line_end + 2 + size + 2
        if at > len(data):
            return False


def request_is_whole(data: bytes | bytearray) -> bool:
    """Whether a thread can take the request in ``data`` without waiting for the client: its head ended
    and its body all there, or it is one that is handed over as it is (see the module's docstring)."""
    head_end = data.find(b"\r\n\r\n")
    if head_end < 0:
        return len(data) > HEAD_LIMIT
    head = bytes(data[:head_end + 2])
    body = len(data) - head_end - 4
    if EXPECT.search(head):
        return True
    if CHUNKED.search(head):
        return chunked_body_end(data[head_end + 4:], BODY_BUFFER_LIMIT)
    length = CONTENT_LENGTH.search(head)
    if length is None:
        return True
    announced = int(length[1])
    return body >= announced or announced > BODY_BUFFER_LIMIT


def reads_requests_itself(cfg) -> bool:
    """Plain HTTP/1: TLS, HTTP/2 and uWSGI connections go to a thread as gunicorn sends them."""
    return not cfg.is_ssl and cfg.http2_cleartext == "off" and getattr(cfg, "protocol", "http") == "http"


class IncomingRequest:
    """A connection whose request is still arriving: what came so far and when the worker stops waiting."""

    __slots__ = ("conn", "data", "deadline", "head_done")

    def __init__(self, conn: TConn):
        self.conn = conn
        self.data = bytearray()
        self.deadline = time.monotonic() + HEADER_TIMEOUT
        self.head_done = False

    def receive(self) -> bool | None:
        """Read what the socket has: True when the request is whole, None when the client has gone."""
        try:
            chunk = self.conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return None
        if not chunk:
            return None
        self.data += chunk
        if not self.head_done and b"\r\n\r\n" in self.data:  # the body's clock starts with it
            self.head_done = True
            self.deadline = time.monotonic() + BODY_TIMEOUT
        return request_is_whole(self.data)


class BufferingWorker(ThreadWorker):
    """``gthread`` with the request read whole in the main loop (see the module's docstring)."""

    def __init__(self, *args, **kwargs):
        self.in_threads = 0  # requests handed to the thread pool and not yet finished
        self.connection_limit = 0
        super().__init__(*args, **kwargs)
        self.incoming: dict[int, IncomingRequest] = {}  # by socket file descriptor
        self.next_expiry = 0.0
        self.stop_by: float | None = None

    # gunicorn's loop accepts while nr_conns < worker_connections. A worker whose threads all have a request
    # leaves new connections to the other workers, as gthread does with worker_connections = threads;
    # connections still arriving hold no thread and never stop it accepting.
    @property
    def worker_connections(self) -> int:
        return self.connection_limit if self.in_threads < self.cfg.threads else 0

    @worker_connections.setter
    def worker_connections(self, limit: int) -> None:
        self.connection_limit = limit

    def enqueue_req(self, conn):
        self.in_threads += 1
        super().enqueue_req(conn)

    def finish_request(self, conn, fs):
        self.in_threads -= 1
        super().finish_request(conn, fs)

    def accept(self, listener):
        if not reads_requests_itself(self.cfg):
            return super().accept(listener)
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        incoming = IncomingRequest(TConn(self.cfg, client_sock, client_addr, listener.getsockname()))
        whole = incoming.receive()  # the request has often arrived with the connection
        if whole is not False:
            self.pass_on(incoming, whole)
            return
        if self.stop_by is not None:
            incoming.deadline = min(incoming.deadline, self.stop_by)
        self.incoming[client_sock.fileno()] = incoming
        self.poller.register(client_sock, selectors.EVENT_READ, partial(self.on_readable, incoming))

    def on_readable(self, incoming: IncomingRequest, _sock) -> None:
        whole = incoming.receive()
        if whole is not False:
            self.forget(incoming)
            self.pass_on(incoming, whole)

    def pass_on(self, incoming: IncomingRequest, whole: bool | None) -> None:
        """A whole request to a thread, with what was read put back before the socket; a connection the
        client closed is closed."""
        conn = incoming.conn
        if whole is None:
            self.nr_conns -= 1
            conn.close()
            return
        conn.data_ready = True
        conn.init()  # a plain socket, made blocking, and its HTTP/1 parser
        conn.parser.unreader.unread(bytes(incoming.data))
        self.enqueue_req(conn)

    def forget(self, incoming: IncomingRequest) -> None:
        sock = incoming.conn.sock
        self.incoming.pop(sock.fileno(), None)
        try:
            self.poller.unregister(sock)
        except (KeyError, ValueError, OSError):
            pass

    def murder_pending(self):
        super().murder_pending()
        now = time.monotonic()
        if not self.alive and self.stop_by is None:  # a stopping worker waits a little for what is arriving
            self.stop_by = now + STOP_LINGER
            for incoming in self.incoming.values():
                incoming.deadline = min(incoming.deadline, self.stop_by)
        if now < self.next_expiry:
            return
        self.next_expiry = now + EXPIRY_INTERVAL
        for incoming in [i for i in self.incoming.values() if i.deadline <= now]:
            self.forget(incoming)
            self.nr_conns -= 1
            try:
                incoming.conn.sock.send(REQUEST_TIMEOUT)
            except OSError:
                pass
            incoming.conn.close()
