// Holds an OpenAPI document to its ecosystem's tools: validates it with
// @apidevtools/swagger-parser (the OpenAPI 3.1 schema and every $ref) and
// lints it with @redocly/cli under its recommended-strict rules (every
// warning an error). ./build.sh test runs it on the /openapi.json that the
// worker serves on workerd.
//
//   node scripts/openapi-check.mjs FILE|URL
//
// It prints each tool's verdict and exits non-zero when either finds a
// problem.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = process.argv[2];
if (!src) {
  console.error('usage: node scripts/openapi-check.mjs FILE|URL');
  process.exit(2);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-check-'));
let failed = false;
try {
  let file = src;
  if (/^https?:/.test(src)) {
    const res = await fetch(src);
    if (!res.ok) throw new Error(`GET ${src}: ${res.status}`);
    file = path.join(tmp, 'openapi.json');
    fs.writeFileSync(file, await res.text());
  }
  // swagger-parser dereferences in place: give it its own copy.
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  try {
    const api = await SwaggerParser.validate(structuredClone(doc));
    console.log(`swagger-parser validate: valid (${api.info.title} ${api.info.version}, OpenAPI ${api.openapi}, ${Object.keys(api.paths).length} paths)`);
  } catch (e) {
    failed = true;
    console.error(`swagger-parser validate: ${e.message}`);
  }
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const bin = path.join(ROOT, 'node_modules', '.bin', 'redocly');
  const lint = spawnSync(bin, ['lint', '--extends=recommended-strict', '--format=summary', file], { env, encoding: 'utf8' });
  const text = `${lint.stdout}${lint.stderr}`;
  const verdict = `redocly lint (recommended-strict): ${summary(text)}`;
  if (lint.status === 0) {
    console.log(verdict);
  } else {
    failed = true;
    console.error(text.replace(/^.*╔[\s\S]*╝\n/m, ''));
    console.error(verdict);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** The lint's verdict: "0 errors, 0 warnings" or the count it found. */
function summary(text) {
  if (/Your API description is valid/.test(text)) return `0 errors, ${text.match(/(\d+) warnings?/)?.[1] ?? 0} warnings`;
  const m = text.match(/Validation failed with (\d+) errors?(?: and (\d+) warnings?)?/);
  return m ? `${m[1]} errors, ${m[2] ?? 0} warnings` : text.trim().split('\n').pop();
}
