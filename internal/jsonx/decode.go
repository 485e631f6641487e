// Package jsonx is a small, strict JSON codec for the engine's own types.
// It exists for the WebAssembly build: encoding/json (with the fmt package
// it pulls in) costs about 340 KB of the 1.0 MB gzip budget of
// www/throughput.wasm, while this package and the reflect support it needs
// cost about 30 KB.
//
// Decoding is always strict: an unknown object key, a value of the wrong
// type, a fractional number for an integer field or trailing data is an
// *Error naming the JSON path of the offending value ("workload.concurrency",
// "hardware.peak_flops.bf16"). Encoding writes what encoding/json's Marshal
// writes for the same value (same float formatting, HTML-safe string
// escaping, sorted map keys, omitempty), so both can serve one schema.
//
// Supported: structs (json tags, omitempty, "-", embedded structs), pointers,
// bool, all integer and float kinds, strings, slices, arrays, maps with
// string keys, interface{} (decoded as map[string]any, []any, float64,
// string, bool or nil), Raw (kept undecoded), and types implementing
// Unmarshaler / Marshaler.
package jsonx

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// Raw is a JSON value kept undecoded (like encoding/json.RawMessage).
type Raw []byte

// Unmarshaler is implemented by types that decode themselves from a JSON
// value (the raw bytes of that value).
type Unmarshaler interface {
	UnmarshalJSON([]byte) error
}

// Error is a decoding error: the JSON path of the offending value and what
// is wrong with it. It is the project's one field-error type, and Unmarshal
// returns it as a fielderr.Errors of one.
type Error = fielderr.Error

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 64

// Unmarshal decodes one JSON value from data into v (a non-nil pointer).
func Unmarshal(data []byte, v any) error {
	return unmarshal(&decoder{data: data}, v)
}

// UnmarshalKnown decodes like Unmarshal, except that an unknown object key
// does not stop it: the key's value is skipped (its syntax still checked)
// and the key is returned in unknown, in document order, so that a caller
// can validate the rest and report every problem at once. Any other
// problem (a wrong type, malformed JSON) stops decoding and is err, as
// in Unmarshal; v is then partly decoded. Types that decode themselves
// (Unmarshaler) stay strict inside their own value.
func UnmarshalKnown(data []byte, v any) (unknown fielderr.Errors, err error) {
	d := &decoder{data: data, unknown: fielderr.Errors{}}
	err = unmarshal(d, v)
	return d.unknown, err
}

// UnknownFields is what an Unmarshaler returns when its value held unknown
// keys (from UnmarshalKnown) and it decoded the rest: UnmarshalKnown adds
// them to its own unknown keys and goes on; Unmarshal reports them.
type UnknownFields fielderr.Errors

func (u UnknownFields) Error() string { return fielderr.Errors(u).Error() }

// Unwrap lets errors.As find the list (fielderr.Errors).
func (u UnknownFields) Unwrap() error { return fielderr.Errors(u) }

func unmarshal(d *decoder, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("jsonx: Unmarshal needs a non-nil pointer")
	}
	d.skipSpace()
	if d.pos >= len(d.data) {
		return fielderr.New("", "empty input: expected a JSON value")
	}
	if err := d.value(rv.Elem(), ""); err != nil {
		return err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return fielderr.New("", "unexpected data after the JSON value at byte "+strconv.Itoa(d.pos))
	}
	return nil
}

type decoder struct {
	data []byte
	pos  int
	// depth is the nesting at the cursor, decremented on each successful
	// return only: an error ends the decoding (no defer, which costs the
	// light engine's gzip in each of the three functions that nest).
	depth int
	// unknown collects unknown object keys (UnmarshalKnown); nil: the
	// first one is an error (Unmarshal).
	unknown fielderr.Errors
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) errf(path, msg string) error { return fielderr.New(path, msg) }

// syntax reports malformed JSON. Such errors name no field (the document,
// not a value, is wrong) but say where they are.
func (d *decoder) syntax(path, what string) error {
	if d.pos >= len(d.data) {
		return d.invalid(path, "unexpected end of input, expected "+what)
	}
	return d.invalid(path, "expected "+what+", found "+strconv.QuoteRune(rune(d.data[d.pos])))
}

func (d *decoder) invalid(path, msg string) error {
	where := ""
	if path != "" {
		where = " (in " + path + ")"
	}
	return fielderr.New("", "invalid JSON at byte "+strconv.Itoa(d.pos)+where+": "+msg)
}

func join(path, key string) string { return fielderr.Join(path, key) }

// unknownPath names an unknown key under path: its first MaxQuoted
// characters after a dot, whatever they are, so that an empty key or one
// that looks like an index ("[0]") is not taken for its parent or for an
// element (the JavaScript module's checkObject names it alike).
func unknownPath(path, key string) string {
	if path == "" {
		return fielderr.Truncate(key)
	}
	return fielderr.Path(path + "." + fielderr.Truncate(key))
}

var (
	rawType         = reflect.TypeFor[Raw]()
	unmarshalerType = reflect.TypeFor[Unmarshaler]()
)

// kindName says what a JSON value for type t must be, for messages.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return kindName(t.Elem())
	}
	return "a JSON value"
}

// found names the JSON value starting at the cursor, for messages.
func (d *decoder) found() string {
	if d.pos >= len(d.data) {
		return "nothing"
	}
	switch c := d.data[d.pos]; {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' && d.pos+1 < len(d.data) && d.data[d.pos+1] >= '0' && d.data[d.pos+1] <= '9',
		c >= '0' && c <= '9':
		return "a number"
	default:
		return "invalid JSON " + strconv.QuoteRune(rune(c)) + " at byte " + strconv.Itoa(d.pos)
	}
}

func (d *decoder) value(v reflect.Value, path string) error {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return d.syntax(path, "a value")
	}
	t := v.Type()
	if t == rawType {
		start := d.pos
		if err := d.skip(path); err != nil {
			return err
		}
		v.SetBytes(append([]byte(nil), d.data[start:d.pos]...))
		return nil
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) && v.CanAddr() {
		start := d.pos
		if err := d.skip(path); err != nil {
			return err
		}
		err := pointerAny(reflect.PointerTo(t), addrOf(v)).(Unmarshaler).UnmarshalJSON(d.data[start:d.pos])
		if uk, ok := err.(UnknownFields); ok && d.unknown != nil {
			u, _ := fielderr.Under(path, fielderr.Errors(uk)).(fielderr.Errors)
			d.unknown = append(d.unknown, u...)
			return nil
		}
		return fielderr.Under(path, err)
	}
	if d.data[d.pos] == 'n' {
		if err := d.literal("null", path); err != nil {
			return err
		}
		setNull(v)
		// null leaves other kinds untouched, as encoding/json does.
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			setPointer(v)
		}
		return d.value(v.Elem(), path)
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return d.errf(path, "cannot decode into "+t.String())
		}
		x, err := d.any(path)
		if err != nil {
			return err
		}
		*(*any)(addrOf(v)) = x
		return nil
	case reflect.Struct:
		return d.object(path, func(key string) (reflect.Value, bool) {
			f, ok := fieldsOf(t).byName[key]
			if !ok {
				return reflect.Value{}, false
			}
			return fieldByIndex(v, f.index), true
		})
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return d.errf(path, "cannot decode into "+t.String())
		}
		return d.objectMap(path, v)
	case reflect.Slice:
		return d.array(path, v)
	case reflect.String:
		if d.data[d.pos] != '"' {
			return d.errf(path, "must be a string, got "+d.found())
		}
		s, err := d.str(path)
		if err != nil {
			return err
		}
		v.SetString(s)
		return nil
	case reflect.Bool:
		switch d.data[d.pos] {
		case 't':
			v.SetBool(true)
			return d.literal("true", path)
		case 'f':
			v.SetBool(false)
			return d.literal("false", path)
		}
		return d.errf(path, "must be true or false, got "+d.found())
	case reflect.Float32, reflect.Float64:
		f, _, err := d.number(path, t)
		if err != nil {
			return err
		}
		v.SetFloat(f)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f, lit, err := d.number(path, t)
		if err != nil {
			return err
		}
		if f != math.Trunc(f) {
			return d.errf(path, "must be an integer, got "+fielderr.Truncate(lit))
		}
		if !exactInt(f, lit) || v.OverflowInt(int64(f)) {
			return d.errf(path, "must be an integer of at most 2^53 in magnitude, got "+fielderr.Truncate(lit))
		}
		v.SetInt(int64(f))
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f, lit, err := d.number(path, t)
		if err != nil {
			return err
		}
		if f != math.Trunc(f) || f < 0 {
			return d.errf(path, "must be a non-negative integer, got "+fielderr.Truncate(lit))
		}
		if !exactInt(f, lit) || v.OverflowUint(uint64(f)) {
			return d.errf(path, "must be an integer of at most 2^53 in magnitude, got "+fielderr.Truncate(lit))
		}
		v.SetUint(uint64(f))
		return nil
	}
	return d.errf(path, "cannot decode into "+t.String())
}

// object decodes a JSON object, handing each key's slot out by field.
func (d *decoder) object(path string, field func(string) (reflect.Value, bool)) error {
	if d.data[d.pos] != '{' {
		return d.errf(path, "must be an object, got "+d.found())
	}
	if d.depth++; d.depth > MaxDepth {
		return d.errf(path, "nesting deeper than "+strconv.Itoa(MaxDepth))
	}
	d.pos++
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		return nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return d.syntax(path, "an object key")
		}
		key, err := d.str(path)
		if err != nil {
			return err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.syntax(path, "':'")
		}
		d.pos++
		slot, ok := field(key)
		switch {
		case ok:
			err = d.value(slot, join(path, key))
		case d.unknown == nil:
			return fielderr.New(unknownPath(path, key), "unknown field")
		default:
			d.unknown = append(d.unknown, fielderr.Error{Field: unknownPath(path, key), Message: "unknown field"})
			err = d.skip(join(path, key))
		}
		if err != nil {
			return err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.syntax(path, "',' or '}'")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			return nil
		default:
			return d.syntax(path, "',' or '}'")
		}
	}
}

// objectMap decodes an object into the addressable map v (its key of
// string kind), making it when nil. A map to an empty interface is filled
// as a map[string]any (isAnyMap); any other through setMapIndex, which
// only builds that call EnableReflectSet have. The key is set with
// SetString rather than Value.Convert, which would link reflect's
// conversion table (about 4 KB of the light engine's gzip).
func (d *decoder) objectMap(path string, v reflect.Value) error {
	t := v.Type()
	if isAnyMap(t) {
		m := (*map[string]any)(addrOf(v))
		if *m == nil {
			*m = map[string]any{}
		}
		return d.anyObject(path, *m)
	}
	if setMapIndex == nil {
		return d.errf(path, "cannot decode into "+t.String())
	}
	if v.IsNil() {
		assign(v, reflect.MakeMap(t))
	}
	var elem reflect.Value
	key := reflect.New(t.Key()).Elem()
	return d.objectKeys(path, func(k string) (reflect.Value, func()) {
		key.SetString(k)
		elem = reflect.New(t.Elem()).Elem() // zero, as each value starts
		return elem, func() { setMapIndex(v, key, elem) }
	})
}

// anyObject decodes an object's values into m, as any does.
func (d *decoder) anyObject(path string, m map[string]any) error {
	var key string
	var cur any
	slot := reflect.ValueOf(&cur).Elem()
	return d.objectKeys(path, func(k string) (reflect.Value, func()) {
		key = k
		cur = nil
		return slot, func() { m[key] = cur }
	})
}

// objectKeys is object for maps: each decoded value is stored by done().
func (d *decoder) objectKeys(path string, slot func(string) (reflect.Value, func())) error {
	var done func()
	err := d.object(path, func(k string) (reflect.Value, bool) {
		if done != nil {
			done()
		}
		var v reflect.Value
		v, done = slot(k)
		return v, true
	})
	if err == nil && done != nil {
		done()
	}
	return err
}

func (d *decoder) array(path string, v reflect.Value) error {
	if d.data[d.pos] != '[' {
		return d.errf(path, "must be an array, got "+d.found())
	}
	if d.depth++; d.depth > MaxDepth {
		return d.errf(path, "nesting deeper than "+strconv.Itoa(MaxDepth))
	}
	d.pos++
	// The elements are decoded into a new slice (out, addressable), grown
	// one at a time, which replaces v's at the end.
	out := reflect.New(v.Type()).Elem()
	out.Grow(4)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		setSlice(v, out)
		return nil
	}
	for i := 0; ; i++ {
		out.Grow(1)
		out.SetLen(i + 1)
		if err := d.value(out.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.syntax(path, "',' or ']'")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			setSlice(v, out)
			return nil
		default:
			return d.syntax(path, "',' or ']'")
		}
	}
}

// any decodes a value into map[string]any, []any, float64, string, bool or nil.
func (d *decoder) any(path string) (any, error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return nil, d.syntax(path, "a value")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		m := map[string]any{}
		return m, d.anyObject(path, m)
	case c == '[':
		var a []any
		err := d.array(path, reflect.ValueOf(&a).Elem())
		if a == nil {
			a = []any{}
		}
		return a, err
	case c == '"':
		return d.str(path)
	case c == 't':
		return true, d.literal("true", path)
	case c == 'f':
		return false, d.literal("false", path)
	case c == 'n':
		return nil, d.literal("null", path)
	}
	f, _, err := d.number(path, nil)
	return f, err
}

func (d *decoder) literal(lit, path string) error {
	if !strings.HasPrefix(string(d.data[d.pos:min(len(d.data), d.pos+len(lit))]), lit) {
		return d.syntax(path, lit)
	}
	d.pos += len(lit)
	return nil
}

// number scans a JSON number; t (may be nil) is the target, for messages.
func (d *decoder) number(path string, t reflect.Type) (float64, string, error) {
	start := d.pos
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
	}
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	intStart := d.pos
	if digits() == 0 {
		if nonFinite(d.data[intStart:]) {
			// JavaScript's spellings (-Infinity, Infinity, NaN) are not
			// JSON; say what the value must be rather than "a number".
			d.pos = start
			return 0, "", d.errf(path, "must be a finite number")
		}
		d.pos = start
		if t != nil {
			return 0, "", d.errf(path, "must be "+kindName(t)+", got "+d.found())
		}
		return 0, "", d.syntax(path, "a value")
	}
	if d.data[intStart] == '0' && d.pos-intStart > 1 {
		return 0, "", d.invalid(path, "number with a leading zero")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return 0, "", d.syntax(path, "a digit")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return 0, "", d.syntax(path, "a digit")
		}
	}
	lit := string(d.data[start:d.pos])
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return 0, lit, d.errf(path, "number "+fielderr.Truncate(lit)+" is out of range")
	}
	return f, lit, nil
}

// str scans a JSON string at the cursor (which is on the opening quote).
func (d *decoder) str(path string) (string, error) {
	d.pos++
	start := d.pos
	// Fast path: no escapes.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := string(d.data[start:d.pos])
			d.pos++
			return validUTF8(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", d.invalid(path, "control character in string")
		}
		d.pos++
	}
	var b strings.Builder
	b.Write(d.data[start:d.pos])
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return validUTF8(b.String()), nil
		case c < 0x20:
			return "", d.invalid(path, "control character in string")
		case c != '\\':
			b.WriteByte(c)
			d.pos++
			continue
		}
		d.pos++
		if d.pos >= len(d.data) {
			break
		}
		e := d.data[d.pos]
		d.pos++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", d.invalid(path, "bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				save := d.pos
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					d.pos += 2
					if r2, ok := d.hex4(); ok {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b.WriteRune(dec)
							continue
						}
					}
				}
				d.pos = save
				r = utf8.RuneError
			}
			b.WriteRune(r)
		default:
			return "", d.invalid(path, "bad escape \\"+string(rune(e)))
		}
	}
	return "", d.syntax(path, "'\"'")
}

// validUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func (d *decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.pos += 4
	return rune(n), true
}

// skip scans over one value without building it, validating its syntax
// (used for Raw fields: the catalog keeps 64 configs undecoded this way).
func (d *decoder) skip(path string) error {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return d.syntax(path, "a value")
	}
	switch c := d.data[d.pos]; {
	case c == '{' || c == '[':
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		if d.depth++; d.depth > MaxDepth {
			return d.errf(path, "nesting deeper than "+strconv.Itoa(MaxDepth))
		}
		d.pos++
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == closer {
			d.pos++
			d.depth--
			return nil
		}
		for {
			if c == '{' {
				d.skipSpace()
				if d.pos >= len(d.data) || d.data[d.pos] != '"' {
					return d.syntax(path, "an object key")
				}
				if err := d.skipString(path); err != nil {
					return err
				}
				d.skipSpace()
				if d.pos >= len(d.data) || d.data[d.pos] != ':' {
					return d.syntax(path, "':'")
				}
				d.pos++
			}
			if err := d.skip(path); err != nil {
				return err
			}
			d.skipSpace()
			if d.pos >= len(d.data) {
				return d.syntax(path, "',' or '"+string(closer)+"'")
			}
			switch d.data[d.pos] {
			case ',':
				d.pos++
			case closer:
				d.pos++
				d.depth--
				return nil
			default:
				return d.syntax(path, "',' or '"+string(closer)+"'")
			}
		}
	case c == '"':
		return d.skipString(path)
	case c == 't':
		return d.literal("true", path)
	case c == 'f':
		return d.literal("false", path)
	case c == 'n':
		return d.literal("null", path)
	}
	_, _, err := d.number(path, nil)
	return err
}

// skipString scans a string without building it: escapes are checked for
// form only when they are plain; anything unusual falls back to str.
func (d *decoder) skipString(path string) error {
	start := d.pos
	for i := d.pos + 1; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			d.pos = i + 1
			return nil
		case c == '\\' || c < 0x20:
			d.pos = start
			_, err := d.str(path)
			return err
		}
	}
	d.pos = len(d.data)
	return d.syntax(path, "'\"'")
}

// field is one JSON-visible struct field.
type field struct {
	name      string
	index     []int
	omitEmpty bool
}

type structFields struct {
	list   []field
	byName map[string]field
}

// fieldCache holds each struct type's fields once worked out. A map under
// a mutex rather than a sync.Map, whose Store would link the hash-trie's
// swap paths (about 1 KB of the light engine's gzip).
var fieldCache struct {
	sync.Mutex
	m map[reflect.Type]*structFields
}

// FieldName returns a struct field's JSON key and tag options as
// encoding/json reads them; ok is false for the fields it skips
// (unexported, or tagged "-").
func FieldName(f reflect.StructField) (name, opts string, ok bool) {
	tag := jsonTag(f.Tag)
	if !f.IsExported() || tag == "-" {
		return "", "", false
	}
	name, opts, _ = strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, opts, true
}

// jsonTag is the value of tag's "json" key, read as reflect.StructTag.Get
// reads it (space-separated key:"value" pairs, the first "json" wins, ""
// when absent or malformed), but for backslash escapes in that value: \"
// and \\ are read as " and \, any other escape makes it malformed
// (StructTag.Get would unquote it with strconv.Unquote, which is not worth
// its 2.6 KB of the light engine's gzip: no JSON key needs one).
func jsonTag(tag reflect.StructTag) string {
	for tag != "" {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			return ""
		}
		key := tag[:i]
		tag = tag[i+1:]
		for i = 1; i < len(tag) && tag[i] != '"'; i++ {
			if tag[i] == '\\' {
				i++
			}
		}
		if i >= len(tag) {
			return ""
		}
		quoted := string(tag[1:i])
		tag = tag[i+1:]
		if key == "json" {
			return unquoteTag(quoted)
		}
	}
	return ""
}

// unquoteTag reads the inside of a tag's quoted value as strconv.Unquote
// does (an invalid UTF-8 byte becomes U+FFFD), "" when it holds a newline
// or an escape other than \" and \\.
func unquoteTag(s string) string {
	if strings.IndexByte(s, '\n') >= 0 {
		return ""
	}
	if strings.IndexByte(s, '\\') < 0 && utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] == '\\' { // the scan in jsonTag leaves a character after it
			if s[i+1] != '"' && s[i+1] != '\\' {
				return ""
			}
			b = append(b, s[i+1])
			i += 2
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, r)
		i += n
	}
	return string(b)
}

// fieldsOf returns t's JSON fields: exported fields by their json tag name
// (or Go name), "-" skipped, embedded structs flattened (outer names win).
func fieldsOf(t reflect.Type) *structFields {
	fieldCache.Lock()
	f, ok := fieldCache.m[t]
	fieldCache.Unlock()
	if ok {
		return f
	}
	sf := &structFields{byName: map[string]field{}}
	var walk func(t reflect.Type, index []int, depth int)
	walk = func(t reflect.Type, index []int, depth int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := jsonTag(f.Tag)
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, idx, depth+1)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if prev, dup := sf.byName[name]; dup && len(prev.index) <= len(idx) {
				continue
			}
			fl := field{name: name, index: idx, omitEmpty: strings.Contains(opts, "omitempty")}
			sf.byName[name] = fl
		}
	}
	walk(t, nil, 0)
	// Keep declaration order (depth-first), outer fields shadowing inner.
	var order func(t reflect.Type, index []int)
	order = func(t reflect.Type, index []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			idx := append(append([]int(nil), index...), i)
			name, _, _ := strings.Cut(jsonTag(f.Tag), ",")
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					order(ft, idx)
					continue
				}
			}
			if name == "" {
				name = f.Name
			}
			if fl, ok := sf.byName[name]; ok && equalIndex(fl.index, idx) {
				sf.list = append(sf.list, fl)
			}
		}
	}
	order(t, nil)
	fieldCache.Lock()
	if fieldCache.m == nil {
		fieldCache.m = map[reflect.Type]*structFields{}
	}
	fieldCache.m[t] = sf
	fieldCache.Unlock()
	return sf
}

func equalIndex(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fieldByIndex returns the field at index, allocating nil embedded pointers.
func fieldByIndex(v reflect.Value, index []int) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				setPointer(v)
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// maxExactInt is 2^53: every integer up to it in magnitude is exact in a
// float64 (and a JavaScript number); 2^53+1 would silently read as 2^53.
const maxExactInt = 1 << 53

// exactInt reports whether the integral f, read from lit, is within
// ±2^53 and is the integer lit spells: 9007199254740993 reads as 2^53 and
// is refused rather than rounded.
func exactInt(f float64, lit string) bool {
	if math.Abs(f) < maxExactInt {
		return true
	}
	if math.Abs(f) > maxExactInt {
		return false
	}
	n, err := strconv.ParseInt(lit, 10, 64)
	return err == nil && (n == maxExactInt || n == -maxExactInt)
}

// nonFinite reports whether b starts with Infinity or NaN.
func nonFinite(b []byte) bool {
	s := string(b[:min(len(b), 8)])
	return strings.HasPrefix(s, "Infinity") || strings.HasPrefix(s, "NaN")
}
