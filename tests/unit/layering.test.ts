import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering of shared/README.md is a failing check only if ESLint's rule actually fires: lint
 * small sources as if they lived in each room, with the project's own eslint.config.js.
 */
const eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });

const restrictedImports = async (filePath: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('the layering rule (eslint.config.js)', () => {
  it('refuses an AWS SDK import under shared/', async () => {
    const messages = await restrictedImports(
      'shared/domain/layering-probe.ts',
      "import { SQSClient } from '@aws-sdk/client-sqs';\nexport const probe = SQSClient;\n",
    );
    expect(messages).toEqual([expect.stringContaining('shared/ has no AWS import')]);
  });

  it('refuses the local runtime under functions/', async () => {
    const messages = await restrictedImports(
      'functions/http/layering-probe.ts',
      "import { startRuntime } from '#local/runtime';\nexport const probe = startRuntime;\n",
    );
    expect(messages).toEqual([expect.stringContaining('functions/ never imports the local runtime')]);
  });

  it('refuses functions/, local/ and infra/ under shared/, and lets the kernel in', async () => {
    for (const room of ['#functions/adapters/dynamo', '#local/runtime', '#infra/config']) {
      const messages = await restrictedImports(
        'shared/kernel/layering-probe.ts',
        `import * as probe from '${room}';\nexport { probe };\n`,
      );
      expect([room, messages]).toEqual([room, [expect.stringContaining('shared/ never imports')]]);
    }
    expect(
      await restrictedImports(
        'shared/domain/layering-probe.ts',
        "import { newId } from '#shared/kernel/ids';\nexport const probe = newId;\n",
      ),
    ).toEqual([]);
  });

  it('lets the adapters under functions/ use the AWS SDK', async () => {
    expect(
      await restrictedImports(
        'functions/adapters/layering-probe.ts',
        "import { SQSClient } from '@aws-sdk/client-sqs';\nexport const probe = SQSClient;\n",
      ),
    ).toEqual([]);
  });

  it('refuses the demo under shared/api and shared/domain, keeps their other rules there, and lets the demo import the API', async () => {
    for (const [file, source] of [
      ['shared/api/layering-probe.ts', '#shared/demo/index'],
      ['shared/api/operations/layering-probe.ts', '../../demo/schemas'],
      ['shared/domain/layering-probe.ts', '../demo/records'],
      ['shared/domain/notifications/layering-probe.ts', '#shared/demo/delivery'],
    ] as const) {
      const messages = await restrictedImports(
        file,
        `import * as probe from '${source}';\nexport { probe };\n`,
      );
      expect([file, messages]).toEqual([
        file,
        [expect.stringContaining('shared/api and shared/domain never import the demo')],
      ]);
    }
    expect(
      await restrictedImports(
        'shared/api/layering-probe.ts',
        "import { SQSClient } from '@aws-sdk/client-sqs';\nexport const probe = SQSClient;\n",
      ),
    ).toEqual([expect.stringContaining('shared/ has no AWS import')]);
    expect(
      await restrictedImports(
        'shared/demo/layering-probe.ts',
        "import { OPERATIONS } from '#shared/api/manifest';\nexport const probe = OPERATIONS;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        'shared/api/layering-probe.ts',
        "import { DEMO_OPERATIONS } from './operations/demo';\nexport const probe = DEMO_OPERATIONS;\n",
      ),
    ).toEqual([]);
  });
});
