package models_test

// The embedded catalog and DeepSeek-V4, for this package's tests:
// packages models/catalog and models/deepseekv4 install them when they
// are linked in, and this external test file links them into the test
// binary (an internal test cannot import them: they import this package).
import (
	_ "github.com/modelrefs/throughput/models/catalog"
	_ "github.com/modelrefs/throughput/models/deepseekv4"
)
