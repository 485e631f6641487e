package evaluate_test

// The capabilities, for this package's tests: packages calc/simulate and
// calc/calibrate set deploy's hooks when they are linked in, and this
// external test file links them into the test binary (an internal test
// cannot import them: they import this package).
import (
	_ "github.com/modelrefs/throughput/calc/calibrate"
	_ "github.com/modelrefs/throughput/calc/simulate"

	// The embedded model catalog (the tests name catalog models).
	_ "github.com/modelrefs/throughput/models/catalog"
	_ "github.com/modelrefs/throughput/models/deepseekv4"
)
