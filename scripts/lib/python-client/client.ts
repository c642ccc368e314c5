import { deprecationNote, type OpenApiDocument, type OperationObject, type Schema } from './document';
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
  const deprecation = op['x-deprecation'];
  if (deprecation) docLines.push('', `.. deprecated:: ${deprecationNote(deprecation)}`);

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
  if (headerParams.some((p) => p.name === 'Idempotency-Key')) call.push('idempotent=True');
  if (deprecation) call.push('deprecated=True');

  let text = `    def ${name}(${args.join(', ')}) -> ${returns}:\n`;
  text += docstring(docLines.join('\n'), '        ');
  if (deprecation) {
    const warning = `${name} (${httpMethod.toUpperCase()} ${path}) is deprecated: ${deprecationNote(deprecation)}`;
    text += `        warnings.warn(${pyString(warning)}, DeprecationWarning, stacklevel=2)\n`;
  }
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

import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any, Literal, cast

from .models import *  # noqa: F403
from .transport import Transport

DEFAULT_BASE_URL = ${pyString(baseUrl)}
USER_AGENT = ${pyString(`ops-platform-client-python/${doc.info.version}`)}


class Client(Transport):
    """One method per operation of the API; error answers raise ApiError.

    \`token\` is sent as \`Authorization: Bearer <token>\` on the operations that need one;
    \`login()\` sets it. Retries, Idempotency-Key and paging: see \`Transport\`.
    """

    user_agent = USER_AGENT

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        token: str | None = None,
        timeout: float = 30.0,
        headers: Mapping[str, str] | None = None,
        *,
        max_attempts: int = 3,
        max_retry_after: float = 60.0,
        backoff: float = 0.5,
        sleep: Callable[[float], Any] = time.sleep,
    ) -> None:
        super().__init__(
            base_url, token, timeout, headers,
            max_attempts=max_attempts, max_retry_after=max_retry_after, backoff=backoff, sleep=sleep,
        )
${loginHelper}
${methods}`;
}
