"""A minimal publisher backend: the reply of a (canned) AI model with an Adline ad appended.

    POST /chat        {"message": "..."}  ->  {"reply": "..."}
    POST /chat/stream {"message": "..."}  ->  the reply word by word (chunked text/plain),
                                              then the ad's Markdown

The ad is asked for before the model starts, so it arrives while the model writes.

    ADLINE_API_KEY=<key> python3 examples/python-backend/server.py
"""

import json
import os
import re
import sys
import time
from concurrent.futures import Future
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator, Optional

from adline import Ad, AdlineClient, AdlineError, with_ad

MAX_BODY_BYTES = 16 * 1024
MODEL_SECONDS = 0.3  # how long the stand-in model takes to write a reply

STOP_WORDS = frozenset(
    (
        "a about after all also am an and any are as at be because been but by can could did do "
        "does for from get got had has have he her here him his how i if in into is it its just "
        "like me more most my no not now of on or our out should so some than that the their them "
        "then there these they this to too up us use very want was we were what when where which "
        "who why will with would you your"
    ).split()
)


def extract_keywords(message: str, limit: int = 8) -> str:
    """Naive keyword extraction: the distinct words of the message, lower-cased, without stop
    words or very short words, in order of appearance. A real backend might ask its model.
    Returns comma-separated keywords, e.g. "gpu, rent, train, model"; "" when none remain."""
    # Words are runs of letters, digits, "+" and "#" (so "c++" and "c#" stay whole).
    words = re.split(r"(?:[^\w+#]|_)+", message.lower())
    keywords = [word for word in words if len(word) >= 3 and word not in STOP_WORDS]
    return ", ".join(list(dict.fromkeys(keywords))[:limit])


def canned_reply(message: str) -> str:
    return f'You asked: "{message}". This example backend has no model, so here is a canned answer.'


def model_reply(message: str) -> str:
    """Stands in for the publisher's AI model."""
    time.sleep(MODEL_SECONDS)
    return canned_reply(message)


def model_reply_stream(message: str) -> Iterator[str]:
    """Stands in for a streaming model: the reply a word at a time."""
    words = canned_reply(message).split(" ")
    for index, word in enumerate(words):
        time.sleep(MODEL_SECONDS / len(words))
        yield word if index == 0 else " " + word


class ChatServer(ThreadingHTTPServer):
    def __init__(self, address, adline: Optional[AdlineClient]):
        super().__init__(address, ChatHandler)
        self.adline = adline  # None: no API key, replies without ads


class ChatHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # for the chunked stream
    server: ChatServer

    def do_POST(self) -> None:
        if self.path not in ("/chat", "/chat/stream"):
            return self._send_json(404, {"error": 'POST /chat {"message": "..."}'})
        length = self._content_length()
        if length > MAX_BODY_BYTES:
            return self._send_json(413, {"error": f"send at most {MAX_BODY_BYTES} bytes"})
        try:
            message = json.loads(self.rfile.read(length)).get("message")
        except (ValueError, AttributeError):  # not JSON, or JSON but not an object
            return self._send_json(400, {"error": "send a JSON body"})
        if not isinstance(message, str) or not message.strip():
            return self._send_json(400, {"error": "message must be a non-empty string"})

        pending_ad = self._start_fetch_ad(message)  # before the model starts writing
        if self.path == "/chat":
            reply = model_reply(message)
            self._send_json(200, {"reply": with_ad(reply, _ad_when_ready(pending_ad))})
        else:
            self._stream(model_reply_stream(message), pending_ad)

    def do_GET(self) -> None:
        self._send_json(404, {"error": 'POST /chat {"message": "..."}'})

    def _content_length(self) -> int:
        """The declared body length; 0 (an empty, so invalid, body) when missing or malformed."""
        try:
            return max(0, int(self.headers.get("Content-Length") or 0))
        except ValueError:
            return 0

    def _start_fetch_ad(self, message: str) -> "Optional[Future[Optional[Ad]]]":
        if self.server.adline is None:
            return None
        return self.server.adline.start_fetch_ad(
            conversation=message,
            keywords=extract_keywords(message),
            user_device_info=(self.headers.get("User-Agent") or "")[:512] or None,
        )

    def _stream(self, words: Iterator[str], pending_ad: "Optional[Future[Optional[Ad]]]") -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for word in words:
                self._write_chunk(word.encode())
            ad = _ad_when_ready(pending_ad)
            if ad:
                self._write_chunk(ad["campaign_markdown"].encode())
            self._write_chunk(b"")  # the empty chunk ends the body
        except ConnectionError:  # the reader left; nobody to write to
            self.close_connection = True

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%X\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _send_json(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status >= 400:
            # The request body may be unread: the connection cannot carry another request.
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(data)


def _ad_when_ready(pending_ad: "Optional[Future[Optional[Ad]]]") -> Optional[Ad]:
    return pending_ad.result() if pending_ad else None


def main() -> None:
    port = int(os.environ.get("PORT", "8081"))
    adline_url = os.environ.get("ADLINE_URL", "http://localhost:3000")
    # The key stays on the server, read from the environment: never in client code or a repository.
    api_key = os.environ.get("ADLINE_API_KEY")
    adline = None
    if api_key:
        adline = AdlineClient(adline_url, api_key, on_error=_log_no_ad)
    else:
        print("ADLINE_API_KEY is not set: replies will carry no ads", file=sys.stderr)
    server = ChatServer(("", port), adline)
    print(f"publisher backend on http://localhost:{port}, ads from {adline_url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def _log_no_ad(error: AdlineError) -> None:
    print(f"no ad: {error}", file=sys.stderr)


if __name__ == "__main__":
    main()
