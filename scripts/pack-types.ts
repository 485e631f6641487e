// Type-checked by ./build.sh test (test_pack, tsc --strict) inside the
// temporary project where the packed tarball was installed: the package's
// declarations resolve through its exports, catalog names are literal
// unions that still take any string, and the element is typed.
import { load, ThroughputError, type ModelID, type HardwareID, type Request, type Report } from '@modelrefs/throughput';
import { ThroughputCalculator } from '@modelrefs/throughput/widget';
import Element, { WIDGET_DEFAULTS } from '@modelrefs/throughput/throughput-calculator';

/** The string-literal members of a union: what an editor completes. */
type Literals<T> = T extends string ? (string extends T ? never : T) : never;

const known: Literals<ModelID> = 'llama-3.1-8b';
const hf: Literals<ModelID> = 'meta-llama/Llama-3.1-8B-Instruct';
const chip: Literals<HardwareID> = 'h100-sxm-80gb';
// @ts-expect-error not a catalog model: no literal for it
const unknownLiteral: Literals<ModelID> = 'no-such-model';
// Any other string still type-checks as a model or hardware name.
const custom: ModelID = 'my-org/My-Model-7B';
const near: HardwareID = 'h100-sxm';
// @ts-expect-error a number is not a model name
const wrong: ModelID = 3;

const req: Request = { model: known, hardware: chip, workload: { input_tokens: 1024 } };
const custom2: Request = { model: custom, hardware: near };
export async function run(): Promise<number | undefined> {
  const calc = await load();
  try {
    const r: Report = calc.evaluate(req);
    return r.decode?.tokens_per_s;
  } catch (e) {
    if (e instanceof ThroughputError) return e.errors.length;
    throw e;
  }
}

export function element(): ModelID {
  const el = document.createElement('throughput-calculator');
  const same: ThroughputCalculator = el;
  same.hardware = near;
  el.addEventListener('throughput-report', (e) => e.detail.kv_cache?.capacity_tokens);
  const cls: typeof ThroughputCalculator = Element.define('my-calculator');
  return cls === Element ? el.model : WIDGET_DEFAULTS.model;
}

export const used = [hf, unknownLiteral, wrong, custom2];
