package jsonx

import (
	"errors"
	"reflect"
	"unsafe"
)

// The codec stores decoded values through the addresses of addressable
// reflect.Values (unsafe.Pointer(v.UnsafeAddr())) and calls the
// Marshaler and Unmarshaler methods through an interface value it makes
// itself (pointerAny), rather than with reflect.Value.Set, SetMapIndex,
// Interface or UnsafePointer: each of those links reflect's method-value
// machinery (makeMethodValue, callMethod, funcLayout and the register ABI
// walk behind them) and its assignability checks, about 26 KB of the light
// engine's gzip with what only they reach (docs/js-module.md).
//
// Two cases still need reflect.Value.Set or SetMapIndex: a map whose
// values are not of an empty interface type (map[string]float64), and a
// Marshaler value that is not addressable (in a value passed to Marshal by
// value, a map value, an interface's content). They go through assign and
// setMapIndex, which EnableReflectSet installs: native builds at init
// (set_native.go); WebAssembly builds where the code that needs it runs
// (the mains of wasm/js/full and wasm/worker; calc/planner's ParseRequest
// and Plan, whose requests hold a prices map and whose deployments a
// HardwareRef). The light engine does neither: its maps are
// map[string]any and its one Marshaler, calc.HardwareRef, is only decoded
// there. Without the hooks, the codec refuses those cases with an error.
var (
	assign      func(dst, src reflect.Value)
	setMapIndex func(m, key, elem reflect.Value)
)

// EnableReflectSet lets the codec decode maps of any value type and
// encode Marshaler values that are not addressable, with reflect.Value.Set
// and SetMapIndex. Native builds call it at init; a WebAssembly main whose
// types need it, or the code that decodes such a type (the planner's
// ParseRequest), calls it before decoding or encoding. Once enabled it
// only reads, so that calls while other goroutines decode are no race.
func EnableReflectSet() {
	if setMapIndex == nil {
		assign, setMapIndex = reflect.Value.Set, reflect.Value.SetMapIndex
	}
}

// addrOf is the address of the addressable v.
func addrOf(v reflect.Value) unsafe.Pointer { return unsafe.Pointer(v.UnsafeAddr()) }

// pointerAny is the interface value of pointer type pt holding p, as
// reflect.NewAt(pt.Elem(), p).Interface() would make it: an empty
// interface is a (type, data) pair of words, the type word being the
// *rtype that a reflect.Type holds as its own data word, and a pointer is
// stored in the data word itself.
func pointerAny(pt reflect.Type, p unsafe.Pointer) any {
	var x any
	w := (*[2]unsafe.Pointer)(unsafe.Pointer(&x))
	w[0] = (*[2]unsafe.Pointer)(unsafe.Pointer(&pt))[1]
	w[1] = p
	return x
}

// setPointer stores a new zero value of v's element type in the
// addressable pointer v.
func setPointer(v reflect.Value) {
	*(*unsafe.Pointer)(addrOf(v)) = addrOf(reflect.New(v.Type().Elem()).Elem())
}

// isAnyMap reports whether t is a map from a string kind to an empty
// interface: map[string]any, or a named type of it (models' cfg). Such a
// map is read and written as a map[string]any, which has the same
// representation.
func isAnyMap(t reflect.Type) bool {
	return t.Kind() == reflect.Map && t.Key().Kind() == reflect.String &&
		t.Elem().Kind() == reflect.Interface && t.Elem().NumMethod() == 0
}

// setSlice stores the slice out in the addressable v, both of v's slice
// type: a slice header, whatever the element type (the store of its data
// pointer is a pointer store the garbage collector sees).
func setSlice(v, out reflect.Value) { *(*[]byte)(addrOf(v)) = *(*[]byte)(addrOf(out)) }

// marshalerOf is v (of a type that implements Marshaler; not a nil
// pointer) as a Marshaler, as v.Interface().(Marshaler) would give it: a
// pointer as it is, an addressable value by its address (whose method set
// holds the value's methods), any other value by a copy that assign makes
// addressable.
func marshalerOf(v reflect.Value) (Marshaler, error) {
	t := v.Type()
	switch t.Kind() {
	case reflect.Interface:
		return marshalerOf(v.Elem())
	case reflect.Pointer:
		return pointerAny(t, addrOf(v.Elem())).(Marshaler), nil
	}
	if !v.CanAddr() {
		if assign == nil {
			return nil, errors.New("jsonx: cannot encode a " + t.String() + " that is not addressable in this build")
		}
		c := reflect.New(t).Elem()
		assign(c, v)
		v = c
	}
	return pointerAny(reflect.PointerTo(t), addrOf(v)).(Marshaler), nil
}

// setNull stores null's value in the addressable v: nil for a pointer,
// map, slice or interface (a map is a pointer; an interface, empty or not,
// is two words, which storing a nil any clears); other kinds are left as
// they are, as encoding/json leaves them. In place of reflect.Value.SetZero
// (about 1 KB of the light engine's gzip).
func setNull(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map:
		*(*unsafe.Pointer)(addrOf(v)) = nil
	case reflect.Slice:
		*(*[]byte)(addrOf(v)) = nil
	case reflect.Interface:
		*(*any)(addrOf(v)) = nil
	}
}
