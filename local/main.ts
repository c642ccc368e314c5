import { startDynamoLocal } from './dynamodb-local';
import { startRuntime } from './runtime';

/**
 * `npm start`: DynamoDB Local plus the service on 127.0.0.1:$PORT (default 3000). The table is
 * in memory unless OPS_DATA_DIR names a folder to keep it in. The shell's environment is handed
 * to the runtime as the functions' settings (OPS_SESSION_TTL_SECONDS and the like).
 */
const started = performance.now();
const dataDir = process.env.OPS_DATA_DIR;
const dynamo = await startDynamoLocal({
  ...(dataDir ? { dataDir } : {}),
  // Without its table the service would answer 401 and 500 to everything: stop instead.
  onUnexpectedExit: (how) => {
    console.error(`DynamoDB Local stopped unexpectedly (${how}); the local runtime stops too`);
    process.exit(1);
  },
});
const email = process.env.OPS_BOOTSTRAP_ADMIN_EMAIL;
const password = process.env.OPS_BOOTSTRAP_ADMIN_PASSWORD;

let runtime: Awaited<ReturnType<typeof startRuntime>>;
try {
  runtime = await startRuntime({
    endpoint: dynamo.endpoint,
    tableName: process.env.TABLE_NAME ?? 'ops-platform-local',
    port: Number(process.env.PORT ?? 3000),
    staticDir: new URL('../demo-static', import.meta.url).pathname,
    consoleDir: new URL('../console/dist', import.meta.url).pathname,
    ...(email && password ? { bootstrapAdmin: { email, password } } : {}),
    ...(process.env.OPS_CURSOR_SECRET ? { cursorSecret: process.env.OPS_CURSOR_SECRET } : {}),
    env: process.env,
  });
} catch (err) {
  await dynamo.stop();
  throw err;
}
console.log(`listening on ${runtime.url} (ready in ${Math.round(performance.now() - started)} ms)`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await runtime.stop();
  await dynamo.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
