import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm start` as a user runs it (local/main.ts in its own process, with its own DynamoDB Local),
 * then its DynamoDB Local dies: the runtime must stop with one clear line, not serve errors.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let main: ChildProcess | undefined;

afterAll(async () => {
  if (main && main.exitCode === null && main.signalCode === null) {
    main.kill('SIGTERM'); // its own shutdown also stops its DynamoDB Local
    await once(main, 'exit');
  }
});

const procStat = (entry: string): string => {
  try {
    return readFileSync(`/proc/${entry}/stat`, 'utf8');
  } catch {
    return ''; // not a process, or it ended meanwhile
  }
};

/** The child processes of `pid` as [pid, command]: from /proc on Linux (no procps needed), else `ps`. */
const childrenOf = (pid: number): [number, string][] => {
  if (existsSync('/proc/self/stat'))
    return readdirSync('/proc').flatMap((entry): [number, string][] => {
      const m = /^(\d+) \((.*)\) \S+ (\d+)/s.exec(procStat(entry)); // "<pid> (<comm>) <state> <ppid> ..."
      return m && Number(m[3]) === pid ? [[Number(m[1]), m[2]!]] : [];
    });
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid]) => Number(ppid) === pid)
    .map(([child, , comm]) => [Number(child), basename(comm ?? '')]);
};

describe('npm start', () => {
  it('exits 1 with one clear line when DynamoDB Local stops unexpectedly', async () => {
    main = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', OPS_LOCAL_QUIET: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    main.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    main.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = once(main, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    const deadline = Date.now() + 60_000;
    while (!/listening on (\S+)/.test(stdout)) {
      if (Date.now() > deadline || main.exitCode !== null) throw new Error(`did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const url = /listening on (\S+)/.exec(stdout)![1]!;
    expect((await fetch(`${url}/health`)).status).toBe(200);

    const java = childrenOf(main.pid!).find(([, command]) => command === 'java');
    expect(java, 'DynamoDB Local (java) is a child of main.ts').toBeDefined();
    process.kill(java![0], 'SIGKILL');
    const [code] = await Promise.race([
      exited,
      new Promise<[string]>((r) => setTimeout(() => r(['still running 15 s later']), 15_000)),
    ]);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n').at(-1)).toBe(
      'DynamoDB Local stopped unexpectedly (signal SIGKILL); the local runtime stops too',
    );
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 90_000);
});
