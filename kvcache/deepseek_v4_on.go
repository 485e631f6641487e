//go:build !nosim

package kvcache

// v4Built is false in the browser's light engine (-tags nosim), which
// cannot load a DeepSeek-V4 model (models.DeepSeekV4Built) and so never
// lays out Compressed layers.
const v4Built = true
