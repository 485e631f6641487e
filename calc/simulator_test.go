package calc_test

// The simulator, for this package's tests: calc simulates when package
// calc/simulate is linked in, as every door but the browser's light engine
// links it.
import _ "github.com/modelrefs/throughput/calc/simulate"
