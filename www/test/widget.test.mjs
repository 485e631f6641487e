// <throughput-calculator>'s attributes -> the engine request it sends
// (www/widget/throughput-calculator.js request()), without a DOM: the class
// loads in node (its base is a plain class there) and reads attributes
// through getAttribute, given here from a plain object. The session
// attributes (docs/embedding.md) are workload.sessions' fields with dashes;
// an invalid value goes to the engine as it is, so the engine's error names
// the field. The engines are the built package's (build/npm).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ThroughputCalculator } from '../widget/throughput-calculator.js';
import { load } from '../../build/npm/throughput.js';

let light;
let full;
before(async () => { [light, full] = await Promise.all([load(), load({ planner: true })]); });
after(() => { light.close(); full.close(); });

/** An element with these attributes (name -> value). */
function element(attrs) {
  const el = new ThroughputCalculator();
  el.getAttribute = (name) => (Object.hasOwn(attrs, name) ? attrs[name] : null);
  return el;
}

/** The engine's field errors for a request: [[field, message], ...]. */
function errors(calc, req) {
  try {
    calc.evaluate(req);
  } catch (e) {
    return e.errors.map((x) => [x.field, x.message]);
  }
  return [];
}

test('no session attribute: no workload.sessions', () => {
  const req = element({ 'input-tokens': '2000', concurrency: '8' }).request();
  assert.deepEqual(req.workload, { input_tokens: 2000, concurrency: 8 });
  assert.equal(element({}).sessionAttrs(), undefined);
  // Empty or blank values count as absent, as the other attributes'.
  assert.equal(element({ turns: '', users: '  ' }).sessionAttrs(), undefined);
});

test('the session attributes are workload.sessions\' fields, numbers as numbers', () => {
  const el = element({ 'input-tokens': '2000', 'output-tokens': '300', turns: '6', 'new-tokens': '400', 'think-time-s': ' 20 ', users: '64' });
  assert.deepEqual(el.request().workload, { input_tokens: 2000, output_tokens: 300, sessions: { turns: 6, new_tokens: 400, think_time_s: 20, users: 64 } });
  const open = element({ 'session-rate': '0.5', replicas: '2', routing: 'random', 'think-distribution': 'constant', 'think-time-s': '2.5' });
  assert.deepEqual(open.request().workload, { sessions: { think_time_s: 2.5, think_distribution: 'constant', session_rate: 0.5, replicas: 2, routing: 'random' } });
});

test('the light engine refuses workload.sessions; the full engine, which the element loads for it, answers', () => {
  const req = element({ turns: '6', users: '64' }).request();
  assert.deepEqual(errors(light, req), [['workload.sessions', 'is read by the full engine (load({ planner: true })), not the light one']]);
  const r = full.evaluate(req);
  assert.ok(r.sessions.prefix_hit_rate > 0 && r.sessions.prefix_hit_rate < 1, String(r.sessions.prefix_hit_rate));
  // users = 64 in a closed loop (Little's law, docs/MODEL.md section 10): a session lasts its 6 turns and
  // 5 think times of 10 s (the default), so 64 users start 64 / duration sessions a second, 6 turns each.
  const d = 6 * r.sessions.turn_latency_ms / 1000 + 5 * 10;
  assert.ok(Math.abs(r.sessions.session_duration_s - d) < 1e-6 * d, `${r.sessions.session_duration_s} against ${d}`);
  assert.ok(Math.abs(r.sessions.session_rate - 64 / d) < 1e-6 * (64 / d));
  assert.ok(Math.abs(r.sessions.turn_rate - 6 * r.sessions.session_rate) < 1e-9 * r.sessions.turn_rate);
});

test('invalid session attributes reach the engine as they are: its errors name the fields', () => {
  const cases = [
    [{ turns: '0' }, [['workload.sessions.turns', 'must be at least 1, got 0']]],
    [{ turns: '2.5' }, [['workload.sessions.turns', 'must be an integer, got 2.5']]],
    [{ turns: 'six' }, [['workload.sessions.turns', 'must be an integer, got a string']]],
    [{ 'think-time-s': '-1' }, [['workload.sessions.think_time_s', 'must be at least 0, got -1']]],
    [{ 'think-time-s': 'soon' }, [['workload.sessions.think_time_s', 'must be a number, got a string']]],
    [{ users: '4', 'session-rate': '1' }, [['workload.sessions.users', 'give either session_rate or users, not both']]],
    [{ routing: 'nearest' }, [['workload.sessions.routing', 'unknown routing "nearest"; one of session_affine, random']]],
    // A session workload's load is its own: the workload's concurrency beside it is refused.
    [{ users: '4', concurrency: '8' }, [['workload.sessions', "a session workload's load is sessions.session_rate or sessions.users, not workload.request_rate or concurrency"]]],
  ];
  for (const [attrs, want] of cases) assert.deepEqual(errors(full, element(attrs).request()), want, JSON.stringify(attrs));
});
