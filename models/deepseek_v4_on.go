//go:build !nosim

package models

// DeepSeekV4Built is true in every build but the browser's light engine
// (-tags nosim), which leaves DeepSeek-V4 (model_type deepseek_v4, its
// parameter model and its packed cache layout) to the full engine to keep
// within its size budget. Call sites test the constant before
// IsDeepSeekV4 so that the linker drops the DeepSeek-V4 code there.
const DeepSeekV4Built = true
