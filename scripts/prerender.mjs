// The page's default view, computed at build time by the same WebAssembly
// engine the page loads, so a first visit shows its result before the
// engine has compiled and started:
//   - www/index.html gets the default configuration in its form and the
//     report's figures in its results (scripts/static-page.mjs), painted
//     with the HTML;
//   - www/prerender.json keeps the whole report, which app.js reads to
//     draw the chart before the engine is up. It uses it only when the
//     page opens on exactly that request (the key); the engine recomputes
//     it once loaded.
// ./build.sh build runs this after building the .wasm. index.html is a
// source file too: rerunning this on it changes nothing unless the engine's
// figures (or the default configuration) changed, and then the new page is
// committed like any other change.
//   node scripts/prerender.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { load } from '../www/throughput.js';
import * as S from '../www/state.js';
import { evaluateWithRange } from '../www/sweep-range.js';
import { writeStaticPage } from './static-page.mjs';

const state = S.fromQuery('');
const config = state.configs[state.active];
const { request, errors } = S.toRequest(config);
if (errors.length) throw new Error(`the default view has errors: ${JSON.stringify(errors)}`);
const calc = await load();
const report = evaluateWithRange((r) => calc.evaluate(r), request, undefined);
const out = { version: calc.version, key: JSON.stringify(request), report };
writeFileSync(new URL('../www/prerender.json', import.meta.url), `${JSON.stringify(out)}\n`);
calc.close?.();

const page = new URL('../www/index.html', import.meta.url);
const before = readFileSync(page, 'utf8');
const after = writeStaticPage(before, config, report);
if (after !== before) writeFileSync(page, after);
console.log(`prerender: www/prerender.json (${JSON.stringify(out).length} bytes) and www/index.html (${after === before ? 'unchanged' : 'updated'}) for ${request.model} on ${request.hardware}`);
