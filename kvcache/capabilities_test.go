package kvcache_test

// DeepSeek-V4's cache layout, for this package's tests: package
// models/deepseekv4 registers it when it is linked in, and this external
// test file links it into the test binary (an internal test cannot import
// it: it imports this package).
import _ "github.com/modelrefs/throughput/models/deepseekv4"
