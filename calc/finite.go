package calc

import (
	"math"
	"reflect"
	"strconv"
)

// Figures beyond these are finite but mean nothing for a deployment: a step
// slower than a day, a token rate below one a day. A report that holds one
// carries the extreme_input warning. The bounds on the inputs
// (calc/fields.go, hardware/validate.go) keep every figure finite; within
// them, the floors still allow such answers (a 405B model over 1 GB/s).
const (
	extremeSeconds = 86400.0     // one day, in s
	extremeMs      = 86400.0e3   // one day, in ms
	extremeRate    = 1.0 / 86400 // one per day, per s
	extremeHuge    = 1e15        // any other figure, in its unit
)

// nonFinite returns the JSON path of the first NaN or ±Inf number in v (a
// report, walked by reflection in field order), or "" when every number is
// finite. Evaluate refuses to return a report that holds one: every input
// bound and guarded division should make that impossible, and this is the
// belt and braces behind them.
func nonFinite(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return path
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return nonFinite(v.Elem(), path)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if p := nonFinite(v.Field(i), joinPath(path, jsonName(f))); p != "" {
				return p
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p := nonFinite(v.Index(i), path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if p := nonFinite(it.Value(), joinPath(path, it.Key().String())); p != "" {
				return p
			}
		}
	}
	return ""
}

// extreme returns the JSON path of the first time (a field in _ms or _s)
// above a day, or token rate (tokens_per_s) below one a day, or "".
func extreme(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		f := math.Abs(v.Float())
		switch {
		case hasSuffix(path, "_ms") && f > extremeMs,
			hasSuffix(path, "_s") && !hasSuffix(path, "per_s") && f > extremeSeconds:
			return path
		case hasSuffix(path, "tokens_per_s") && f > 0 && f < extremeRate:
			return path
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return extreme(v.Elem(), path)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if p := extreme(v.Field(i), joinPath(path, jsonName(f))); p != "" {
				return p
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p := extreme(v.Index(i), path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	}
	return ""
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// jsonName is a struct field's JSON key (its tag's name, else its Go name).
func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	for i := 0; i < len(tag); i++ {
		if tag[i] == ',' {
			tag = tag[:i]
			break
		}
	}
	if tag == "" || tag == "-" {
		return f.Name
	}
	return tag
}

// checkFinite is Evaluate's last step: a report with a NaN or ±Inf is
// refused as a field error (never returned, never a 500), and one with a
// finite but meaningless figure gets the extreme_input warning.
func checkFinite(r *Report) error {
	rv := reflect.ValueOf(r).Elem()
	if p := nonFinite(rv, ""); p != "" {
		return Errors{{Field: "", Message: "the inputs are too extreme to evaluate: the report's " + p + " is not a finite number; bring the rates, sizes and figures closer to a real deployment"}}
	}
	if p := extreme(rv, ""); p != "" {
		r.warn("extreme_input", "the inputs are valid but extreme: the report's "+p+" is beyond any real deployment (a time above a day or a rate below one token a day); check the units of the rates and figures given")
	}
	return nil
}

// ratio is a/b, or 0 when b is not positive or the quotient is not finite:
// a rate over a step time that rounded to 0, a price over no throughput.
// The input bounds keep every denominator well away from 0; this guards
// the division anyway.
func ratio(a, b float64) float64 {
	if !(b > 0) {
		return 0
	}
	q := a / b
	if math.IsNaN(q) || math.IsInf(q, 0) {
		return 0
	}
	return q
}
