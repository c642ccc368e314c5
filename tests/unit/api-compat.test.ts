import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serviceOpenApi } from '#shared/demo/openapi';
import { versionRaisedForBreaking } from '../../scripts/lib/api-version';
import { type Change, diffOpenApi } from '../../scripts/lib/openapi-diff';

/**
 * The generated document against the last release's (`releases/openapi.json`, written by
 * `npm run api:release`): a breaking change (docs/api.md section 12) needs the version raised and
 * its operation named in CHANGELOG.md under that version.
 */

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const released = JSON.parse(read('releases/openapi.json')) as Record<string, unknown> & {
  info: { version: string };
};
const current = serviceOpenApi() as Record<string, unknown> & { info: { version: string } };

/** The lines of CHANGELOG.md under `## <version>`. */
const changelogOf = (changelog: string, version: string) =>
  changelog.split(/^## /m).find((section) => section.startsWith(`${version}\n`)) ?? '';

/** What of `breaking` the release does not account for. */
export function unaccounted(
  breaking: Change[],
  releasedVersion: string,
  version: string,
  changelog: string,
): string[] {
  if (breaking.length === 0) return [];
  const out: string[] = [];
  if (!versionRaisedForBreaking(releasedVersion, version))
    out.push(`version ${version} is not raised over ${releasedVersion} (docs/api.md section 12)`);
  const section = changelogOf(changelog, version);
  for (const c of breaking) {
    const operation = c.where.split(' ').slice(0, 2).join(' ');
    if (!section.includes(operation))
      out.push(`CHANGELOG.md ${version} does not name ${operation} (${c.rule}: ${c.where})`);
  }
  return out;
}

describe('breaking changes against the last release', () => {
  it('are none, or the version is raised and CHANGELOG.md names them', () => {
    const breaking = diffOpenApi(released, current).filter((c) => c.breaking);
    expect(unaccounted(breaking, released.info.version, current.info.version, read('CHANGELOG.md'))).toEqual(
      [],
    );
  });

  it('a breaking change is refused without a raised version and a changelog entry, accepted with both', () => {
    const broken = structuredClone(current) as unknown as { paths: Record<string, Record<string, unknown>> };
    delete broken.paths['/tenants/{tenant_id}/tasks']!.post;
    const breaking = diffOpenApi(current, broken).filter((c) => c.breaking);
    expect(breaking.map((c) => c.where)).toEqual(['POST /tenants/{tenant_id}/tasks']);
    expect(unaccounted(breaking, '0.1.0', '0.1.0', '## 0.1.0\n')).toHaveLength(2);
    expect(
      unaccounted(breaking, '0.1.0', '0.2.0', '## 0.2.0\n- Removed POST /tenants/{tenant_id}/tasks.\n'),
    ).toEqual([]);
  });
});
