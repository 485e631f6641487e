// The steady state (report.serving, docs/MODEL.md section 5b) through the
// JavaScript module, against relations worked out by hand from the
// report's own inputs: the benchmark clients' definitions (vLLM
// benchmarks/backend_request_func.py: TPOT = (E2E - TTFT) / (out - 1)),
// Little's law (a closed loop of c users completes c / (E2E - front end) requests a
// second; an open loop at rate λ holds λ · E2E in flight), the token
// rates as requests times lengths. (golden.test.mjs holds the module's
// serving sections of the golden requests to the Go engine's.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../build/npm/throughput.js';

let calc;
before(async () => { calc = await load(); });
after(() => calc.close());

const close = (got, want, rel, msg) => assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${msg}: ${got} against ${want}`);
const base = { model: 'llama-3.1-8b', hardware: 'h100-sxm', gpu_hour_usd: 2.5 };

test('a closed loop of 64 users: Little\'s law, the benchmark TPOT, the token rates', () => {
  const r = calc.evaluate({ ...base, workload: { input_tokens: 1024, output_tokens: 256, concurrency: 64 } });
  const s = r.serving;
  assert.ok(s, 'a workload with a concurrency has a serving section');
  // The front end (the API server's request handling and the tokenisation
  // of the prompt, docs/MODEL.md section 4) is in E2E as a client sees it;
  // a user's loop cycles through the server's part, E2E less the front end.
  const e = r.config.efficiencies;
  const fe = e.context_overhead_ms + e.request_overhead_ms + e.tokenize_us_per_token * 1024 / 1000;
  assert.ok(fe > 0, "vLLM's front end");
  assert.equal(s.concurrency, 64);
  assert.equal(s.request_rate, undefined, 'a closed loop has no request rate');
  assert.equal(s.input_tokens, 1024);
  assert.equal(s.output_tokens, 256);
  assert.equal(s.decode_batch, 64, 'below max_num_seqs and the preemption onset all 64 decode');
  assert.equal(s.saturated, undefined);
  close(s.requests_per_s, 64 / ((s.e2e_ms - fe) / 1000), 1e-9, 'requests/s = c / (E2E - front end)');
  close(s.output_tokens_per_s, s.requests_per_s * 256, 1e-12, 'output tok/s');
  close(s.total_tokens_per_s, s.requests_per_s * (1024 + 256), 1e-12, 'total tok/s');
  close(s.tpot_ms, (s.e2e_ms - s.ttft_ms) / 255, 1e-9, 'TPOT = (E2E - TTFT) / (out - 1)');
  // The pure decode step is decode's at the same batch, and the steady state's TPOT is longer.
  assert.equal(r.decode.batch_size, 64);
  close(s.decode_step_ms, r.decode.step_time_ms, 1e-12, 'decode step');
  assert.ok(s.tpot_ms > s.decode_step_ms);
  // The cost card prices the steady state's output rate (docs/MODEL.md section 5).
  close(r.cost.tokens_per_s, s.output_tokens_per_s, 1e-12, 'cost tok/s');
  close(r.cost.usd_per_million_output_tokens, (2.5 / 3600 / s.output_tokens_per_s) * 1e6, 1e-9, '$ per million');
  const banded = r.bands.filter((b) => b.figure.startsWith('serving.')).map((b) => b.figure).sort();
  assert.deepEqual(banded, ['serving.e2e_ms', 'serving.output_tokens_per_s', 'serving.tpot_ms', 'serving.ttft_ms']);
});

test('an open loop at 5 req/s: it completes what arrives, and holds λ · E2E in flight', () => {
  const r = calc.evaluate({ ...base, workload: { input_tokens: 1024, output_tokens: 256, request_rate: 5 } });
  const s = r.serving;
  assert.ok(s);
  assert.equal(s.request_rate, 5);
  assert.equal(s.saturated, undefined);
  assert.equal(s.requests_per_s, 5);
  assert.equal(s.output_tokens_per_s, 5 * 256);
  close(s.concurrency, 5 * (s.e2e_ms / 1000), 1e-9, 'Little\'s law');
  close(s.tpot_ms, (s.e2e_ms - s.ttft_ms) / 255, 1e-9, 'TPOT');
});

test('without a concurrency or a request rate there is no serving section', () => {
  assert.equal('serving' in calc.evaluate(base), false);
  assert.equal('serving' in calc.evaluate({ ...base, workload: { input_tokens: 1024, output_tokens: 256 } }), false);
});
