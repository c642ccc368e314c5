/** The parts of an OpenAPI 3.1 document the Python client generator reads. */

/** `x-deprecation` of the document (shared/api/openapi/deprecation.ts). */
export interface DeprecationFacts {
  since: string;
  sunset?: string;
  link?: string;
}

export const deprecationNote = (d: DeprecationFacts) =>
  [
    `Deprecated since ${d.since}`,
    ...(d.sunset ? [`sunset ${d.sunset}`] : []),
    ...(d.link ? [`see ${d.link}`] : []),
  ].join('; ') + '.';

export type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  description?: string;
  default?: unknown;
  'x-deprecation'?: DeprecationFacts;
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface OperationObject {
  operationId: string;
  summary?: string;
  'x-deprecation'?: DeprecationFacts;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, Schema> };
}
