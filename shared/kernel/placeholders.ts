/**
 * The syntax of workflow rule fields and templates (docs/api.md section 9.1), shared by the
 * request schemas that check it and the domain that applies it: a field is a dotted path into
 * an entity (`subject_id`, `lines.0.total`), and a template holds `{{field}}` placeholders
 * (spaces inside the braces allowed).
 */

export const FIELD_PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

/** A placeholder and the text inside its braces. */
export const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/** The placeholders of a template whose content is not a field path. */
export const invalidPlaceholders = (template: string): string[] =>
  [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!.trim()).filter((path) => !FIELD_PATH.test(path));
