"""Smoke test of the generated Python client (standard library only).

Run by tests/e2e/clients/smoke.test.ts with OPS_BASE_URL, OPS_EMAIL, OPS_PASSWORD and OPS_TENANT set
and clients/python on PYTHONPATH. Prints one JSON line with what it saw.
"""

import json
import os
from typing import Any, Callable

from ops_platform_client import ApiError, Client

base_url = os.environ["OPS_BASE_URL"]
tenant = os.environ["OPS_TENANT"]

client = Client(base_url)
client.login(os.environ["OPS_EMAIL"], os.environ["OPS_PASSWORD"])
client.tenants_create({"id": tenant, "name": "Smoke test (Python)"})
created = client.exceptions_create(
    tenant,
    {
        "exception_type": "payment.amount_mismatch",
        "subject_type": "supplier_invoice",
        "subject_id": "INV-20417",
        "title": "Payment below invoice (Python client)",
        "summary": "Paid 540.00 USD less than invoiced.",
    },
)
page = client.exceptions_list(tenant, status="open", limit=10)
demo = client.demo_public()


def failure(call: Callable[[], Any]) -> "dict[str, Any] | None":
    try:
        call()
    except ApiError as error:
        return {
            "status": error.status,
            "code": error.code,
            "paths": [e["path"] for e in error.errors],
            "requestId": error.request_id,
        }
    return None


validation = failure(
    lambda: client.exceptions_create(tenant, {"title": "x", "unexpected": True})  # type: ignore[typeddict-item]
)
unauthenticated = failure(lambda: Client(base_url).exceptions_list(tenant))

print(
    json.dumps(
        {
            "created": {"id": created["id"], "status": created["status"], "tenant_id": created["tenant_id"]},
            "listed": [e["id"] for e in page["items"]],
            "demoTitle": demo["title"],
            "outboxKind": demo["notificationDelivery"]["outboxEvent"]["kind"],
            "validation": validation,
            "unauthenticated": unauthenticated,
        }
    )
)
