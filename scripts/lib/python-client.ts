/**
 * The project's own Python client generator (no PyPI here, so no openapi-python-client): from the
 * OpenAPI 3.1 document to a stdlib-only package. Every component schema becomes a TypedDict
 * (nested inline objects get their own TypedDicts), every operation a typed method of `Client`,
 * and every problem+json answer an `ApiError`. Output is deterministic: same document, same text.
 * This file puts the package together; `models.py` is written by ./python-client/models.ts,
 * `client.py` by ./python-client/client.ts.
 */
import { readFileSync } from 'node:fs';
import { clientPy, type PyOperation } from './python-client/client';
import type { OpenApiDocument } from './python-client/document';
import { Models } from './python-client/models';
import { HEADER, pyString } from './python-client/python';

export type { OpenApiDocument } from './python-client/document';

const ERRORS_PY = `${HEADER}
"""The exceptions of the ops-platform client."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error answer of the API: the problem+json body (RFC 9457) as an exception.

    \`status\` is the HTTP status, \`code\` the stable problem code (\`validation_failed\`,
    \`not_found\`, ...), \`errors\` the field errors of a 422, \`request_id\` the id to quote in a
    support request.
    """

    def __init__(self, status: int, problem: dict[str, Any] | None = None, body: str = "") -> None:
        self.status = status
        self.problem: dict[str, Any] = problem or {}
        self.code: str = str(self.problem.get("code", "http_error"))
        self.title: str = str(self.problem.get("title", f"HTTP {status}"))
        self.detail: str | None = self.problem.get("detail")
        self.errors: list[dict[str, str]] = list(self.problem.get("errors") or [])
        self.request_id: str | None = self.problem.get("request_id")
        self.body = body
        message = f"{status} {self.code}: {self.detail or self.title}"
        if self.errors:
            message += " (" + "; ".join(f"{e.get('path')}: {e.get('message')}" for e in self.errors) + ")"
        super().__init__(message)
`;

function initPy(doc: OpenApiDocument): string {
  return `${HEADER}
"""Python client of the ${doc.info.title} (version ${doc.info.version}), generated from its OpenAPI document.

    from ops_platform_client import Client, ApiError

    client = Client("http://127.0.0.1:3000")
    client.login("admin@example.com", "...")
    print(client.demo_public()["title"])
"""

from . import models
from .client import DEFAULT_BASE_URL, Client
from .errors import ApiError
from .models import *  # noqa: F403
from .transport import retry_after_seconds

__version__ = ${pyString(doc.info.version)}

__all__ = ["ApiError", "Client", "DEFAULT_BASE_URL", "retry_after_seconds", *models.__all__]
`;
}

const pyproject = (doc: OpenApiDocument) => `${HEADER}
[project]
name = "ops-platform-client"
version = ${pyString(doc.info.version)}
description = "Python client of the ${doc.info.title}, generated from its OpenAPI document (standard library only)."
requires-python = ">=3.11"
dependencies = []

[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[tool.setuptools.package-data]
ops_platform_client = ["py.typed"]
`;

/** The files of `clients/python/`, keyed by relative path. */
export function pythonClientFiles(doc: OpenApiDocument): Record<string, string> {
  const operations: PyOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [httpMethod, op] of Object.entries(item)) operations.push({ method: httpMethod, path, op });
  }
  const types = new Models(doc.components.schemas);
  for (const [name, schema] of Object.entries(doc.components.schemas)) types.component(name, schema);
  // Methods add TypedDicts for inline request and response schemas: generate them before models.py.
  const client = clientPy(doc, types, operations);
  const modelsText = [
    HEADER,
    '"""Request and response records of the ops-platform API, as TypedDicts."""\n',
    'from __future__ import annotations\n',
    'from typing import Any, Literal, NotRequired, TypeAlias, TypedDict\n',
    `__all__ = [\n${types.names.map((n) => `    ${pyString(n)},`).join('\n')}\n]\n`,
    ...types.classes.map((c) => `\n${c}`),
  ].join('\n');
  return {
    'pyproject.toml': pyproject(doc),
    'ops_platform_client/__init__.py': initPy(doc),
    'ops_platform_client/errors.py': ERRORS_PY,
    'ops_platform_client/models.py': modelsText,
    'ops_platform_client/client.py': client,
    'ops_platform_client/transport.py': `${HEADER}\n${readFileSync(new URL('./templates/transport.py', import.meta.url), 'utf8')}`,
    'ops_platform_client/py.typed': '',
  };
}
