package jsonx

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/modelrefs/throughput/internal/strsort"
)

// Marshaler is implemented by types that encode themselves.
type Marshaler interface {
	MarshalJSON() ([]byte, error)
}

var marshalerType = reflect.TypeFor[Marshaler]()

// Marshal encodes v as encoding/json's Marshal would. NaN and infinite
// floats are an error, as there.
func Marshal(v any) ([]byte, error) {
	return Append(nil, v)
}

// Append appends the encoding of v to b.
func Append(b []byte, v any) ([]byte, error) {
	e := encoder{buf: b}
	if err := e.value(reflect.ValueOf(v)); err != nil {
		return nil, err
	}
	return e.buf, nil
}

type encoder struct {
	buf   []byte
	depth int
}

// lit appends s. One call in place of each append of a literal: under
// Go's WebAssembly each inline append is a growth check, a call and a
// copy (about 1 KB of the light engine's gzip over value's 16 appends).
func (e *encoder) lit(s string) { e.buf = append(e.buf, s...) }

func (e *encoder) value(v reflect.Value) error {
	if !v.IsValid() {
		e.lit("null")
		return nil
	}
	t := v.Type()
	if t == rawType {
		if v.Len() == 0 {
			e.lit("null")
		} else {
			e.buf = append(e.buf, v.Bytes()...)
		}
		return nil
	}
	if t.Implements(marshalerType) && !(v.Kind() == reflect.Pointer && v.IsNil()) {
		m, err := marshalerOf(v)
		if err != nil {
			return err
		}
		b, err := m.MarshalJSON()
		if err != nil {
			return err
		}
		e.buf = append(e.buf, b...)
		return nil
	}
	if v.CanAddr() && reflect.PointerTo(t).Implements(marshalerType) {
		return e.value(v.Addr())
	}
	switch t.Kind() {
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		bits := 64
		if t.Kind() == reflect.Float32 {
			bits = 32
		}
		var err error
		e.buf, err = AppendFloat(e.buf, v.Float(), bits)
		return err
	case reflect.String:
		e.buf = AppendString(e.buf, v.String())
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			e.lit("null")
			return nil
		}
		if e.depth++; e.depth > 2*MaxDepth {
			return errors.New("jsonx: value nested too deeply (cycle?)")
		}
		err := e.value(v.Elem())
		e.depth--
		return err
	case reflect.Struct:
		e.lit("{")
		first := true
		for _, f := range fieldsOf(t).list {
			fv, ok := fieldValue(v, f.index)
			if !ok || f.omitEmpty && isEmpty(fv) {
				continue
			}
			if !first {
				e.lit(",")
			}
			first = false
			e.buf = AppendString(e.buf, f.name)
			e.lit(":")
			if err := e.value(fv); err != nil {
				return err
			}
		}
		e.lit("}")
	case reflect.Map:
		if v.IsNil() {
			e.lit("null")
			return nil
		}
		if t.Key().Kind() != reflect.String {
			return errors.New("jsonx: unsupported map key type " + t.Key().String())
		}
		// The keys sorted as strings: slices.Sort on []string is in every
		// build already, where slices.SortFunc on []reflect.Value was an
		// instantiation of its own (about 6 KB of the browser engine's
		// gzip). One MapRange pass, which the engine links anyway, rather
		// than MapKeys and MapIndex (about 0.8 KB more).
		names := make([]string, 0, v.Len())
		values := make(map[string]reflect.Value, v.Len())
		for it := v.MapRange(); it.Next(); {
			name := it.Key().String()
			names = append(names, name)
			values[name] = it.Value()
		}
		strsort.Strings(names)
		e.lit("{")
		for i, name := range names {
			if i > 0 {
				e.lit(",")
			}
			e.buf = AppendString(e.buf, name)
			e.lit(":")
			if err := e.value(values[name]); err != nil {
				return err
			}
		}
		e.lit("}")
	case reflect.Slice:
		if v.IsNil() {
			e.lit("null")
			return nil
		}
		fallthrough
	case reflect.Array:
		e.lit("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				e.lit(",")
			}
			if err := e.value(v.Index(i)); err != nil {
				return err
			}
		}
		e.lit("]")
	default:
		return errors.New("jsonx: unsupported type " + t.String())
	}
	return nil
}

// fieldValue follows index, reporting false through a nil embedded pointer.
func fieldValue(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// AppendFloat appends f formatted as encoding/json does: the shortest
// representation, in 'f' format unless the exponent is below -6 or at
// least 21, when 'e' is used with a two-digit minimum exponent trimmed
// ("1e-07", not "1e-7" is what strconv gives; encoding/json writes "1e-7").
func AppendFloat(b []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, errors.New("jsonx: unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits))
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, escaping as encoding/json does
// with HTML escaping on (<, >, & as \u003c, \u003e, \u0026; U+2028 and
// U+2029 escaped; invalid UTF-8 replaced by U+FFFD).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
