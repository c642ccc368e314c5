import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export interface MediaType {
  schema?: unknown;
  example?: unknown;
}
export interface ResponseObject {
  $ref?: string;
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
export interface OperationObject {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}
/** The parts of an OpenAPI 3.1 document the tests read. */
export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, { required?: string[]; properties?: Record<string, { default?: unknown }> }>;
    responses: Record<string, Required<Pick<ResponseObject, 'content'>> & ResponseObject>;
    securitySchemes: Record<string, unknown>;
  };
}

/**
 * Validates JSON values against the schemas of an OpenAPI 3.1 document with ajv (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1), resolving `#/components/schemas/...` references.
 */
export function openApiValidator(doc: object) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  /** `pointer` is a JSON pointer into the document, such as `#/paths/~1health/get/.../schema`. */
  const validatorAt = (pointer: string) => {
    let v = cache.get(pointer);
    if (!v) {
      v = ajv.compile({ $ref: `openapi.json${pointer}` });
      cache.set(pointer, v);
    }
    return v;
  };
  return {
    /** The ajv errors of `value` against the schema at `pointer`; `[]` when it is valid. */
    errors(pointer: string, value: unknown): unknown[] {
      const v = validatorAt(pointer);
      return v(value) ? [] : (v.errors ?? [{ message: 'invalid' }]);
    },
  };
}

export const pointer = (...parts: string[]) =>
  `#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/** The pointer of an operation's success response schema. */
export const responseSchemaPointer = (path: string, method: string, status: number) =>
  pointer(
    'paths',
    path,
    method.toLowerCase(),
    'responses',
    String(status),
    'content',
    'application/json',
    'schema',
  );
