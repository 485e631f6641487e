// Type declarations for @modelrefs/throughput/throughput-calculator: the
// <throughput-calculator> element's class, registering nothing
// (docs/embedding.md); widget.d.ts declares the entry that registers it.
// Written by hand; the JSON types come from the module's declarations
// (contract.d.ts, generated from the Go types). ./build.sh build copies
// both into build/npm/.

import type { Report, Request, ModelID, HardwareID, EngineName } from './throughput.js';

/** The attributes' defaults. */
export declare const WIDGET_DEFAULTS: Readonly<{ model: 'llama-3.1-8b'; hardware: 'h100-sxm'; mode: 'full' }>;

/**
 * <throughput-calculator>: the calculator for one model on one
 * accelerator, computed in the browser by the WebAssembly engine that it
 * fetches from beside its own script. Attributes (model, hardware, mode,
 * tensor-parallel-size, input-tokens, ...) are listed in docs/embedding.md;
 * each change recomputes and fires a "throughput-report" event.
 */
export declare class ThroughputCalculator extends HTMLElement {
  static readonly observedAttributes: string[];
  /** Registers the element under tag (once) and returns the class. */
  static define(tag?: string, registry?: CustomElementRegistry): typeof ThroughputCalculator;
  /** The last report shown, or null before the first. */
  readonly report: Report | null;
  /** The model attribute: a catalog id or alias (default llama-3.1-8b). */
  model: ModelID;
  /** The hardware attribute: a catalog id, name or alias (default h100-sxm). */
  hardware: HardwareID;
  /** "full" (with a form) or "compact" (two figures and a chart). */
  mode: 'full' | 'compact';
  readonly kvCacheDtype: NonNullable<Request['kv_cache_dtype']>;
  readonly engine: EngineName;
  /** The engine-version attribute, trimmed ("" leaves the engine's newest modelled release). */
  readonly engineVersion: string;
  readonly quantization: string;
  readonly gpuMemoryUtilization: number | undefined;
  /** The request-rate attribute (requests per second), or undefined when absent, invalid or when concurrency is set. */
  readonly requestRate: number | undefined;
  /** Where "Open in the calculator" points (default: the folder of the script). */
  readonly calculatorURL: string;
  /** The serving features' attributes that are set and valid, as [attribute, value] pairs (docs/embedding.md). */
  featureAttrs(): Array<[string, number | string | boolean]>;
  /**
   * workload.sessions from the session attributes (turns, new-tokens, think-time-s, think-distribution, users,
   * session-rate, replicas, routing), each under its field's name, a number when it reads as one, else the text
   * (for the engine to refuse, naming the field); undefined when none is set.
   */
  sessionAttrs(): Record<string, number | string> | undefined;
  /** The engine request the attributes stand for. */
  request(): Request;
  addEventListener<K extends keyof ThroughputCalculatorEventMap>(type: K, listener: (this: ThroughputCalculator, ev: ThroughputCalculatorEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

export interface ThroughputCalculatorEventMap extends HTMLElementEventMap {
  /** Fired after each computation, with the report. */
  'throughput-report': CustomEvent<Report>;
}

export default ThroughputCalculator;

/** value as an http(s) URL resolved against base, else fallback. */
export declare function httpURL(value: string | null, base: string, fallback: string): string;
