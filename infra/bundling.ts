import type { BuildOptions } from 'esbuild';

/**
 * The esbuild options every Lambda function is bundled with. The CDK functions derive their
 * bundling from this object (infra/constructs/service-function.ts), and the bundle-size
 * benchmark builds its SDK-only floor bundle with the same options, so the two compare like
 * with like.
 *
 * Everything is bundled, the AWS SDK v3 included: the runtime's SDK version then cannot drift
 * from the tested one, and esbuild tree-shakes what is unused.
 */
export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  minify: true,
  sourcemap: false,
  mainFields: ['module', 'main'],
  external: [] as string[],
} satisfies BuildOptions;
