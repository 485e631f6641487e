// Models outside the catalog, from a loopback stand-in of the Hugging Face
// Hub (tests/hub/server.mjs, serving the real configs under testdata/hub/),
// the lazily loaded catalog, and transformers' defaults for partial
// configs, through the JavaScript module. Nothing here reaches the
// internet: every Hub URL is the stand-in's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { load, isHubID, ThroughputError } from '../../build/npm/throughput.js';
import { startHub } from '../../tests/hub/server.mjs';

const QWEN_MOE = 'Qwen/Qwen1.5-MoE-A2.7B';
const GATED = 'google/gemma-2-2b';

let hub;
before(async () => { hub = await startHub({ token: 'hf_test_token' }); });
after(() => hub?.close());

const modelErrors = async (promise) => {
  const err = await promise.then(() => null, (e) => e);
  assert.ok(err instanceof ThroughputError, String(err));
  return err.errors;
};

test('a Hugging Face id outside the catalog is fetched from the Hub, once, and evaluated', async () => {
  const calc = await load({ hub: { url: hub.url } });
  try {
    const request = { model: QWEN_MOE, hardware: 'h100-sxm' };
    // Before prepare, evaluate cannot know it; pending() says a fetch is needed.
    assert.throws(() => calc.evaluate(request), (e) => e instanceof ThroughputError && e.errors[0].field === 'model');
    const pending = calc.pending(request);
    assert.ok(pending instanceof Promise);
    await pending;
    assert.equal(calc.pending(request), null);
    const r = calc.evaluate(request);
    // testdata/hub/Qwen/Qwen1.5-MoE-A2.7B/config.json: 24 layers, 16 KV heads,
    // head_dim 2048 / 16 = 128, bfloat16: 2 x 24 x 16 x 128 x 2 = 196,608.
    assert.equal(r.model.id, QWEN_MOE);
    assert.equal(r.kv_cache.bytes_per_token, 196608);
    assert.ok(r.warnings.some((w) => w.code === 'config_default' && w.message.startsWith('config.json has no head_dim: using 128')));
    const fetched = hub.requests.filter((q) => q.path === `/${QWEN_MOE}/resolve/main/config.json`);
    assert.equal(fetched.length, 1);
    assert.equal(fetched[0].authorization, null, 'no token given, none sent');
    // Case-insensitive, as catalog ids are, without a second fetch.
    await calc.prepare({ model: QWEN_MOE.toLowerCase(), hardware: 'h100-sxm' });
    assert.equal(calc.evaluate({ model: QWEN_MOE.toLowerCase(), hardware: 'h100-sxm' }).model.id, QWEN_MOE);
    assert.equal(hub.requests.filter((q) => q.path === `/${QWEN_MOE}/resolve/main/config.json`).length, 1);
  } finally {
    calc.close();
  }
});

test('a gated model needs a token; with it the token is sent as Authorization: Bearer', async () => {
  const calc = await load({ hub: { url: hub.url } });
  try {
    const request = { model: GATED, hardware: 'h100-sxm' };
    const need = [{ field: 'model', message: `unknown model "${GATED}": the model is gated or private on the Hugging Face Hub (HTTP 401): it needs a token` }];
    assert.deepEqual(await modelErrors(calc.prepare(request)), need);
    // The refusal is remembered: evaluate and evaluateAsync say the same.
    assert.throws(() => calc.evaluate(request), (e) => assert.deepEqual(e.errors, need) ?? true);
    assert.equal(calc.pending(request), null);
    assert.deepEqual(await modelErrors(calc.prepare(request, { token: 'hf_wrong' })), [{ field: 'model', message: `unknown model "${GATED}": the Hugging Face Hub refused the token (HTTP 401): the model is gated or private, and the token has no access to it` }]);
    calc.setHubToken('hf_test_token');
    const r = await calc.evaluateAsync(request);
    assert.equal(r.model.id, GATED);
    assert.equal(r.model.num_hidden_layers, 26);
    assert.equal(hub.requests.at(-1).authorization, 'Bearer hf_test_token');
  } finally {
    calc.close();
  }
});

test('an id the Hub does not hold, a name that is no Hub id, and no Hub', async () => {
  const calc = await load({ hub: { url: hub.url } });
  const none = await load({ hub: false });
  try {
    assert.deepEqual(await modelErrors(calc.prepare('acme/nothing-7b')), [{ field: 'model', message: 'unknown model "acme/nothing-7b": no such model on the Hugging Face Hub (HTTP 404)' }]);
    const before = hub.requests.length;
    await calc.prepare('quantum-flux-9000'); // not owner/name: nothing to fetch
    assert.equal(hub.requests.length, before);
    assert.throws(() => calc.evaluate({ model: 'quantum-flux-9000', hardware: 'h100-sxm' }), /unknown model "quantum-flux-9000"/);
    await none.prepare('acme/other-7b');
    assert.equal(hub.requests.length, before, 'hub: false fetches nothing');
    assert.throws(() => none.evaluate({ model: 'acme/other-7b', hardware: 'h100-sxm' }), /unknown model "acme\/other-7b"/);
    assert.equal(isHubID('Qwen/Qwen1.5-MoE-A2.7B'), true);
    for (const bad of ['qwen', 'a/b/c', '../x/y', 'a/-b', 'a--b/c', 'a/b..c', '/x', 'x/']) assert.equal(isHubID(bad), false, bad);
  } finally {
    calc.close();
    none.close();
  }
});

test('offline, a config fetched before is answered from the kept copy', async () => {
  const off = await startHub();
  const url = off.url;
  const first = await load({ hub: { url } });
  await first.prepare(QWEN_MOE);
  first.close();
  await off.close(); // the Hub's address now refuses connections
  const calc = await load({ hub: { url } });
  try {
    const r = await calc.evaluateAsync({ model: QWEN_MOE, hardware: 'h100-sxm' });
    assert.equal(r.kv_cache.bytes_per_token, 196608);
    assert.deepEqual(await modelErrors(calc.prepare('acme/never-fetched')), [{ field: 'model', message: 'unknown model "acme/never-fetched": the Hugging Face Hub could not be reached (offline?) and no config.json is kept for it' }]);
  } finally {
    calc.close();
  }
});

// The module's reasons are the engine's (contract().hub_messages, package
// models' Hub* words, which the API answers with), chosen by the rule of
// models.HubStatusMessage (its test, models/hub_test.go, has these
// statuses): a word of its own in throughput.js would fail here. A
// loopback server answers /status/sNNN/... with HTTP NNN, and
// /bad/not-an-object/... with 200 and a JSON array.
test("the Hub's reasons are the engine's words, for every kind of answer", async () => {
  const server = http.createServer((req, res) => {
    const status = Number(req.url.match(/^\/status\/s(\d{3})/)?.[1] ?? 200);
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(status === 200 ? '[1, 2]' : '{"error": "no"}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const calc = await load({ hub: { url } });
  try {
    const words = calc.contract().hub_messages;
    assert.deepEqual(Object.keys(words).sort(), ['needs_token', 'not_a_config', 'not_found', 'status', 'token_refused', 'unreachable']);
    const cases = [
      [401, '', 'needs_token'], [403, '', 'needs_token'], [401, 'hf_x', 'token_refused'], [403, 'hf_x', 'token_refused'],
      [404, '', 'not_found'], [404, 'hf_x', 'not_found'], [429, 'hf_x', 'status'], [500, '', 'status'], [503, 'hf_x', 'status'],
    ];
    for (const [status, token, kind] of cases) {
      const id = `status/s${status}${token ? '-token' : ''}`;
      const message = `unknown model "${id}": ${words[kind].replaceAll('{status}', String(status))}`;
      assert.deepEqual(await modelErrors(calc.prepare(id, { token })), [{ field: 'model', message }], `HTTP ${status}, token ${token !== ''}`);
    }
    assert.deepEqual(await modelErrors(calc.prepare('bad/not-an-object')), [{ field: 'model', message: `unknown model "bad/not-an-object": ${words.not_a_config}` }]);
  } finally {
    calc.close();
    await new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); });
  }
  // The server gone, nothing kept: unreachable.
  const offline = await load({ hub: { url } });
  try {
    const words = offline.contract().hub_messages;
    assert.deepEqual(await modelErrors(offline.prepare('acme/gone-7b')), [{ field: 'model', message: `unknown model "acme/gone-7b": ${words.unreachable}` }]);
  } finally {
    offline.close();
  }
});

test("the catalog loads lazily with catalog: 'lazy', and from its JSON text or array", async () => {
  const lazy = await load({ catalog: 'lazy', hub: false });
  const text = readFileSync(new URL('../../build/npm/catalog.json', import.meta.url), 'utf8');
  try {
    assert.deepEqual(lazy.models(), []);
    assert.throws(() => lazy.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm' }),
      (e) => e instanceof ThroughputError && e.errors[0].message === 'unknown model "llama-3.1-8b" (the model catalog is not loaded)');
    const p = lazy.pending({ model: 'llama-3.1-8b', hardware: 'h100-sxm' });
    assert.ok(p instanceof Promise);
    await p;
    assert.equal(lazy.evaluate({ model: 'llama-3.1-8b', hardware: 'h100-sxm' }).model.id, 'meta-llama/Llama-3.1-8B-Instruct');
    // The light engine lists every entry but DeepSeek-V4's (the full engine models it).
    const n = JSON.parse(text).filter((e) => e.config.model_type !== 'deepseek_v4').length;
    assert.equal(lazy.models().length, n);
    for (const catalog of [text, JSON.parse(text)]) {
      const c = await load({ catalog, hub: false });
      assert.equal(c.models().length, n);
      c.close();
    }
    await assert.rejects(load({ catalog: new Response('nope', { status: 404 }) }), /HTTP 404/);
  } finally {
    lazy.close();
  }
});

test("a partial config gets transformers' defaults, each named in a warning", async () => {
  const calc = await load({ hub: false });
  try {
    // LlamaConfig: max_position_embeddings=2048; num_key_value_heads None ->
    // num_attention_heads (32); head_dim = 4096 / 32 = 128. KV bytes per
    // token: 2 x 32 layers x 32 x 128 x 2 bytes = 524,288.
    const r = calc.evaluate({
      model_config: { model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32, intermediate_size: 14336, vocab_size: 128256 },
      hardware: 'h100-sxm',
      max_model_len: 2048,
    });
    assert.equal(r.model.max_position_embeddings, 2048);
    assert.equal(r.kv_cache.bytes_per_token, 524288);
    const w = r.warnings.filter((x) => x.code === 'config_default').map((x) => x.message);
    assert.equal(w.length, 4);
    assert.match(w[0], /^config\.json has no max_position_embeddings: using 2048, the default of transformers' LlamaConfig \(.*llama\/configuration_llama\.py\)$/);
    assert.match(w[1], /^config\.json has no tie_word_embeddings: using false/);
    assert.equal(w[2], "config.json has no num_key_value_heads: using 32, num_attention_heads, as transformers' LlamaConfig takes it (multi-head attention)");
  } finally {
    calc.close();
  }
});
