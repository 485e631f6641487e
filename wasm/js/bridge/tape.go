package bridge

import (
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/modelrefs/throughput/internal/jsonx"
)

// report_tape.go (tapeKeys, tapeTypes, tapeFullTypes and tapeReport) is
// generated from calc.Report's types; tape.value follows the type tables.
//go:generate go run ../../../tools/gen/tape -o report_tape.go

// A tape is a report encoded for throughput.js without text: a list of
// float64 words and one UTF-8 string blob, which JavaScript reads in place
// from the WebAssembly memory and turns into the same object JSON.parse
// would make of json.Marshal's output. It saves formatting and parsing
// every number, the bridge's largest cost under WebAssembly.
//
// Words, each a float64 (throughput.js decodeTape reads them):
//
//	tapeNull | tapeFalse | tapeTrue
//	tapeNumber  value
//	tapeString  n        (the next n UTF-16 code units of the blob)
//	tapeArray   n        then n values
//	tapeObject  n        then n pairs: key index (into tapeKeys), value
//
// Key names are not on the tape: the generated tapeKeys (report_tape.go)
// lists them, and JavaScript fetches that list once at load.
type tape struct {
	words []float64
	blob  []byte
	err   error
}

const (
	tapeNull = iota
	tapeFalse
	tapeTrue
	tapeNumber
	tapeString
	tapeArray
	tapeObject
)

func (t *tape) reset() {
	t.words, t.blob, t.err = t.words[:0], t.blob[:0], nil
}

//go:noinline
func (t *tape) null() { t.words = append(t.words, tapeNull) }

//go:noinline
func (t *tape) bool(v bool) {
	if v {
		t.words = append(t.words, tapeTrue)
	} else {
		t.words = append(t.words, tapeFalse)
	}
}

// number records v; NaN and infinities are errors, as in json.Marshal.
//
//go:noinline
func (t *tape) number(v float64) {
	if (math.IsNaN(v) || math.IsInf(v, 0)) && t.err == nil {
		t.err = &unsupportedFloatError{v}
	}
	t.words = append(t.words, tapeNumber, v)
}

// string records s. Invalid UTF-8 bytes become U+FFFD one for one, as
// json.Marshal writes them, so the UTF-16 length is exact.
//
//go:noinline
func (t *tape) string(s string) {
	n := 0
	if utf8.ValidString(s) {
		t.blob = append(t.blob, s...)
		for _, r := range s {
			n += utf16Len(r)
		}
	} else {
		for _, r := range s { // ranging yields U+FFFD for each bad byte
			t.blob = utf8.AppendRune(t.blob, r)
			n += utf16Len(r)
		}
	}
	t.words = append(t.words, tapeString, float64(n))
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// array starts an array of n values.
//
//go:noinline
func (t *tape) array(n int) { t.words = append(t.words, tapeArray, float64(n)) }

// object starts an object and returns where its key count goes; end
// writes the count.
//
//go:noinline
func (t *tape) object() int {
	t.words = append(t.words, tapeObject, 0)
	return len(t.words) - 1
}

//go:noinline
func (t *tape) end(at, keys int) { t.words[at] = float64(keys) }

//go:noinline
func (t *tape) key(index int) { t.words = append(t.words, float64(index)) }

// tapeKind is how tape.value records a value (tapeType.kind).
type tapeKind uint8

const (
	tapeKindString tapeKind = iota
	tapeKindBool
	tapeKindInt
	tapeKindInt8
	tapeKindInt16
	tapeKindInt32
	tapeKindInt64
	tapeKindUint8
	tapeKindUint16
	tapeKindUint32
	tapeKindFloat64
	tapeKindPointer // null, or the value of type elem it points to
	tapeKindSlice   // null, or an array of values of type elem
	tapeKindStruct  // an object of fields
)

// tapeType describes one Go type of the report (report_tape.go's
// tapeTypes lists them, generated from calc.Report's types).
type tapeType struct {
	kind tapeKind
	// elem is the index in tapeTypes of the pointed-to or element type
	// (tapeKindPointer, tapeKindSlice); size is the element's size in
	// bytes (tapeKindSlice).
	elem   uint16
	size   uintptr
	fields []tapeField // tapeKindStruct, in the order encoding/json writes them
}

// tapeField is one JSON field of a struct: where it lies in the struct
// (bytes from its start), its type (index in tapeTypes), its key (index
// in tapeKeys) and when it is left out.
type tapeField struct {
	off  uintptr
	typ  uint16
	key  uint16
	omit tapeOmit
}

// tapeOmit says when a field is left out of its object.
type tapeOmit uint8

const (
	tapeOmitNever tapeOmit = iota
	// tapeOmitEmpty: when empty, as encoding/json's omitempty says
	// (tapeEmpty).
	tapeOmitEmpty
	// tapeOmitFull: when empty, and always unless the full engine's main
	// asked for its section (WriteFullSections: a field only the full
	// engine fills, whose types tapeFullTypes describes).
	tapeOmitFull
)

// tapeTypeAt is the entry of index i: in tapeTypes, or from tapeFullBase
// on in tapeFullTypes (the full engine's, WriteFullSections).
func tapeTypeAt(i uint16) *tapeType {
	if int(i) < len(tapeTypes) {
		return &tapeTypes[i]
	}
	return &tapeFull[int(i)-tapeFullBase]
}

// value records the value at p, of type tapeTypes[typ], as
// encoding/json would encode it.
func (t *tape) value(p unsafe.Pointer, typ uint16) {
	d := tapeTypeAt(typ)
	switch d.kind {
	case tapeKindString:
		t.string(*(*string)(p))
	case tapeKindBool:
		t.bool(*(*bool)(p))
	case tapeKindPointer:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			t.null()
			return
		}
		t.value(q, d.elem)
	case tapeKindSlice:
		s := *(*[]byte)(p) // the slice header; its elements are d.size bytes apart
		if s == nil {
			t.null()
			return
		}
		t.array(len(s))
		data := unsafe.Pointer(unsafe.SliceData(s))
		for i := range len(s) {
			t.value(unsafe.Add(data, uintptr(i)*d.size), d.elem)
		}
	case tapeKindStruct:
		at, n := t.object(), 0
		for i := range d.fields {
			f := &d.fields[i]
			q := unsafe.Add(p, f.off)
			if f.omit == tapeOmitFull && tapeFull == nil || f.omit != tapeOmitNever && tapeEmpty(q, tapeTypeAt(f.typ)) {
				continue
			}
			t.key(int(f.key))
			t.value(q, f.typ)
			n++
		}
		t.end(at, n)
	default:
		t.number(tapeNumberAt(p, d.kind))
	}
}

// tapeNumberAt reads the number of kind k at p.
func tapeNumberAt(p unsafe.Pointer, k tapeKind) float64 {
	switch k {
	case tapeKindInt:
		return float64(*(*int)(p))
	case tapeKindInt8:
		return float64(*(*int8)(p))
	case tapeKindInt16:
		return float64(*(*int16)(p))
	case tapeKindInt32:
		return float64(*(*int32)(p))
	case tapeKindInt64:
		return float64(*(*int64)(p))
	case tapeKindUint8:
		return float64(*(*uint8)(p))
	case tapeKindUint16:
		return float64(*(*uint16)(p))
	case tapeKindUint32:
		return float64(*(*uint32)(p))
	}
	return *(*float64)(p)
}

// tapeEmpty reports whether encoding/json's omitempty leaves out the
// value at p, of type d: "", false, 0, a nil pointer, an empty slice
// (never a struct).
func tapeEmpty(p unsafe.Pointer, d *tapeType) bool {
	switch d.kind {
	case tapeKindString:
		return len(*(*string)(p)) == 0
	case tapeKindBool:
		return !*(*bool)(p)
	case tapeKindPointer:
		return *(*unsafe.Pointer)(p) == nil
	case tapeKindSlice:
		return len(*(*[]byte)(p)) == 0
	case tapeKindStruct:
		return false
	}
	return tapeNumberAt(p, d.kind) == 0
}

// tapeHeader tells JavaScript where the tape lies in the WebAssembly
// memory: addresses and lengths (words, bytes) of the words and the blob.
type tapeHeader [4]uint32

// reportTape is reused by every call (JavaScript reads it before the next
// call), so a report costs no allocation here once it has grown.
var (
	reportTape   tape
	reportHeader tapeHeader
)

// publish fills the header for t and returns its address.
func publish(t *tape) uint32 {
	reportHeader = tapeHeader{addr(t.words), uint32(len(t.words)), addrBytes(t.blob), uint32(len(t.blob))}
	return uint32(uintptr(unsafe.Pointer(&reportHeader)))
}

func addr(s []float64) uint32 {
	if cap(s) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
}

func addrBytes(s []byte) uint32 {
	if cap(s) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
}

// tapeKeysJSON is the key table as a JSON array of strings: tapeKeys, then
// in the full engine tapeFullKeys (WriteFullSections), whose indices
// continue tapeKeys'.
func tapeKeysJSON() string {
	b := []byte{'['}
	for i, k := range tapeKeys {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, k)
	}
	for _, k := range tapeFullKeyNames {
		b = jsonx.AppendString(append(b, ','), k)
	}
	return string(append(b, ']'))
}

// unsupportedFloatError is a NaN or infinite number in a report, which
// JSON cannot carry (encoding/json refuses them the same way).
type unsupportedFloatError struct{ f float64 }

func (e *unsupportedFloatError) Error() string {
	return "json: unsupported value: " + strconv.FormatFloat(e.f, 'g', -1, 64)
}
