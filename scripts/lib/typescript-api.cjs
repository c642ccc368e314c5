// The TypeScript compiler API for @hey-api/openapi-ts. The project's `typescript` is 7 (the
// native compiler, which has no JavaScript API), so the generator gets the TypeScript 6 API that
// @ts-morph/common bundles. Only scripts/generate-clients.ts loads this, through a resolve hook.
module.exports = require('@ts-morph/common').ts;
