// Package memsize estimates how many heap bytes a Go value keeps alive: what
// a cache that is bounded by bytes, not by count, charges for an entry
// (models.Register keeps Hub configs so). It walks the value with reflect,
// counting each pointed-to object once.
//
// The figure is an estimate from the data structures' layouts, not a
// measurement: a string's bytes, a slice's backing array (cap × element
// size), a boxed interface value, a pointed-to object, and a map's slots at
// key + value + 1 control byte each plus 48 bytes of header (a Swiss-table
// map allocates one group of 8 slots for up to 8 entries, else a power of
// two of slots at most 7/8 full: a one-key map costs as much as an
// eight-key one). Go's
// allocator rounds each object up to its size class (at most 12.5 % above
// 1 KiB, more for tiny objects), which it does not count; its test measures
// a parsed config.json with runtime.MemStats and holds the estimate to
// within a factor of the measurement.
//
// It is a leaf: it imports only the standard library.
package memsize

import (
	"reflect"
	"unsafe"
)

// mapHeader is the bytes a non-empty map's header and directory take
// (Go 1.24's Swiss-table map: the Map struct and one table).
const mapHeader = 48

// Of returns the estimated heap bytes v keeps alive, beside the bytes of v
// itself (which live wherever v is stored): for a map[string]any parsed
// from JSON, its header, its entries, their keys' bytes and the boxed
// values they hold.
func Of(v any) int64 {
	w := walker{seen: map[uintptr]bool{}}
	if v == nil {
		return 0
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.String:
		return w.indirect(rv)
	}
	// A non-pointer value boxed in v: its own bytes and what it points to.
	return int64(rv.Type().Size()) + w.indirect(rv)
}

type walker struct{ seen map[uintptr]bool }

// first reports whether the object at p is seen for the first time.
func (w *walker) first(p uintptr) bool {
	if p == 0 || w.seen[p] {
		return false
	}
	w.seen[p] = true
	return true
}

// indirect is the heap bytes v refers to, outside v's own bytes.
func (w *walker) indirect(v reflect.Value) int64 {
	switch v.Kind() {
	case reflect.String:
		if v.Len() == 0 || !w.first(uintptr(unsafe.Pointer(unsafe.StringData(v.String())))) {
			return 0
		}
		return int64(v.Len())
	case reflect.Pointer:
		if v.IsNil() || !w.first(v.Pointer()) {
			return 0
		}
		e := v.Elem()
		return int64(e.Type().Size()) + w.indirect(e)
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		switch e.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
			return w.indirect(e)
		}
		// A boxed value: its own allocation, then what it refers to.
		// (Booleans and small integers are not allocated; counting them
		// errs high.)
		return int64(e.Type().Size()) + w.indirect(e)
	case reflect.Slice:
		if v.Cap() == 0 || !w.first(v.Pointer()) {
			return 0
		}
		n := int64(v.Cap()) * int64(v.Type().Elem().Size())
		if hasPointers(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				n += w.indirect(v.Index(i))
			}
		}
		return n
	case reflect.Array:
		var n int64
		if hasPointers(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				n += w.indirect(v.Index(i))
			}
		}
		return n
	case reflect.Struct:
		var n int64
		for i := 0; i < v.NumField(); i++ {
			if hasPointers(v.Field(i).Type()) {
				n += w.indirect(v.Field(i))
			}
		}
		return n
	case reflect.Map:
		if v.IsNil() || !w.first(v.Pointer()) {
			return 0
		}
		t := v.Type()
		n := int64(mapHeader) + mapSlots(v.Len())*(int64(t.Key().Size())+int64(t.Elem().Size())+1)
		if hasPointers(t.Key()) || hasPointers(t.Elem()) {
			it := v.MapRange()
			for it.Next() {
				n += w.indirect(it.Key()) + w.indirect(it.Value())
			}
		}
		return n
	}
	return 0 // numbers, booleans; channels and functions are not followed
}

// mapSlots is the slots a Swiss-table map of n entries allocates: one group
// of 8 for up to 8 entries, else a power of two at most 7/8 full.
func mapSlots(n int) int64 {
	if n <= 8 {
		return 8
	}
	need := int64(n)*8/7 + 1
	slots := int64(16)
	for slots < need {
		slots *= 2
	}
	return slots
}

// hasPointers reports whether a value of type t can refer to heap memory.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}
