import type { OpenApiDocument, OperationObject, Schema } from './document';
import type { Models } from './models';
import { docstring, HEADER, identifier, pascal, pyString } from './python';

/** `client.py`: the `Client` class, one typed method per operation. */

export interface PyOperation {
  method: string;
  path: string;
  op: OperationObject;
}

/** The success statuses, and the body's schema: either one's where an operation has two. */
const successOf = (op: OperationObject): [number[], Schema | undefined] => {
  const success = Object.entries(op.responses).filter(([c]) => /^2\d\d$/.test(c));
  const schemas = success.flatMap(([, r]): Schema[] => {
    const schema = r.content?.['application/json']?.schema;
    return schema ? [schema] : [];
  });
  return [
    success.length ? success.map(([c]) => Number(c)) : [200],
    schemas.length > 1 ? { anyOf: schemas } : schemas[0],
  ];
};

function method(types: Models, { method: httpMethod, path, op }: PyOperation): string {
  const name = identifier(op.operationId);
  const hint = pascal(op.operationId);
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const headerParams = params.filter((p) => p.in === 'header');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const [statuses, responseSchema] = successOf(op);
  const noBody = statuses.every((s) => s === 204);
  const returns = noBody ? 'None' : types.type(responseSchema, `${hint}Response`);
  const authenticated = (op.security ?? []).length > 0;

  const args = ['self'];
  for (const p of pathParams) args.push(`${identifier(p.name)}: str`);
  if (bodySchema) args.push(`body: ${types.type(bodySchema, `${hint}Body`)}`);
  const keywordOnly = [...queryParams, ...headerParams];
  if (keywordOnly.length > 0) args.push('*');
  for (const p of keywordOnly)
    args.push(`${identifier(p.name)}: ${types.type(p.schema, `${hint}${pascal(p.name)}`)} | None = None`);

  const errors = Object.keys(op.responses).filter((c) => /^[45]\d\d$/.test(c));
  const docLines = [
    op.summary ?? op.operationId,
    '',
    `\`${httpMethod.toUpperCase()} ${path}\`${authenticated ? ' (bearer token)' : ' (public)'}; answers ${statuses.join(' or ')}.`,
  ];
  for (const p of keywordOnly)
    if (p.description) docLines.push(`\`${identifier(p.name)}\`: ${p.description}`);
  if (errors.length > 0) docLines.push(`Raises ApiError on ${errors.join(', ')}.`);

  const call = [
    `${pyString(httpMethod.toUpperCase())}`,
    pyString(path),
    `path_params={${pathParams.map((p) => `${pyString(p.name)}: ${identifier(p.name)}`).join(', ')}}`,
  ];
  if (queryParams.length > 0) {
    call.push(`query={${queryParams.map((p) => `${pyString(p.name)}: ${identifier(p.name)}`).join(', ')}}`);
  }
  if (headerParams.length > 0) {
    call.push(
      `headers={${headerParams.map((p) => `${pyString(p.name)}: ${identifier(p.name)}`).join(', ')}}`,
    );
  }
  if (bodySchema) call.push('body=body');
  call.push(`authenticated=${authenticated ? 'True' : 'False'}`);

  let text = `    def ${name}(${args.join(', ')}) -> ${returns}:\n`;
  text += docstring(docLines.join('\n'), '        ');
  const invoke = `self._request(${call.join(', ')})`;
  text += noBody ? `        ${invoke}\n` : `        return cast(${pyString(returns)}, ${invoke})\n`;
  return text;
}

export function clientPy(doc: OpenApiDocument, types: Models, operations: PyOperation[]): string {
  const baseUrl = doc.servers?.[0]?.url ?? 'http://127.0.0.1:3000';
  const login = operations.find((o) => o.op.operationId === 'auth.login');
  const methods = operations.map((o) => method(types, o)).join('\n');
  const loginHelper = login
    ? `
    def login(self, email: str, password: str) -> AccessTokenRead:
        """Logs in and keeps the access token for the following calls."""
        session = self.${identifier(login.op.operationId)}({"email": email, "password": password})
        self.token = session["access_token"]
        return session
`
    : '';
  return `${HEADER}
"""A stdlib-only client of the ${doc.info.title} (version ${doc.info.version})."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, Literal, cast

from .errors import ApiError
from .models import *  # noqa: F403

DEFAULT_BASE_URL = ${pyString(baseUrl)}
USER_AGENT = ${pyString(`ops-platform-client-python/${doc.info.version}`)}


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Client:
    """One method per operation of the API; error answers raise ApiError.

    \`token\` is sent as \`Authorization: Bearer <token>\` on the operations that need one;
    \`login()\` sets it.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        token: str | None = None,
        timeout: float = 30.0,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.headers = dict(headers or {})
${loginHelper}
    def _request(
        self,
        method: str,
        path: str,
        path_params: Mapping[str, str],
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, str | None] | None = None,
        body: Any = None,
        authenticated: bool = False,
    ) -> Any:
        url = self.base_url + path.format(**{k: urllib.parse.quote(str(v), safe="") for k, v in path_params.items()})
        pairs = [(k, _query_value(v)) for k, v in (query or {}).items() if v is not None]
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        sent = {"accept": "application/json", "user-agent": USER_AGENT, **self.headers}
        sent.update({k: v for k, v in (headers or {}).items() if v is not None})
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            sent["content-type"] = "application/json"
        if authenticated and self.token:
            sent["authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(url, data=data, headers=sent, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                text = response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            raw = error.read().decode("utf-8", "replace")
            try:
                problem = json.loads(raw)
            except ValueError:
                problem = None
            raise ApiError(error.code, problem if isinstance(problem, dict) else None, raw) from None
        return json.loads(text) if text else None

${methods}`;
}
