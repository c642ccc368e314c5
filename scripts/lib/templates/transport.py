"""The HTTP of the ops-platform client: one call, its retries, its Idempotency-Key, and paging."""

from __future__ import annotations

import email.utils
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import warnings
from collections.abc import Callable, Iterator, Mapping
from datetime import timezone
from typing import Any

from .errors import ApiError

RETRIED = frozenset({429, 503})
# Methods a 503 may be retried on: repeating them changes nothing more (a creating POST is made
# safe by its Idempotency-Key instead).
SAFE_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """`Retry-After` in seconds: delay-seconds or an HTTP-date (RFC 9110 section 10.2.3); None when neither."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        at = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    return max(0.0, at.timestamp() - (time.time() if now is None else now))


class Transport:
    """Sends the calls of `Client`.

    A 429 or 503 is tried again after its `Retry-After` (seconds or an HTTP-date), or after an
    exponential backoff (`backoff`, doubled each time) when it has none: at most `max_attempts`
    tries in all. A `Retry-After` longer than `max_retry_after` seconds is not waited for: the
    ApiError is raised at once, since an earlier retry would be refused too. A 503 is retried only
    when repeating the call is safe: GET, PUT, DELETE, or a call carrying an `Idempotency-Key`.
    The creating POSTs that honour `Idempotency-Key` get a fresh one when the caller gives none,
    the same on every try. `sleep` is how the client waits (tests replace it).
    """

    user_agent = "ops-platform-client-python"

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        timeout: float = 30.0,
        headers: Mapping[str, str] | None = None,
        *,
        max_attempts: int = 3,
        max_retry_after: float = 60.0,
        backoff: float = 0.5,
        sleep: Callable[[float], Any] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.headers = dict(headers or {})
        self.max_attempts = max(1, max_attempts)
        self.max_retry_after = max_retry_after
        self.backoff = backoff
        self.sleep = sleep

    def paginate(self, list_method: Callable[..., Mapping[str, Any]], *args: Any, **kwargs: Any) -> Iterator[Any]:
        """Every item of a list, page after page, following `next_cursor` until it is null.

        `list_method` is one of the client's list methods, given with its arguments::

            for exception in client.paginate(client.exceptions_list, "acme", status="open"):
                ...
        """
        cursor = kwargs.pop("cursor", None)
        while True:
            page = list_method(*args, **kwargs, **({"cursor": cursor} if cursor is not None else {}))
            yield from page["items"]
            cursor = page.get("next_cursor")
            if cursor is None:
                return

    def _request(
        self,
        method: str,
        path: str,
        path_params: Mapping[str, str],
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, str | None] | None = None,
        body: Any = None,
        authenticated: bool = False,
        idempotent: bool = False,
        deprecated: bool = False,
    ) -> Any:
        url = self.base_url + path.format(**{k: urllib.parse.quote(str(v), safe="") for k, v in path_params.items()})
        pairs = [(k, _query_value(v)) for k, v in (query or {}).items() if v is not None]
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        sent = {"accept": "application/json", "user-agent": self.user_agent, **self.headers}
        sent.update({k: v for k, v in (headers or {}).items() if v is not None})
        if idempotent and not any(k.lower() == "idempotency-key" for k in sent):
            sent["Idempotency-Key"] = str(uuid.uuid4())
        repeatable = method in SAFE_METHODS or any(k.lower() == "idempotency-key" for k in sent)
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            sent["content-type"] = "application/json"
        if authenticated and self.token:
            sent["authorization"] = f"Bearer {self.token}"
        attempt = 1
        while True:
            request = urllib.request.Request(url, data=data, headers=sent, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    text = response.read().decode("utf-8")
                    notice = response.headers.get("Deprecation")
                break
            except urllib.error.HTTPError as error:
                raw = error.read().decode("utf-8", "replace")
                wait = self._retry_wait(error.code, error.headers.get("Retry-After"), attempt, repeatable)
                if wait is None:
                    try:
                        problem = json.loads(raw)
                    except ValueError:
                        problem = None
                    raise ApiError(error.code, problem if isinstance(problem, dict) else None, raw) from None
            self.sleep(wait)
            attempt += 1
        if notice is not None and not deprecated:
            # An operation deprecated after this client was generated: its answer says so.
            warnings.warn(f"{method} {path} is deprecated (Deprecation: {notice})", DeprecationWarning, stacklevel=3)
        return json.loads(text) if text else None

    def _retry_wait(self, status: int, retry_after: str | None, attempt: int, repeatable: bool) -> float | None:
        """Seconds to wait before the next try, or None when the error is the answer."""
        if status not in RETRIED or attempt >= self.max_attempts or (status == 503 and not repeatable):
            return None
        told = retry_after_seconds(retry_after)
        wait = told if told is not None else self.backoff * 2 ** (attempt - 1)
        return None if wait > self.max_retry_after else wait
