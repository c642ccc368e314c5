"""The generated Python client's retries, Idempotency-Key and paging against the local runtime.

Run by tests/e2e/clients/behaviour.test.ts, which has locked out OPS_LOCKED_EMAIL with failed
logins, and serves OPS_CONTROL_URL/cut and /restore to make the runtime's table unreachable and
reachable again. Every request the client sends is recorded by wrapping urllib's urlopen. Prints
one JSON line with what it saw.
"""

import json
import os
import re
import urllib.error
import urllib.request
from typing import Any

from ops_platform_client import ApiError, Client

base_url = os.environ["OPS_BASE_URL"]
tenant = os.environ["OPS_TENANT"]
control = os.environ["OPS_CONTROL_URL"]
sent: "list[dict[str, Any]]" = []
real_urlopen = urllib.request.urlopen


def recording_urlopen(request: urllib.request.Request, timeout: float = 30.0) -> Any:
    entry = {"method": request.get_method(), "key": request.get_header("Idempotency-key"), "status": None}
    sent.append(entry)
    try:
        response = real_urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        entry["status"] = error.code
        raise
    entry["status"] = response.status
    return response


urllib.request.urlopen = recording_urlopen  # type: ignore[assignment]


def post(url: str, body: "dict[str, Any] | None" = None) -> None:
    data = None if body is None else json.dumps(body).encode()
    headers = {} if body is None else {"content-type": "application/json"}
    real_urlopen(urllib.request.Request(url, data=data, headers=headers, method="POST"), timeout=30).read()


def move_clock(seconds: float) -> None:
    post(f"{base_url}/_local/clock", {"advance_seconds": int(-(-seconds // 1))})


def restore(_seconds: float) -> None:
    post(f"{control}/restore")


def statuses(since: int) -> "list[int]":
    return [e["status"] for e in sent[since:]]


exception = {
    "exception_type": "payment.amount_mismatch",
    "subject_type": "supplier_invoice",
    "subject_id": "INV-2",
    "title": "Payment below invoice (Python)",
    "summary": "Paid less than invoiced.",
}
seen: "dict[str, Any]" = {}

# 429 from the failed-login throttle: past the default bound (60 s) it is raised at once.
sleeps: "list[float]" = []
mark = len(sent)
try:
    Client(base_url, sleep=sleeps.append).login(os.environ["OPS_LOCKED_EMAIL"], os.environ["OPS_PASSWORD"])
    seen["impatient"] = None
except ApiError as error:
    seen["impatient"] = {"status": error.status, "sleeps": sleeps, "statuses": statuses(mark)}

# Within the bound it is waited out (the runtime's clock moves) and retried.
sleeps = []
mark = len(sent)
patient = Client(base_url, max_retry_after=900, sleep=lambda s: (sleeps.append(s), move_clock(s)))
session = patient.login(os.environ["OPS_LOCKED_EMAIL"], os.environ["OPS_PASSWORD"])
seen["patient"] = {"token_type": session["token_type"], "sleeps": sleeps, "statuses": statuses(mark)}

# 503 while the table is unreachable, on a creating POST: retried with the key it generated.
admin_sleeps: "list[float]" = []
admin = Client(base_url, token=os.environ["OPS_TOKEN"], sleep=lambda s: (admin_sleeps.append(s), restore(s)))
post(f"{control}/cut")
mark = len(sent)
created = admin.exceptions_create(tenant, exception)
keys = [e["key"] for e in sent[mark:]]
replay = admin.exceptions_create(tenant, exception, idempotency_key=keys[0])
seen["created"] = {
    "statuses": statuses(mark)[:2],
    "sleeps": list(admin_sleeps),
    "keys_equal": keys[0] == keys[1],
    "key_is_uuid": bool(re.fullmatch(r"[0-9a-f-]{36}", keys[0] or "")),
    "replayed": replay["id"] == created["id"],
}

# A key the caller gives is the one sent; a GET carries none.
mark = len(sent)
admin.exceptions_create(tenant, exception, idempotency_key="py-caller-key")
admin.exceptions_list(tenant, limit=1)
seen["given_key"] = [e["key"] for e in sent[mark:]]

# A 503 on a POST without a key is not retried.
admin_sleeps.clear()
post(f"{control}/cut")
mark = len(sent)
try:
    admin.exceptions_change_status(tenant, created["id"], {"status": "acknowledged"})
    seen["unsafe"] = None
except ApiError as error:
    seen["unsafe"] = {"status": error.status, "statuses": statuses(mark), "sleeps": list(admin_sleeps)}
finally:
    post(f"{control}/restore")

# Paging: every item, following next_cursor.
mark = len(sent)
ids = [e["id"] for e in admin.paginate(admin.exceptions_list, tenant, limit=2)]
seen["paged"] = {"ids": ids, "requests": len(sent) - mark}

print(json.dumps(seen))
