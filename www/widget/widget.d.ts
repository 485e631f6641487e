// Type declarations for @modelrefs/throughput/widget: importing it defines
// <throughput-calculator> (docs/embedding.md). Written by hand; the class
// is declared in throughput-calculator.d.ts. ./build.sh build copies both
// into build/npm/.

import { ThroughputCalculator } from './throughput-calculator.js';

export { ThroughputCalculator };

declare global {
  interface HTMLElementTagNameMap {
    'throughput-calculator': ThroughputCalculator;
  }
}
