// Entry point of the embeddable widget: one script tag defines
// <throughput-calculator> and <throughput-planner>. The calculator's class lives, side-effect free, in
// throughput-calculator.js; import that instead to register another tag.
//
//   <script type="module" src="https://example.org/throughput/widget.js"></script>
import { ThroughputCalculator } from './throughput-calculator.js';
import { ThroughputPlanner } from './throughput-planner.js';

ThroughputCalculator.define();
ThroughputPlanner.define(); // the planning mode: <throughput-planner>

export { ThroughputCalculator, ThroughputPlanner };
