// The page's model suggestions list every catalog model, and a hardware
// id a link gives selects the catalog part (issue 31): the docs' own
// iframe example, hardware=h100-sxm (docs/embedding.md), used to add a
// raw "h100-sxm" option beside the catalog's h100-sxm-80gb.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../build/npm/throughput.js';
import * as F from '../page/form.js';
import * as S from '../page/state.js';

// form.js builds options with the DOM's Option; node has none.
globalThis.Option ??= class Option {
  constructor(text = '', value = text) { this.text = text; this.value = value; this.label = text; this.dataset = {}; }
};

const catalog = JSON.parse(readFileSync(new URL('../../build/npm/catalog.json', import.meta.url), 'utf8'));

test('the model suggestions hold every catalog model, DeepSeek-V4 included', async () => {
  const list = { options: [], replaceChildren(...o) { this.options = o; } };
  F.fillModelList(list, catalog);
  const ids = list.options.map((o) => o.value);
  assert.deepEqual(ids, catalog.map((e) => e.id));
  assert.equal(new Set(ids).size, catalog.length);
  for (const id of ['deepseek-ai/DeepSeek-V4-Flash', 'deepseek-ai/DeepSeek-V4-Pro', 'nvidia/DeepSeek-V4-Flash-NVFP4', 'nvidia/DeepSeek-V4-Pro-NVFP4']) {
    assert.ok(ids.includes(id), id);
  }
  // The light engine's models() leaves those out: why the page reads the catalog.
  const calc = await load({ hub: false });
  try {
    const light = calc.models().map((m) => m.id);
    assert.deepEqual(ids.filter((id) => !light.includes(id)), ['deepseek-ai/DeepSeek-V4-Flash', 'deepseek-ai/DeepSeek-V4-Pro', 'nvidia/DeepSeek-V4-Flash-NVFP4', 'nvidia/DeepSeek-V4-Pro-NVFP4']);
    const o = list.options.find((x) => x.value === 'meta-llama/Llama-3.1-8B-Instruct');
    assert.equal(o.label, 'Llama 3.1 8B Instruct · Llama 3.1');
  } finally {
    calc.close();
  }
});

test('hardware=h100-sxm from a link selects the catalog part', async () => {
  const calc = await load({ hub: false });
  try {
    const parts = calc.hardware();
    const lookup = (x) => calc.hardwareSpec(x);
    // The docs' iframe example, read as the page reads its URL.
    const md = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
    const src = md.match(/<iframe src="https:\/\/calc\.example\.org\/\?([^"]+)"/)[1];
    const { configs } = S.fromQuery(src);
    assert.equal(configs[0].hardware, 'h100-sxm');
    const id = F.canonicalHardware(parts, configs[0].hardware, lookup);
    assert.equal(id, 'h100-sxm-80gb');
    // Selected among the catalog's options: no raw option added.
    const select = { options: parts.map((a) => new Option(a.name, a.id)), value: '', append(o) { this.options.push(o); } };
    F.selectValue(select, id);
    assert.equal(select.value, 'h100-sxm-80gb');
    assert.equal(select.options.length, parts.length);
    // Ids, names and aliases as before; "custom" and unknown names are kept.
    assert.equal(F.canonicalHardware(parts, 'H100', lookup), 'h100-sxm-80gb');
    assert.equal(F.canonicalHardware(parts, 'l40s', lookup), 'l40s');
    assert.equal(F.canonicalHardware(parts, 'custom', lookup), 'custom');
    assert.equal(F.canonicalHardware(parts, 'no-such-gpu-9000', lookup), 'no-such-gpu-9000');
  } finally {
    calc.close();
  }
});
