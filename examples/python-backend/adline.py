"""Ask Adline for an ad from a Python backend: the piece to copy.

Standard library only, Python 3.9 or later. It behaves like `fetchAd` of the TypeScript
client (clients/typescript): the first ad or None, never an exception, never later than
the timeout, and a circuit breaker that stops asking while Adline keeps failing.

    adline = AdlineClient("https://ads.example.com", os.environ["ADLINE_API_KEY"])
    pending_ad = adline.start_fetch_ad(messages=chat, keywords=["gpu", "machine learning"])
    reply = generate_reply(chat)  # the model writes while Adline answers
    answer = with_ad(reply, pending_ad.result())
"""

import json
import queue
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, Dict, Iterable, Mapping, Optional, Sequence, Tuple, Union

Ad = Dict[str, object]
Keywords = Union[str, Sequence[str]]


class AdlineError(Exception):
    """Why a fetch-ads request gave no ad although one was asked for; `status` when known."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.status = status


class CircuitBreaker:
    """Counts consecutive failed ad requests. After `failure_threshold` of them it opens: for
    `cooldown_seconds` every call is skipped, so a slow or broken ad server costs the replies
    nothing. Then one trial call goes through (the others are still skipped while it runs):
    its success closes the breaker, its failure opens it for another cooldown."""

    def __init__(self, failure_threshold: int = 5, cooldown_seconds: float = 30.0):
        self._failure_threshold = max(1, failure_threshold)
        self._cooldown_seconds = max(0.0, cooldown_seconds)
        self._consecutive_failures = 0
        self._open_until = 0.0
        self._lock = threading.Lock()  # one client serves every thread of the backend

    def allows_call(self) -> bool:
        with self._lock:
            now = time.monotonic()
            if now < self._open_until:
                return False
            if self._consecutive_failures >= self._failure_threshold:
                # Half-open: this call is the trial; skip the others until it is recorded.
                self._open_until = now + self._cooldown_seconds
            return True

    def record_success(self) -> None:
        with self._lock:
            self._consecutive_failures = 0
            self._open_until = 0.0

    def record_failure(self) -> None:
        with self._lock:
            self._consecutive_failures += 1
            if self._consecutive_failures >= self._failure_threshold:
                self._open_until = time.monotonic() + self._cooldown_seconds


def format_conversation(messages: Iterable[Mapping[str, str]], last_messages: int = 6) -> str:
    """The conversation as fetch-ads reads it: one `role: text` line per message, the last
    `last_messages` of them, skipping messages without text. Adline reads only the end of a
    conversation anyway, so sending more would only cost bandwidth."""
    lines = [
        f"{message['role']}: {message['content'].strip()}"
        for message in messages
        if message["content"].strip()
    ]
    return "\n".join(lines[-max(1, last_messages):])


def with_ad(reply: str, ad: Optional[Ad]) -> str:
    """The reply with the ad's Markdown appended as it is (it starts with a blank line, links
    through the tracked `campaign_link` and ends with the disclosure label)."""
    return reply + ad["campaign_markdown"] if ad else reply


class AdlineClient:
    """Keep one client for the life of the process: the circuit breaker lives in it."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float = 0.8,
        failure_threshold: int = 5,
        cooldown_seconds: float = 30.0,
        on_error: Optional[Callable[[AdlineError], None]] = None,
        background_workers: int = 16,
    ):
        self._endpoint = base_url.rstrip("/") + "/api/fetch-ads"
        self._api_key = api_key  # read it from the environment, never from code or a repository
        self._timeout = timeout
        self._breaker = CircuitBreaker(failure_threshold, cooldown_seconds)
        self._on_error = on_error
        # For start_fetch_ad: each call holds a worker for at most its timeout.
        self._executor = ThreadPoolExecutor(background_workers, thread_name_prefix="adline")

    def fetch_ad(
        self,
        conversation: Optional[str] = None,
        messages: Optional[Iterable[Mapping[str, str]]] = None,
        keywords: Keywords = "",
        *,
        timeout: Optional[float] = None,
        last_messages: int = 6,
        **fields: object,
    ) -> Optional[Ad]:
        """The first ad for this conversation, or None: on no match and on ANY failure
        (network, timeout, error status, unexpected body), after `timeout` seconds at most.

        Give the `conversation` as a string or the chat `messages` ([{"role", "content"}]);
        `keywords` as "gpu, rent" or ["gpu", "rent"]. Other fetch-ads fields (`locale`,
        `user_location`, `user_device_info`, `session_id`, ...) go in `fields`; None ones are
        left out. Without keywords or conversation text there is nothing to ask: None at once.
        """
        try:
            context_keywords = keywords if isinstance(keywords, str) else ", ".join(keywords)
            # Messages go as a `conversation` string, as the TypeScript client sends them:
            # fetch-ads accepts `messages` only with the roles system, user, assistant and
            # tool, while any chat API's roles fit in `role: text` lines.
            text = format_conversation(messages, last_messages) if messages else conversation
            # fetch-ads refuses either without text; no request can find an ad then.
            if not context_keywords.strip() or not (text or "").strip():
                return None
            body = {name: value for name, value in fields.items() if value is not None}
            body.update(conversation=text, context_keywords=context_keywords)
            data = json.dumps(body).encode()
            if not self._breaker.allows_call():
                return None
            outcome = self._post_within(data, self._timeout if timeout is None else timeout)
            if not isinstance(outcome, AdlineError):
                self._breaker.record_success()
                return outcome
            self._breaker.record_failure()
            if self._on_error:
                self._on_error(outcome)
            return None
        except Exception:  # a bad argument or a throwing on_error: the reply must still go out
            return None

    def start_fetch_ad(self, *args: object, **kwargs: object) -> "Future[Optional[Ad]]":
        """Starts `fetch_ad(*args, **kwargs)` in the background and returns its future. Call
        it before the model writes and `.result()` once the reply is there: the ad then costs
        the reply no time unless Adline is slower than the model. The future never raises."""
        return self._executor.submit(self.fetch_ad, *args, **kwargs)

    def close(self) -> None:
        """Stops the background workers once their requests are done."""
        self._executor.shutdown(wait=False)

    def _post_within(self, data: bytes, timeout: float) -> Union[Ad, None, AdlineError]:
        """Runs the request in a thread of its own and waits for it until the deadline.
        urllib's timeout bounds each socket operation, not the whole call: a server that
        trickles its body would hold the caller much longer. A thread per request, not a
        pool, so that requests the caller gave up on never queue up the next ones."""
        deadline = time.monotonic() + timeout
        outcomes: "queue.Queue[Union[Ad, None, AdlineError]]" = queue.Queue(maxsize=1)
        threading.Thread(
            target=lambda: outcomes.put(self._post(data, deadline)),
            name="adline-request",
            daemon=True,  # a request nobody waits for must not keep the process alive
        ).start()
        try:
            return outcomes.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return AdlineError(f"fetch-ads timed out after {round(timeout * 1000)} ms")

    def _post(self, data: bytes, deadline: float) -> Union[Ad, None, AdlineError]:
        try:
            request = urllib.request.Request(
                self._endpoint,
                data=data,
                headers={"Content-Type": "application/json", "service-api-key": self._api_key},
                method="POST",
            )
            status, answer = _exchange(request, deadline)
        except Exception as error:  # refused, unreachable, reset, too slow, ...
            failure = AdlineError(f"fetch-ads failed: {error!r}")
            failure.__cause__ = error
            return failure
        return _ad_of(status, answer)


def _exchange(request: urllib.request.Request, deadline: float) -> Tuple[int, bytes]:
    """The status and body of the answer, whatever the status."""
    try:
        timeout = max(0.001, deadline - time.monotonic())  # for each socket operation
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, _read_until(response, deadline)
    except urllib.error.HTTPError as error:  # a 4xx or 5xx: its body says which
        with error:
            return error.code, _read_until(error, deadline)


def _read_until(response, deadline: float) -> bytes:
    """The body, read as it arrives; gives up at the deadline so that this thread ends too."""
    chunks = []
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError("body not complete by the deadline")
        chunk = response.read1(65536)  # what has arrived, without waiting for more
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _ad_of(status: int, body: bytes) -> Union[Ad, None, AdlineError]:
    """The first ad of a fetch-ads answer, None for no match, or why the answer is unusable.
    Read defensively: a proxy in between may answer anything."""
    try:
        payload = json.loads(body)
    except ValueError:
        payload = None
    if status == 404 and isinstance(payload, dict) and payload.get("code") == "no_matching_ad":
        return None
    if not 200 <= status < 300:
        code = payload.get("code") if isinstance(payload, dict) else None
        return AdlineError(f"fetch-ads answered {status} {code or ''}".strip(), status)
    ads = payload.get("advertisements") if isinstance(payload, dict) else None
    if not isinstance(ads, list):
        return AdlineError("fetch-ads answered a body without advertisements", status)
    if not ads:
        return None
    first = ads[0]
    if not isinstance(first, dict) or not isinstance(first.get("campaign_markdown"), str):
        return AdlineError("fetch-ads answered an ad without campaign_markdown", status)
    return first
