import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute paths the CDK app needs, independent of the working directory. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const FUNCTIONS_DIR = join(REPO_ROOT, 'functions');
export const DEMO_STATIC_DIR = join(REPO_ROOT, 'demo-static');
/** The operator console's sources; its deployment builds them (scripts/lib/console-build.ts). */
export const CONSOLE_SOURCE_DIR = join(REPO_ROOT, 'console');
export const LOCK_FILE = join(REPO_ROOT, 'package-lock.json');
