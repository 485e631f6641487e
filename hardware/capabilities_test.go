package hardware_test

// The citation text, for this package's tests: package hardware/citations
// fills in every source's Citation when it is linked in, and this external
// test file links it into the test binary (an internal test cannot import
// it: it imports this package).
import _ "github.com/modelrefs/throughput/hardware/citations"
