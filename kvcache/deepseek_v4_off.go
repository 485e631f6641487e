//go:build nosim

package kvcache

// v4Built: see deepseek_v4_on.go.
const v4Built = false
