package validation_test

// The embedded model catalog, for this package's tests: the cases name
// catalog models (package models/catalog installs the catalog when it is
// linked in; tools/calibrate imports it too).
import _ "github.com/modelrefs/throughput/models/catalog"
