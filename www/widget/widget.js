// Entry point of the embeddable widget: one script tag defines
// <throughput-calculator>. The element's class lives, side-effect free, in
// throughput-calculator.js; import that instead to register another tag.
//
//   <script type="module" src="https://example.org/throughput/widget.js"></script>
import { ThroughputCalculator } from './throughput-calculator.js';

ThroughputCalculator.define();

export { ThroughputCalculator };
