// A loopback stand-in of the Hugging Face Hub for the tests: it serves the
// real config.json files kept under testdata/hub/ (their sources in
// testdata/hub/sources.json) at the Hub's own path,
//   GET /{owner}/{name}/resolve/main/config.json
// with the Hub's answers otherwise: 401 for a gated model without the
// right token (Authorization: Bearer TOKEN), 404 for an id it does not
// hold. It answers CORS as the Hub does (any origin, the Authorization
// header allowed), so a page on another loopback port can fetch from it.
//
//   import { startHub } from '../tests/hub/server.mjs';
//   const hub = await startHub({ token: 'hf_test' }); // hub.url, hub.requests, hub.close()
//
// As a command it prints its URL and serves until killed (./build.sh
// test runs it for the worker's suite):
//   node tests/hub/server.mjs [--token T]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../testdata/hub');
export const SOURCES = JSON.parse(fs.readFileSync(path.join(DIR, 'sources.json'), 'utf8')).models;

/** The config.json the stand-in serves for id (a parsed object). */
export function hubConfig(id) {
  return JSON.parse(fs.readFileSync(path.join(DIR, id, 'config.json'), 'utf8'));
}

/**
 * Starts the stand-in on a free loopback port. token is what a gated
 * model needs. requests records every request: {method, path, authorization}.
 */
export async function startHub({ token = 'hf_test_token' } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://hub');
    requests.push({ method: req.method, path: url.pathname, authorization: req.headers.authorization ?? null });
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'authorization',
      'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    const m = url.pathname.match(/^\/([\w.-]+\/[\w.-]+)\/resolve\/main\/config\.json$/);
    const id = m?.[1];
    const known = id && Object.hasOwn(SOURCES, id);
    const send = (status, body) => res.writeHead(status, { ...cors, 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'GET' || !known) {
      send(404, { error: 'Repository Not Found' });
      return;
    }
    if (SOURCES[id].gated && req.headers.authorization !== `Bearer ${token}`) {
      send(401, { error: `Access to model ${id} is restricted. You must have access to it and be authenticated to access it. Please log in.` });
      return;
    }
    res.writeHead(200, { ...cors, 'Content-Type': 'text/plain; charset=utf-8' }).end(fs.readFileSync(path.join(DIR, id, 'config.json')));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    token,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--token');
  const hub = await startHub(i > 0 ? { token: process.argv[i + 1] } : {});
  console.log(`hub at ${hub.url}`);
}
