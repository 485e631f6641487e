// Writes www/prerender.json: the report of the page's default view,
// computed at build time by the same WebAssembly engine the page loads, so
// a first visit shows its result before the engine has compiled and
// started. app.js uses it only when the page opens on exactly that request
// (the key); the engine recomputes it once loaded. ./build.sh build runs
// this after building the .wasm.
//   node scripts/prerender.mjs
import { writeFileSync } from 'node:fs';
import { load } from '../www/throughput.js';
import * as S from '../www/state.js';
import { evaluateWithRange } from '../www/sweep-range.js';

const state = S.fromQuery('');
const { request, errors } = S.toRequest(state.configs[state.active]);
if (errors.length) throw new Error(`the default view has errors: ${JSON.stringify(errors)}`);
const calc = await load();
const report = evaluateWithRange((r) => calc.evaluate(r), request, undefined);
const out = { version: calc.version, key: JSON.stringify(request), report };
writeFileSync(new URL('../www/prerender.json', import.meta.url), `${JSON.stringify(out)}\n`);
calc.close?.();
console.log(`prerender: www/prerender.json (${JSON.stringify(out).length} bytes) for ${request.model} on ${request.hardware}`);
