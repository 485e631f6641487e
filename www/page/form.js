// Binding between the configuration form and one configuration record:
// write a record into the controls, read a control back, paired sliders,
// conditional sections, and field errors placed next to their control.

/** Controls of the form that carry a configuration value, by name. */
export function controls(form) {
  return [...form.querySelectorAll('input[name], select[name], textarea[name]')];
}

/** Write a configuration into the form (without firing events). */
export function writeForm(form, config) {
  for (const c of controls(form)) {
    const v = config[c.name] ?? '';
    if (c.type === 'radio') c.checked = c.value === v;
    else if (c.tagName === 'SELECT') selectValue(c, v);
    else c.value = v;
  }
  for (const r of form.querySelectorAll('input[type=range][data-pair]')) syncRange(r, form);
  applyConditions(form, config);
}

/** Select v in a select, adding an option for a value it does not list. */
export function selectValue(select, v) {
  if (![...select.options].some((o) => o.value === v)) {
    const o = new Option(v || '(default)', v);
    o.dataset.added = '';
    select.append(o);
  }
  select.value = v;
}

/** Move a range slider to its paired number input's value. */
export function syncRange(range, root) {
  const input = root.querySelector(`#${range.dataset.pair}`);
  const n = Number(input?.value || input?.placeholder);
  if (!Number.isFinite(n) || n <= 0) return;
  range.value = range.dataset.scale === 'log2' ? String(Math.log2(n)) : String(n);
}

/** The number a range slider stands for (log2 sliders map to integers). */
export function rangeValue(range) {
  const v = Number(range.value);
  if (range.dataset.scale === 'log2') return String(Math.max(1, Math.round(2 ** v)));
  return String(Math.round(v * 100) / 100);
}

/**
 * Show the sections whose data-when matches the config: "key=value" when
 * the key has that value, "key!=value" when it has another.
 */
export function applyConditions(form, config) {
  for (const el of form.querySelectorAll('[data-when]')) {
    const [k, v] = el.dataset.when.split('=');
    const hide = k.endsWith('!') ? (config[k.slice(0, -1)] ?? '') === v : config[k] !== v;
    if (el.hidden !== hide) el.hidden = hide;
  }
}

/**
 * The field-error target for an engine field path: the element with
 * data-field equal to the path, or to its longest prefix
 * ("hardware.peak_flops.bf16" -> "hardware.peak_flops.bf16",
 * "model_config.hidden_size" -> "model_config"; a list's index is dropped:
 * "lora.target_modules[1]" -> "lora.target_modules"); null when none matches.
 */
export function fieldFor(root, field) {
  const parts = String(field).replace(/\[\d+\]/g, '').split('.');
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join('.');
    const el = root.querySelector(`[data-field="${CSS.escape(key)}"]`);
    if (el && !el.hidden && !el.closest('[hidden]')) return el;
  }
  return null;
}

/** Remove every field error. */
export function clearErrors(root) {
  for (const p of root.querySelectorAll('.field-error')) p.remove();
  for (const c of root.querySelectorAll('[aria-invalid]')) {
    c.removeAttribute('aria-invalid');
    const ids = (c.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && !id.startsWith('err-'));
    if (ids.length) c.setAttribute('aria-describedby', ids.join(' '));
    else c.removeAttribute('aria-describedby');
  }
  for (const f of root.querySelectorAll('.field.invalid')) f.classList.remove('invalid');
}

/**
 * Show errors ([{field, message}]) next to their controls. Returns the
 * errors that no control matched (shown by the caller in a banner).
 */
export function showErrors(root, errors) {
  const unplaced = [];
  errors.forEach((e, i) => {
    const f = fieldFor(root, e.field);
    if (!f) { unplaced.push(e); return; }
    const id = `err-${i}`;
    const p = document.createElement('p');
    p.className = 'field-error';
    p.id = id;
    p.dataset.errorField = e.field;
    p.textContent = `${e.field}: ${e.message}`;
    f.append(p);
    f.classList.add('invalid');
    for (const c of f.querySelectorAll('input:not([type=range]):not([type=radio]), select, textarea')) {
      c.setAttribute('aria-invalid', 'true');
      c.setAttribute('aria-describedby', [c.getAttribute('aria-describedby'), id].filter(Boolean).join(' '));
    }
  });
  return unplaced;
}

/** Replace a select's options by [value, text] pairs, keeping v selected. */
export function fillOptions(select, pairs, v) {
  select.replaceChildren(...pairs.map(([value, text]) => new Option(text, value)));
  selectValue(select, v);
}

/**
 * The model suggestions: one option per catalog entry (catalog.json's
 * array, or models() summaries), in catalog order, valued by its id and
 * labelled "name · family". The page takes them from the catalog itself,
 * not from the light engine's models(), which leaves out the models only
 * the full engine derives (DeepSeek-V4).
 */
export function fillModelList(datalist, entries) {
  datalist.replaceChildren(...entries.map((m) => {
    const o = new Option(m.name, m.id);
    o.label = `${m.name}${m.family ? ` · ${m.family}` : ''}`;
    return o;
  }));
}

/**
 * The catalog id to select for a hardware value a link gave ("h100-sxm",
 * the docs' own example): an id, name or alias of list (calc.hardware()),
 * else the part the engine's lookup resolves it to (lookup: calc.hardwareSpec,
 * which also reads "h100-sxm" as "h100-sxm-80gb"), else the value itself.
 */
export function canonicalHardware(list, v, lookup) {
  if (!list || v === 'custom' || !v) return v;
  const l = String(v).toLowerCase();
  const hit = list.find((a) => a.id === l || a.name.toLowerCase() === l || (a.aliases ?? []).some((x) => x.toLowerCase() === l));
  if (hit) return hit.id;
  try {
    const id = lookup?.(v)?.id;
    return list.some((a) => a.id === id) ? id : v;
  } catch {
    return v; // unknown or ambiguous: kept, and the engine names the problem
  }
}

/**
 * The valid range of a number field as text, from the engine's bounds
 * (calc.fieldBounds(path)): "greater than 0, at most 1".
 */
export function rangeText(b) {
  if (!b) return '';
  const lo = b.min === undefined ? '' : `${b.exclusive_min ? 'greater than' : 'at least'} ${b.min}`;
  const hi = b.max === undefined ? '' : `at most ${b.max}`;
  return [lo, hi].filter(Boolean).join(', ');
}

/**
 * Set a number input's (and its paired slider's) limits from the engine's
 * bounds. An exclusive minimum becomes the smallest step above it.
 */
export function applyBounds(input, b, root) {
  if (!input || !b) return;
  const step = Number(input.step) || 1;
  if (b.min !== undefined) input.min = String(b.exclusive_min ? b.min + step : b.min);
  if (b.max !== undefined) input.max = String(b.max);
  const range = root.querySelector(`input[type=range][data-pair="${input.id}"]`);
  if (range && b.max !== undefined) range.max = String(b.max);
}

/**
 * Form fields whose empty control leaves the request field to its default
 * in the engine's field table (calc.Fields, read through calc.contract()):
 * name -> [request path, the scale from the field's unit to the form's].
 */
export const FIELD_DEFAULTS = Object.freeze({
  num_prefixes: ['workload.num_prefixes'],
  spec_tokens: ['speculative_config.num_speculative_tokens'],
  spec_acceptance: ['speculative_config.acceptance_rate'],
  max_lora_rank: ['lora.max_lora_rank'],
  offload_gbs: ['kv_offload.bandwidth_bytes_per_s', 1e-9],
  data_parallel_size: ['data_parallel_size'],
  num_redundant_experts: ['num_redundant_experts'],
});

/** The engine settings an empty control leaves to the engine, which resolves them per deployment. */
export const ENGINE_SETTINGS = Object.freeze(['gpu_memory_utilization', 'max_num_seqs', 'max_num_batched_tokens']);

/** A field table entry's default in the form's unit, or "required" where the field has none. */
export function defaultText(b, scale = 1) {
  return b?.default === undefined ? 'required' : String(+(b.default * scale).toPrecision(3));
}

/**
 * The value an empty engine setting k takes: the report r's resolved one
 * (config, which follows the GPU: vLLM's batch defaults, SGLang's memory
 * fraction) when r is of the same engine and the control is empty, else
 * the engine's listed default (calc.engines()).
 */
export function engineDefault(k, engine, config, r) {
  return r?.config?.engine === engine.name && (config[k] ?? '') === '' && r.config[k] != null ? r.config[k] : engine.defaults[k];
}

/**
 * Show, as the placeholder of each empty control, what the engine puts
 * there: the field table's default (contract: calc.contract()) and, for
 * the engine settings, engineDefault of config's engine under report r.
 */
export function writeDefaults(form, contract, config, r) {
  for (const [name, [path, scale]] of Object.entries(FIELD_DEFAULTS)) {
    form.querySelector(`[name="${name}"]`)?.setAttribute('placeholder', defaultText(contract.fields[path], scale));
  }
  const e = contract.engines.find((x) => x.name === config.engine);
  if (!e) return;
  for (const k of ENGINE_SETTINGS) form.querySelector(`[name="${k}"]`)?.setAttribute('placeholder', String(engineDefault(k, e, config, r)));
}
