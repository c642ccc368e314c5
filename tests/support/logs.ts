import { vi } from 'vitest';
import { logger } from '#functions/observability';

/**
 * Captures what the shared logger writes from now until the spies are restored, as one object a
 * line: `{ level, message, ...fields }`.
 */
export function captureLogLines(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const level of ['info', 'warn', 'error'] as const)
    vi.spyOn(logger, level).mockImplementation(((message: string, f: Record<string, unknown>) => {
      lines.push({ level, message, ...f });
    }) as never);
  return lines;
}
