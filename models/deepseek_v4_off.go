//go:build nosim

package models

// DeepSeekV4Built is false in the browser's light engine (-tags nosim):
// a deepseek_v4 config is refused on model_type, naming the full engine
// (see deepseek_v4_on.go).
const DeepSeekV4Built = false
