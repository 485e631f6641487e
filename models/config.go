package models

import (
	"math"
	"strconv"
	"strings"
)

// cfg is a Hugging Face config.json object as decoded by encoding/json
// (numbers are float64, objects map[string]any, arrays []any).
type cfg map[string]any

// has reports whether key is present and not JSON null.
func (c cfg) has(key string) bool {
	v, ok := c[key]
	return ok && v != nil
}

// num returns the first of keys that holds a finite number.
func (c cfg) num(keys ...string) (float64, bool) {
	for _, k := range keys {
		switch v := c[k].(type) {
		case float64:
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				return v, true
			}
		case int:
			return float64(v), true
		case int64:
			return float64(v), true
		case string:
			if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f, true
			}
		}
	}
	return 0, false
}

// int returns the first of keys that holds a whole number, or def.
func (c cfg) int(def int, keys ...string) int {
	if f, ok := c.num(keys...); ok && f == math.Trunc(f) && math.Abs(f) < 1<<40 {
		return int(f)
	}
	return def
}

// str returns the string at key, lower-cased, or "".
func (c cfg) str(key string) string {
	s, _ := c[key].(string)
	return strings.ToLower(s)
}

// boolean returns the bool at key or def.
func (c cfg) boolean(key string, def bool) bool {
	if b, ok := c[key].(bool); ok {
		return b
	}
	return def
}

// obj returns the object at key, or nil.
func (c cfg) obj(key string) cfg {
	if m, ok := c[key].(map[string]any); ok {
		return cfg(m)
	}
	return nil
}

// strs returns the array of strings at key (non-strings skipped).
func (c cfg) strs(key string) []string {
	a, ok := c[key].([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(a))
	for _, v := range a {
		if s, ok := v.(string); ok {
			out = append(out, strings.ToLower(s))
		}
	}
	return out
}

// ints returns the array of whole numbers at key.
func (c cfg) ints(key string) []int {
	a, ok := c[key].([]any)
	if !ok {
		return nil
	}
	out := make([]int, 0, len(a))
	for _, v := range a {
		switch n := v.(type) {
		case float64:
			out = append(out, int(n))
		case bool:
			if n {
				out = append(out, 1)
			} else {
				out = append(out, 0)
			}
		}
	}
	return out
}
