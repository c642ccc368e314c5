import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * cfn-lint (the CloudFormation linter, a Python tool) over synthesized templates: CloudFormation
 * would reject a template with an error, so every error fails; a warning is kept only when
 * `infra/cfn-lint-acknowledged.json` acknowledges it with a reason, and an acknowledgement that
 * silences nothing fails too, so the file cannot outlive what it excuses.
 */

export type LintLevel = 'Error' | 'Warning' | 'Informational';

export interface LintFinding {
  readonly rule: string;
  readonly level: LintLevel;
  /** The stack's role (`stateful`, `stateless`, `api-routes`) or the file linted. */
  readonly stack: string;
  /** The logical id the finding is about, when it is inside `Resources`. */
  readonly resource?: string;
  readonly resourceType?: string;
  readonly message: string;
}

/** One entry of infra/cfn-lint-acknowledged.json. */
export interface LintAck {
  readonly rule: string;
  /** The stacks it applies to; all when absent. */
  readonly stacks?: readonly string[];
  /** The resource type the finding must be on. */
  readonly resourceType: string;
  /** A regular expression the finding's message must match: it pins the exact case. */
  readonly message: string;
  readonly reason: string;
}

export interface LintVerdict {
  /** Errors and unacknowledged warnings, one line each: the check fails unless both are empty. */
  readonly refused: string[];
  /** Acknowledgements that matched no finding. */
  readonly stale: LintAck[];
  /** How many findings each acknowledgement silenced, in the file's order. */
  readonly silenced: number[];
}

export const CFN_LINT_MISSING = [
  'cfn-lint (the CloudFormation linter, version 1.x) is not installed, so the synthesized templates',
  'cannot be checked. Install it with `pipx install cfn-lint` or `pip install cfn-lint` (on this',
  "project's machines it is a pip install under pyenv's Python; Debian 12 has no cfn-lint package,",
  'a Debian release that packages it installs with `apt-get install cfn-lint`, which .ci/run does),',
  'then check that `cfn-lint --version` runs. CFN_LINT=<path> names another executable.',
].join('\n');

interface RawFinding {
  Filename: string;
  Level: LintLevel;
  Location: { Path?: (string | number)[] };
  Message: string;
  Rule: { Id: string };
}

/**
 * Lints the given templates in one cfn-lint process (its start-up is most of the cost) and
 * reads its JSON report. `stacks` maps each file to the name findings are reported under.
 */
export async function runCfnLint(
  stacks: Record<string, string>,
  command: string = process.env.CFN_LINT ?? 'cfn-lint',
): Promise<LintFinding[]> {
  const byFile = new Map(Object.entries(stacks).map(([stack, file]) => [file, stack]));
  const files = [...byFile.keys()];
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      command,
      ['--format', 'json', '--', ...files],
      { maxBuffer: 64 * 1024 * 1024 },
      (err, out, stderr) => {
        const code = (err as NodeJS.ErrnoException | null)?.code;
        if (code === 'ENOENT') return reject(new Error(CFN_LINT_MISSING));
        // Its exit status is a bit mask of the levels found (2 error, 4 warning, 8 info); 1 is
        // a failure of the tool itself, and no JSON report then.
        if (err && !out.trim().startsWith('['))
          return reject(new Error(`cfn-lint failed (${String(code)}): ${stderr || err.message}`));
        resolve(out);
      },
    );
  });
  const types = new Map(
    files.map((f) => {
      const resources = (
        JSON.parse(readFileSync(f, 'utf8')) as { Resources?: Record<string, { Type?: string }> }
      ).Resources;
      return [f, resources ?? {}] as const;
    }),
  );
  return (JSON.parse(stdout) as RawFinding[]).map((f) => {
    const path = f.Location.Path ?? [];
    const resource = path[0] === 'Resources' && typeof path[1] === 'string' ? path[1] : undefined;
    const resourceType = resource === undefined ? undefined : types.get(f.Filename)?.[resource]?.Type;
    return {
      rule: f.Rule.Id,
      level: f.Level,
      stack: byFile.get(f.Filename) ?? f.Filename,
      ...(resource === undefined ? {} : { resource }),
      ...(resourceType === undefined ? {} : { resourceType }),
      message: f.Message,
    };
  });
}

const matches = (ack: LintAck, f: LintFinding): boolean =>
  ack.rule === f.rule &&
  (ack.stacks === undefined || ack.stacks.includes(f.stack)) &&
  ack.resourceType === f.resourceType &&
  new RegExp(ack.message).test(f.message);

const describe = (f: LintFinding) =>
  `${f.level} ${f.rule} ${f.stack}${f.resource ? `/${f.resource}` : ''}: ${f.message}`;

/** Errors always refused; any other finding refused unless an acknowledgement matches it. */
export function judgeLint(findings: readonly LintFinding[], acks: readonly LintAck[]): LintVerdict {
  const silenced = acks.map(() => 0);
  const refused: string[] = [];
  for (const f of findings) {
    if (f.level === 'Error') {
      refused.push(describe(f));
      continue;
    }
    const i = acks.findIndex((a) => matches(a, f));
    if (i < 0) refused.push(`${describe(f)} (not acknowledged in infra/cfn-lint-acknowledged.json)`);
    else silenced[i] = silenced[i]! + 1;
  }
  return { refused, stale: acks.filter((_, i) => silenced[i] === 0), silenced };
}

/** The acknowledgement file, each entry checked for a rule id, a type and a real reason. */
export function readLintAcks(file: string): LintAck[] {
  const acks = (JSON.parse(readFileSync(file, 'utf8')) as { acknowledged: LintAck[] }).acknowledged;
  for (const a of acks) {
    if (!/^[WI]\d{4}$/.test(a.rule))
      throw new Error(`${file}: "${a.rule}" is not a cfn-lint warning or informational rule id`);
    if (!/^AWS::\w+::\w+$|^Custom::\w+$/.test(a.resourceType ?? ''))
      throw new Error(`${file}: ${a.rule} names no resource type`);
    if ((a.reason ?? '').length < 60) throw new Error(`${file}: ${a.rule} needs a specific reason`);
    new RegExp(a.message);
  }
  return acks;
}
