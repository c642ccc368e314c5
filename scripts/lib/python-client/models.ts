import { type DeprecationFacts, deprecationNote, type Schema } from './document';
import { docstring, isIdentifier, pascal, pyLiteral, pyString } from './python';

/** Generates the TypedDicts of `models.py`, naming inline objects after where they sit. */
export class Models {
  readonly classes: string[] = [];
  readonly names: string[] = [];
  private readonly taken = new Set<string>();

  constructor(components: Record<string, Schema>) {
    for (const name of Object.keys(components)) this.taken.add(name);
  }

  private fresh(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}${n}`;
    this.taken.add(name);
    return name;
  }

  /** The Python type of `schema`; objects with properties become TypedDicts named from `hint`. */
  type(schema: Schema | undefined, hint: string): string {
    if (!schema || Object.keys(schema).length === 0) return 'Any';
    if (schema.$ref) return schema.$ref.replace('#/components/schemas/', '');
    const union = schema.anyOf ?? schema.oneOf;
    if (union) {
      const parts = [...new Set(union.map((s, i) => this.type(s, `${hint}${i === 0 ? '' : i + 1}`)))];
      return parts.join(' | ');
    }
    if (schema.allOf?.length === 1) return this.type(schema.allOf[0], hint);
    if (schema.const !== undefined) return `Literal[${pyLiteral(schema.const)}]`;
    if (schema.enum) return `Literal[${schema.enum.map(pyLiteral).join(', ')}]`;
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (types.length > 1) return types.map((t) => this.type({ ...schema, type: t }, hint)).join(' | ');
    switch (types[0]) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `list[${this.type(schema.items, `${hint}Item`)}]`;
      default:
        break;
    }
    if (schema.properties && Object.keys(schema.properties).length > 0)
      return this.typedDict(this.fresh(hint), schema);
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') return `dict[str, ${this.type(extra, `${hint}Value`)}]`;
    return 'dict[str, Any]';
  }

  /** Emits a TypedDict (class syntax, or the functional form when a key is not an identifier). */
  typedDict(name: string, schema: Schema): string {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([key, prop]) => {
      const t = this.type(prop, `${name}${pascal(key)}`);
      return { key, type: required.has(key) ? t : `NotRequired[${t}]`, description: prop.description };
    });
    const deprecated = Object.entries(schema.properties ?? {}).flatMap(([key, prop]) => {
      const facts =
        prop['x-deprecation'] ?? (prop.allOf?.[0]?.['x-deprecation'] as DeprecationFacts | undefined);
      return facts ? [`\`${key}\`: ${deprecationNote(facts)}`] : [];
    });
    const doc = [schema.description ?? `The \`${name}\` record.`, ...deprecated].join('\n\n');
    let text: string;
    if (fields.every((f) => isIdentifier(f.key))) {
      text = `class ${name}(TypedDict):\n${docstring(doc, '    ')}`;
      for (const f of fields) text += `    ${f.key}: ${f.type}\n`;
    } else {
      text = `${name} = TypedDict(\n    ${pyString(name)},\n    {\n`;
      for (const f of fields) text += `        ${pyString(f.key)}: ${pyString(f.type)},\n`;
      text += `    },\n)\n${name}.__doc__ = ${pyString(doc)}\n`;
    }
    this.classes.push(text);
    this.names.push(name);
    return name;
  }

  /** A named component: a TypedDict for objects, a type alias for everything else. */
  component(name: string, schema: Schema): void {
    if (schema.properties && Object.keys(schema.properties).length > 0) {
      this.typedDict(name, schema);
      return;
    }
    const t = this.type(schema, name);
    this.classes.push(`${name}: TypeAlias = ${t}\n`);
    this.names.push(name);
  }
}
