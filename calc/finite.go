package calc

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/internal/jsonx"
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

// figureClass is what a number's JSON name says it measures, for the
// extreme_input check.
type figureClass uint8

const (
	classOther     figureClass = iota
	classMs                    // a time in milliseconds (_ms)
	classSeconds               // a time in seconds (_s, not per_s)
	classTokenRate             // a token rate (tokens_per_s)
)

func classOf(name string) figureClass {
	switch {
	case strings.HasSuffix(name, "_ms"):
		return classMs
	case strings.HasSuffix(name, "tokens_per_s"):
		return classTokenRate
	case strings.HasSuffix(name, "_s") && !strings.HasSuffix(name, "per_s"):
		return classSeconds
	}
	return classOther
}

// fieldPlan is one exported field of a struct as the walk needs it.
type fieldPlan struct {
	index int
	name  string
	class figureClass
}

// plans holds each report struct type's fields, built once from the Report
// type (reading tags on every Evaluate cost ten times the evaluation). It
// is read-only after init; a type it lacks (a test's) is planned on the fly.
var plans = map[reflect.Type][]fieldPlan{}

func init() { collectPlans(reflect.TypeFor[Report]()) }

// collectPlans adds t's plan and those of the struct types it reaches.
func collectPlans(t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	if _, done := plans[t]; done {
		return
	}
	plans[t] = makePlan(t)
	for _, f := range plans[t] {
		collectPlans(t.Field(f.index).Type)
	}
}

func makePlan(t reflect.Type) []fieldPlan {
	var out []fieldPlan
	for i := range t.NumField() {
		// The fields JSON carries, by their JSON names, as the encoders
		// write them (json:"-" and unexported fields never reach output).
		if name, _, ok := jsonx.FieldName(t.Field(i)); ok {
			out = append(out, fieldPlan{i, name, classOf(name)})
		}
	}
	return out
}

func planOf(t reflect.Type) []fieldPlan {
	if p, ok := plans[t]; ok {
		return p
	}
	return makePlan(t)
}

// figureScan is one walk of a report: the first number that is not
// finite, and the first that is finite but beyond any real deployment for
// its class (a time above a day, a token rate below one a day), each as a
// JSON path. The walk keeps the path as a stack of keys and indexes and
// writes it out only for the figures found, so a clean report costs no
// allocation.
type figureScan struct {
	nonFinite, extreme string
	foundNF, foundEx   bool
	keys               []string // field names and map keys; "" for an index
	index              []int
}

// path writes the current position: "sweep[3].step_time_ms".
func (s *figureScan) path() string {
	var b []byte
	for i, k := range s.keys {
		if k == "" {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index[i]), 10)
			b = append(b, ']')
			continue
		}
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, k...)
	}
	return string(b)
}

func (s *figureScan) push(key string, i int) {
	s.keys = append(s.keys, key)
	s.index = append(s.index, i)
}

func (s *figureScan) pop() {
	s.keys = s.keys[:len(s.keys)-1]
	s.index = s.index[:len(s.index)-1]
}

// scan walks v by reflection in field order. Evaluate refuses a report with
// a NaN or ±Inf: every input bound and guarded division should make that
// impossible, and this is the belt and braces behind them. It stops at the
// first non-finite figure.
func (s *figureScan) scan(v reflect.Value, class figureClass) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			s.nonFinite, s.foundNF = s.path(), true
			return
		}
		if !s.foundEx && extremeFigure(x, class) {
			s.extreme, s.foundEx = s.path(), true
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			s.scan(v.Elem(), class)
		}
	case reflect.Struct:
		for _, f := range planOf(v.Type()) {
			s.push(f.name, 0)
			s.scan(v.Field(f.index), f.class)
			s.pop()
			if s.foundNF {
				return
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			s.push("", i)
			s.scan(v.Index(i), classOther)
			s.pop()
			if s.foundNF {
				return
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			s.push(it.Key().String(), 0)
			s.scan(it.Value(), classOther)
			s.pop()
			if s.foundNF {
				return
			}
		}
	}
}

// extremeFigure reports whether finite x is beyond any real deployment for
// its class.
func extremeFigure(x float64, class figureClass) bool {
	f := math.Abs(x)
	switch class {
	case classMs:
		return f > extremeMs
	case classSeconds:
		return f > extremeSeconds
	case classTokenRate:
		return f > 0 && f < extremeRate
	}
	return false
}

// scanReport walks a report (or any value) once.
func scanReport(v reflect.Value) figureScan {
	var stack [16]string
	var index [16]int
	s := figureScan{keys: stack[:0], index: index[:0]}
	s.scan(v, classOther)
	s.keys, s.index = nil, nil
	return s
}

// checkFinite is Evaluate's last step: a report with a NaN or ±Inf is
// refused as a field error (never returned, never a 500), and one with a
// finite but meaningless figure gets the extreme_input warning.
func checkFinite(r *Report) error {
	sc := scanReport(reflect.ValueOf(r).Elem())
	if sc.foundNF {
		return Errors{{Field: "", Message: "the inputs are too extreme to evaluate: the report's " + sc.nonFinite + " is not a finite number; bring the rates, sizes and figures closer to a real deployment"}}
	}
	if sc.foundEx {
		p := sc.extreme
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
