package models_test

// The embedded catalog, for this package's tests: package models/catalog
// installs it when it is linked in, and this external test file links it
// into the test binary (an internal test cannot import it: it imports
// this package).
import _ "github.com/modelrefs/throughput/models/catalog"
