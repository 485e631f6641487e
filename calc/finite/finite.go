// Package finite checks that every figure a report carries is a finite
// number, and flags the finite ones that mean nothing for a deployment (a
// step slower than a day, a rate below one token a day). A report with a
// NaN or an infinity is refused as a field error, never returned: no NaN
// or Inf ever reaches a door.
//
// It walks the report types of calc/spec by reflection, once per type, and
// imports only calc/spec and internal/jsonx.
package finite

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// Figures beyond these are finite but mean nothing for a deployment: a step
// slower than a day, a token rate below one a day. A report that holds one
// carries the extreme_input warning. The bounds on the inputs
// (calc/spec/fields.go, hardware/validate.go) keep every figure finite; within
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

// walker is how the scan visits one type: only the parts from which a
// number can be reached (an int, string or bool field is never read).
type walker struct {
	kind   reflect.Kind
	fields []fieldPlan // struct: the JSON fields that can hold a number
	elem   *walker     // pointer, slice, array, map: the element's
	// flat: a struct whose numbers are all its own float fields (a sweep
	// point, a band): the plain walk reads them at their offsets, without
	// reflecting per field, which is most of a clean report's walk.
	flat bool
	size uintptr // the struct's size, for a slice of flat structs
}

// fieldPlan is one exported field of a struct as the walk needs it.
type fieldPlan struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	index  int
	name   string
	class  figureClass
	w      *walker
	offset uintptr // the field's offset in its struct
}

// walkers holds the walker of each report type, built once from the
// Report type (reading tags on every Evaluate cost ten times the
// evaluation). It is read-only after init; a type it lacks (a test's, an
// interface's dynamic type) is built on the fly. The plan report's is
// built on the first plan (planReportWalker), so that the light engine,
// which has no planner, carries none of its types.
var walkers = map[reflect.Type]*walker{}

func init() { buildWalker(reflect.TypeFor[spec.Report](), walkers) }

// walkerOf is t's walker, nil when no number can be reached from t.
func walkerOf(t reflect.Type) *walker {
	if w, ok := walkers[t]; ok {
		return w
	}
	return buildWalker(t, map[reflect.Type]*walker{})
}

// buildWalker builds t's walker into built (which breaks cycles: a type
// being built is taken to hold numbers).
func buildWalker(t reflect.Type, built map[reflect.Type]*walker) *walker {
	if w, ok := walkers[t]; ok {
		return w
	}
	if w, ok := built[t]; ok {
		return w
	}
	w := &walker{kind: t.Kind()}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Interface:
		return w
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		built[t] = w
		if w.elem = buildWalker(t.Elem(), built); w.elem == nil {
			built[t] = nil
			return nil
		}
		return w
	case reflect.Struct:
		built[t] = w
		for i := range t.NumField() {
			// The fields JSON carries, by their JSON names, as the encoders
			// write them (json:"-" and unexported fields never reach output).
			name, _, ok := jsonx.FieldName(t.Field(i))
			if !ok {
				continue
			}
			if fw := buildWalker(t.Field(i).Type, built); fw != nil {
				w.fields = append(w.fields, fieldPlan{index: i, name: name, class: classOf(name), w: fw, offset: t.Field(i).Offset})
			}
		}
		if len(w.fields) == 0 {
			built[t] = nil
			return nil
		}
		w.flat, w.size = true, t.Size()
		for _, f := range w.fields {
			if f.w.kind != reflect.Float64 && f.w.kind != reflect.Float32 {
				w.flat = false
			}
		}
		return w
	}
	return nil
}

// figureScan is one walk of a report: the first number that is not
// finite, and the first that is finite but beyond any real deployment for
// its class (a time above a day, a token rate below one a day), each as a
// JSON path. A first walk only looks; when it finds either, a second one
// (track) keeps the path as a stack of keys and indexes and writes it out
// for the figures found, so a clean report costs one plain walk and no
// allocation.
type figureScan struct {
	nonFinite, extreme string
	foundNF, foundEx   bool
	track              bool
	keys               []string // field names and map keys; "" for an index
	index              []int
}

// path writes the current position: "sweep[3].step_time_ms".
func (s *figureScan) path() string {
	if !s.track {
		return ""
	}
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
	if s.track {
		s.keys = append(s.keys, key)
		s.index = append(s.index, i)
	}
}

func (s *figureScan) pop() {
	if s.track {
		s.keys = s.keys[:len(s.keys)-1]
		s.index = s.index[:len(s.index)-1]
	}
}

// scan walks v by reflection in field order, as w says. Evaluate refuses
// a report with a NaN or ±Inf: every input bound and guarded division
// should make that impossible, and this is the belt and braces behind
// them. It stops at the first non-finite figure.
func (s *figureScan) scan(v reflect.Value, w *walker, class figureClass) {
	if w == nil {
		return
	}
	switch w.kind {
	case reflect.Float32, reflect.Float64:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			s.nonFinite, s.foundNF = s.path(), true
			return
		}
		if !s.foundEx && extremeFigure(x, class) {
			s.extreme, s.foundEx = s.path(), true
		}
	case reflect.Pointer:
		if !v.IsNil() {
			s.scan(v.Elem(), w.elem, class)
		}
	case reflect.Interface:
		if !v.IsNil() {
			e := v.Elem()
			s.scan(e, walkerOf(e.Type()), class)
		}
	case reflect.Struct:
		if w.flat && !s.track && v.CanAddr() {
			s.flatScan(unsafe.Pointer(v.UnsafeAddr()), w)
			return
		}
		for i := range w.fields {
			f := &w.fields[i]
			s.push(f.name, 0)
			s.scan(v.Field(f.index), f.w, f.class)
			s.pop()
			if s.foundNF {
				return
			}
		}
	case reflect.Slice, reflect.Array:
		if e := w.elem; w.kind == reflect.Slice && e.kind == reflect.Struct && e.flat && !s.track {
			if v.Len() == 0 {
				return
			}
			// The first element's address, not v.UnsafePointer(), which
			// links reflect's method-value machinery (internal/jsonx's
			// set.go says what that costs).
			base := unsafe.Pointer(v.Index(0).UnsafeAddr())
			for i := range v.Len() {
				if s.flatScan(unsafe.Add(base, uintptr(i)*e.size), e); s.foundNF {
					return
				}
			}
			return
		}
		for i := range v.Len() {
			s.push("", i)
			s.scan(v.Index(i), w.elem, classOther)
			s.pop()
			if s.foundNF {
				return
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			s.push(it.Key().String(), 0)
			s.scan(it.Value(), w.elem, classOther)
			s.pop()
			if s.foundNF {
				return
			}
		}
	}
}

// flatScan is the plain walk (no path kept) of a flat struct at p: each
// float field read at its offset, as the reflective walk would read it.
func (s *figureScan) flatScan(p unsafe.Pointer, w *walker) {
	for i := range w.fields {
		f := &w.fields[i]
		var x float64
		if f.w.kind == reflect.Float32 {
			x = float64(*(*float32)(unsafe.Add(p, f.offset)))
		} else {
			x = *(*float64)(unsafe.Add(p, f.offset))
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			s.foundNF = true
			return
		}
		if !s.foundEx && extremeFigure(x, f.class) {
			s.foundEx = true
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

// scanReport walks a report (or any value): once, and again keeping
// the path when the first walk finds a figure to name.
func scanReport(v reflect.Value) figureScan { return scanWith(v, walkerOf(v.Type())) }

// scanWith is scanReport with v's walker.
func scanWith(v reflect.Value, w *walker) figureScan {
	var s figureScan
	s.scan(v, w, classOther)
	if !s.foundNF && !s.foundEx {
		return s
	}
	var stack [16]string
	var index [16]int
	s = figureScan{track: true, keys: stack[:0], index: index[:0]}
	s.scan(v, w, classOther)
	s.keys, s.index = nil, nil
	return s
}

// Check is Evaluate's last step: a report with a NaN or ±Inf is
// refused as a field error (never returned, never a 500), and one with a
// finite but meaningless figure gets the extreme_input warning.
func Check(r *spec.Report) error {
	sc := scanReport(reflect.ValueOf(r).Elem())
	if sc.foundNF {
		return fielderr.New("", "the inputs are too extreme to evaluate: the report's "+sc.nonFinite+" is not a finite number; bring the rates, sizes and figures closer to a real deployment")
	}
	if sc.foundEx {
		p := sc.extreme
		r.Warn("extreme_input", "the inputs are valid but extreme: the report's "+p+" is beyond any real deployment (a time above a day or a rate below one token a day); check the units of the rates and figures given")
	}
	return nil
}

// PlanNonFinite returns the JSON path of the first figure of r that is not
// a finite number ("" when every one is).
func PlanNonFinite(r *spec.PlanReport) string {
	if sc := scanWith(reflect.ValueOf(r).Elem(), planReportWalker()); sc.foundNF {
		return sc.nonFinite
	}
	return ""
}

// planWalker is the plan report's figure walker, built on the first plan.
var (
	planWalkerOnce sync.Once
	planWalker     *walker
)

func planReportWalker() *walker {
	planWalkerOnce.Do(func() { planWalker = walkerOf(reflect.TypeFor[spec.PlanReport]()) })
	return planWalker
}

// NonFinite returns the JSON path of the first figure of r that is not a
// finite number ("" when every one is).
func NonFinite(r *spec.Report) string {
	if sc := scanReport(reflect.ValueOf(r).Elem()); sc.foundNF {
		return sc.nonFinite
	}
	return ""
}
