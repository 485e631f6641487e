// The page's default view, computed at build time by the same WebAssembly
// engine the page loads, so a first visit shows its result before the
// engine has compiled and started. ./build.sh build runs it after
// assembling build/npm/ (the engine) and build/site/:
//   - build/site/prerender.json keeps the whole report, which app.js reads
//     to draw the chart before the engine is up. It uses it only when the
//     page opens on exactly that request (the key); the engine recomputes
//     it once loaded;
//   - build/site/index.html is the template www/page/index.html with the
//     default configuration in its form and the report's figures in its
//     results, written by the page's own code (scripts/static-page.mjs).
//     Without happy-dom (npm ci installs it) the template is copied as it
//     is, and the page waits for the engine to show its figures.
// The template is a source file and is never written.
//   node scripts/prerender.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { load } from '../build/npm/throughput.js';
import * as S from '../www/page/state.js';
import { evaluateWithRange } from '../www/ui/sweep-range.js';

const site = new URL('../build/site/', import.meta.url);
const template = readFileSync(new URL('../www/page/index.html', import.meta.url), 'utf8');

const state = S.fromQuery('');
const config = state.configs[state.active];
const { request, errors } = S.toRequest(config);
if (errors.length) throw new Error(`the default view has errors: ${JSON.stringify(errors)}`);
const calc = await load();
const report = evaluateWithRange((r) => calc.evaluate(r), request, undefined);
const contract = calc.contract();
const out = { version: calc.version, key: JSON.stringify(request), report };
writeFileSync(new URL('prerender.json', site), `${JSON.stringify(out)}\n`);
calc.close?.();

let page = template;
let how = 'the template as it is: happy-dom is not installed (npm ci)';
try {
  const { writeStaticPage } = await import('./static-page.mjs');
  page = await writeStaticPage(template, config, report, contract);
  how = `the default view for ${request.model} on ${request.hardware}`;
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('happy-dom')) throw e;
}
writeFileSync(new URL('index.html', site), page);
console.log(`prerender: build/site/prerender.json (${JSON.stringify(out).length} bytes), build/site/index.html (${how})`);
