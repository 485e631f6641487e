// <throughput-planner>: the widget's planning mode. Attributes give the
// question (model, request-rate or concurrency, input-tokens,
// output-tokens, ttft-ms, tpot-ms, max-gpus, accelerators: ids separated
// by commas); the element shows calc.Plan's answer sentence and its
// cheapest deployments with their launch commands, and links each to the
// calculator (calculator-url, default the widget's own site). It loads the
// planner build of the engine (load({planner: true})) once per page.
import { fullEngine as engine } from './full-engine.js';

const HTMLElementBase = globalThis.HTMLElement ?? class {};

const NUMBERS = {
  'request-rate': ['workload', 'request_rate'], concurrency: ['workload', 'concurrency'],
  'input-tokens': ['workload', 'input_tokens'], 'output-tokens': ['workload', 'output_tokens'],
  'ttft-ms': ['slo', 'ttft_ms'], 'tpot-ms': ['slo', 'tpot_ms'], 'max-gpus': ['constraints', 'max_gpus'],
};

const CSS = `:host { display: block; max-width: 720px; font: 14px/1.45 system-ui, sans-serif; border: 1px solid #d9dde4;
  border-radius: 12px; padding: 12px 14px; } table { border-collapse: collapse; width: 100%; font-size: 13px; }
  td, th { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eef0f3; } code { font-size: 12px; word-break: break-all; }
  .err { color: #b91c1c; }`;

export class ThroughputPlanner extends HTMLElementBase {
  static observedAttributes = ['model', 'accelerators', ...Object.keys(NUMBERS)];

  /**
   * Registers the element (once) under name (default throughput-planner);
   * does nothing without a DOM (the package's modules load in Node too).
   */
  static define(name = 'throughput-planner', registry = globalThis.customElements) {
    if (registry && !registry.get(name)) registry.define(name, this);
    return this;
  }

  #root;

  connectedCallback() {
    this.#root ??= this.attachShadow({ mode: 'open' });
    this.#render();
  }

  attributeChangedCallback() {
    if (this.#root) this.#render();
  }

  /** The plan request the attributes stand for. */
  request() {
    const req = { model: this.getAttribute('model') || 'llama-3.1-8b', workload: {}, slo: {} };
    for (const [attr, [obj, key]] of Object.entries(NUMBERS)) {
      const v = this.getAttribute(attr);
      if (v === null || v === '') continue;
      req[obj] ??= {};
      req[obj][key] = Number(v);
    }
    if (req.workload.request_rate === undefined && req.workload.concurrency === undefined) req.workload.request_rate = 10;
    if (req.slo.ttft_ms === undefined && req.slo.tpot_ms === undefined) req.slo.tpot_ms = 50;
    const acc = this.getAttribute('accelerators');
    if (acc) (req.constraints ??= {}).accelerators = acc.split(',').map((s) => s.trim()).filter(Boolean);
    req.limit = 3;
    return req;
  }

  async #render() {
    const root = this.#root;
    root.innerHTML = `<style>${CSS}</style><p part="answer">Planning…</p>`;
    try {
      const report = (await engine()).plan(this.request());
      const p = root.querySelector('p');
      p.textContent = report.answer;
      if (!report.deployments.length) return;
      const table = document.createElement('table');
      table.innerHTML = '<thead><tr><th>Deployment</th><th>GPUs</th><th>$/M out</th><th>TTFT</th><th>TPOT</th></tr></thead><tbody></tbody>';
      for (const d of report.deployments) {
        const tr = document.createElement('tr');
        for (const t of [`${d.accelerator_name}, TP ${d.tensor_parallel_size}, ${d.quantization}, ${d.engine}${d.mode === 'disaggregated' ? ' (P/D)' : ''}`,
          String(d.num_gpus), `$${d.usd_per_million_output_tokens.toFixed(3)}`, `${d.ttft_ms.toFixed(1)} ms`, `${d.tpot_ms.toFixed(1)} ms`]) {
          const td = document.createElement('td');
          td.textContent = t;
          tr.append(td);
        }
        table.tBodies[0].append(tr);
      }
      const code = document.createElement('code');
      code.textContent = report.deployments[report.cheapest].launch;
      root.append(table, code);
    } catch (e) {
      const p = root.querySelector('p');
      p.className = 'err';
      p.textContent = (e.errors ?? [{ field: '', message: String(e.message ?? e) }]).map((x) => (x.field ? `${x.field}: ${x.message}` : x.message)).join('; ');
    }
  }
}
