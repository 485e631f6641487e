package deploy_test

// The simulator, for this package's tests: package calc/simulate sets
// deploy.Simulator when it is linked in, and this external test file links
// it into the test binary (an internal test cannot import it: calc/simulate
// imports this package).
import _ "github.com/modelrefs/throughput/calc/simulate"
