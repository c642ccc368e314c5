/**
 * Tables a document shows from data the repository keeps (bench/results.json, the mutation
 * record): each sits between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`, written by
 * a script, so that the prose around it is hand-written and the figures cannot go stale
 * (tests/unit/generated-docs.test.ts fails when a block differs from what the script writes).
 */

const BLOCK = /(<!-- generated:([\w-]+) -->\n)([\s\S]*?)(<!-- \/generated:\2 -->)/g;

/** The names of a document's blocks, in order. */
export function blockNames(doc: string): string[] {
  return [...doc.matchAll(BLOCK)].map(([, , name]) => name!);
}

/**
 * The document with each block's body replaced by `blocks[name]`. Every block of the document
 * must have a body and every body a block: a marker lost in an edit fails loudly rather than
 * leaving a table unwritten.
 */
export function fillBlocks(doc: string, blocks: Record<string, string>): string {
  const names = blockNames(doc);
  const missing = Object.keys(blocks).filter((name) => !names.includes(name));
  const unknown = names.filter((name) => !(name in blocks));
  if (missing.length || unknown.length)
    throw new Error(
      `generated blocks: ${missing
        .map((n) => `no marker for ${n}`)
        .concat(unknown.map((n) => `nothing writes ${n}`))
        .join('; ')}`,
    );
  return doc.replace(BLOCK, (_all, open: string, name: string, _body: string, close: string) => {
    const body = blocks[name]!.trimEnd();
    return `${open}${body}\n${close}`;
  });
}

/** A markdown table: a header row, its alignment row (`r` right-aligns a column), the rows. */
export function table(header: string[], align: string, rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const rule = `|${[...align].map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
