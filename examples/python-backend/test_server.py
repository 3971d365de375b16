"""Tests of server.py, the example backend, against stub Adline servers in this process."""

import json
import time

import server
from testkit import AD, MARGIN, MARKDOWN, TIMEOUT, BackendMixin, StubTestCase, after, answer, hang


class ServerTest(BackendMixin, StubTestCase):
    def test_chat_appends_the_ad_fetched_while_the_model_writes(self):
        stub = self.start_stub(after(server.MODEL_SECONDS, answer(200, {"advertisements": [AD]})))
        port = self.start_backend(self.client(stub))
        message = "Which GPU should I rent to train my model?"
        started = time.monotonic()
        response = self.post(port, "/chat", {"message": message})
        self.assertEqual(response.status, 200)
        self.assertEqual(json.load(response), {"reply": server.canned_reply(message) + MARKDOWN})
        self.assertLess(time.monotonic() - started, 2 * server.MODEL_SECONDS - 0.1)
        body = stub.requests[0][1]
        self.assertEqual(body["context_keywords"], "gpu, rent, train, model")
        self.assertEqual(body["conversation"], message)

    def test_chat_stream_sends_words_then_the_ad(self):
        stub = self.start_stub(answer(200, {"advertisements": [AD]}))
        port = self.start_backend(self.client(stub))
        response = self.post(port, "/chat/stream", {"message": "Which GPU should I rent?"})
        self.assertEqual(response.getheader("Transfer-Encoding"), "chunked")
        chunks, arrivals = [], []
        while True:
            chunk = response.read1(65536)  # one chunk of the stream at most
            if not chunk:
                break
            chunks.append(chunk.decode())
            arrivals.append(time.monotonic())
        words = server.canned_reply("Which GPU should I rent?").split(" ")
        self.assertEqual(len(chunks), len(words) + 1)
        self.assertEqual(chunks[-1], MARKDOWN)
        self.assertEqual("".join(chunks), " ".join(words) + MARKDOWN)
        self.assertGreater(arrivals[-1] - arrivals[0], 0.1, "the words come as the model writes")

    def test_a_hanging_adline_delays_the_reply_by_at_most_the_timeout(self):
        stub = self.start_stub(hang)
        port = self.start_backend(self.client(stub, timeout=TIMEOUT))
        started = time.monotonic()
        message = "Which GPU should I rent?"
        response = self.post(port, "/chat", {"message": message})
        self.assertEqual(json.load(response), {"reply": server.canned_reply(message)})
        self.assertLess(time.monotonic() - started, TIMEOUT + MARGIN)

    def test_without_a_key_replies_come_alone(self):
        port = self.start_backend(None)
        response = self.post(port, "/chat", {"message": "Which GPU?"})
        self.assertEqual(json.load(response), {"reply": server.canned_reply("Which GPU?")})

    def test_bad_requests(self):
        port = self.start_backend(None)
        cases = [
            ("/chat", b"not json", 400),
            ("/chat", b"[1]", 400),
            ("/chat", {"message": "  "}, 400),
            ("/chat/stream", {"message": 5}, 400),
            ("/other", {"message": "hi"}, 404),
        ]
        for path, body, status in cases:
            with self.subTest(path=path, body=body):
                self.assertEqual(self.post(port, path, body).status, status)
        # Only the header: a body the server leaves unread would reset the connection.
        too_large = {"Content-Length": str(server.MAX_BODY_BYTES + 1)}
        self.assertEqual(self.post(port, "/chat", None, too_large).status, 413)

    def test_extract_keywords(self):
        extract = server.extract_keywords
        gpu_question = "Which GPU should I rent to train my model?"
        self.assertEqual(extract(gpu_question), "gpu, rent, train, model")
        self.assertEqual(extract("C++ or C#? c++ in Zürich_2024"), "c++, zürich, 2024")
        self.assertEqual(extract("one two three four five six", limit=2), "one, two")
        self.assertEqual(extract("What is it?"), "")
