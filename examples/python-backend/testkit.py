"""Stub Adline servers and an in-process backend, for the tests of this folder."""

import http.client
import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from unittest import mock

import server
from adline import AdlineClient

TIMEOUT = 0.8
MARGIN = 0.4  # for a loaded machine; far below what the bounds under test guard against
LINK = "http://adline.test/api/campaign_click?imp=1"
MARKDOWN = f"\n\n**Rent GPUs by the hour\\.**\n\n[GPU Cloud]({LINK})\n\n_Sponsored · Adline_"
AD = {"campaign_markdown": MARKDOWN, "campaign_link": LINK}


def answer(status, body, content_type="application/json"):
    """A stub behaviour: answers `body` (JSON unless bytes) with `status`."""

    def respond(handler, stub):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    return respond


def after(seconds, respond):
    """A stub behaviour: `respond`, `seconds` later."""

    def delayed(handler, stub):
        stub.released.wait(seconds)
        respond(handler, stub)

    return delayed


def hang(handler, stub):
    stub.released.wait(5)


def trickle(handler, stub):
    """Headers at once, then the body a byte every 0.1 s: never idle long enough for a socket
    timeout, done only after 5 s."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", "50")
    handler.end_headers()
    for _ in range(50):
        if stub.released.wait(0.1):
            return
        handler.wfile.write(b" ")
        handler.wfile.flush()


class StubAdline:
    """A fetch-ads endpoint on 127.0.0.1 that records each request and answers with `respond`."""

    def __init__(self, respond):
        self.respond = respond
        self.requests = []  # (headers, body) of each request
        self.released = threading.Event()  # ends slow answers when the test is over
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append((self.headers, body))
                try:
                    stub.respond(self, stub)
                except ConnectionError:  # the client gave up first
                    pass

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def stop(self):
        self.released.set()
        self.httpd.shutdown()
        self.httpd.server_close()


class StubTestCase(unittest.TestCase):
    def start_stub(self, respond):
        stub = StubAdline(respond)
        self.addCleanup(stub.stop)
        return stub

    def client(self, stub, **settings):
        """A client of `stub` whose failures land in self.errors."""
        self.errors = []
        settings.setdefault("on_error", self.errors.append)
        adline = AdlineClient(stub.url, "adl_test_key", **settings)
        self.addCleanup(adline.close)
        return adline


class BackendMixin:
    """Runs server.py's backend in this process, on a free port."""

    def start_backend(self, adline):
        patcher = mock.patch.object(server.ChatHandler, "log_message")  # no access lines
        patcher.start()
        self.addCleanup(patcher.stop)
        backend = server.ChatServer(("127.0.0.1", 0), adline)
        threading.Thread(target=backend.serve_forever, args=(0.05,), daemon=True).start()
        self.addCleanup(backend.server_close)
        self.addCleanup(backend.shutdown)
        return backend.server_address[1]

    def post(self, port, path, body, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.addCleanup(connection.close)
        data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", **(headers or {})}
        connection.request("POST", path, data, headers)
        return connection.getresponse()
