/**
 * The local runtime's background work: the stream relay and the queue workers. The delivery
 * path plugs in here; until then there is nothing to run.
 */
export interface BackgroundOptions {
  endpoint: string;
  tableName: string;
}

export async function startBackground(_options: BackgroundOptions): Promise<{ stop(): Promise<void> }> {
  return { stop: async () => undefined };
}
