/**
 * `npm run check` fails on any import cycle (`npm run check:cycles`, dependency-cruiser): a module
 * that reaches itself through its imports loads half-initialised in one order and not the other,
 * and two concerns that import each other are one concern. Type-only imports count too
 * (`tsPreCompilationDeps`): a cycle of types is the same knot, waiting for its first value. Generated
 * clients are left out (hey-api's types refer to each other by design).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'An import cycle: split the module both sides need, or move the shared declaration below them.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(clients|generated|node_modules|cdk[.]out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.json'],
    },
  },
};
