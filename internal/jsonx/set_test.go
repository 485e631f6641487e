package jsonx

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// stamp is a Marshaler with a value receiver, like calc.HardwareRef.
type stamp struct{ S string }

func (s stamp) MarshalJSON() ([]byte, error) { return json.Marshal("<" + s.S + ">") }

type anyMap map[keyName]any

// lightSample is sample with the light engine's kinds of maps only: to
// empty interfaces, named or not.
type lightSample struct {
	Embedded
	Name  string         `json:"name"`
	Ptr   *float64       `json:"ptr,omitempty"`
	List  []inner        `json:"list"`
	Tags  map[string]any `json:"tags,omitempty"`
	Named anyMap         `json:"named,omitempty"`
	Any   any            `json:"any"`
	Hook  hook           `json:"hook"`
	Hooks []*hook        `json:"hooks"`
	Stamp stamp          `json:"stamp"`
	Ref   *stamp         `json:"ref,omitempty"`
}

// withoutReflectSet runs fn as the light engine runs the codec: without
// EnableReflectSet. Not parallel: the paused parallel tests resume only
// once it has restored the hooks.
func withoutReflectSet(t *testing.T, fn func()) {
	a, s := assign, setMapIndex
	assign, setMapIndex = nil, nil
	defer func() { assign, setMapIndex = a, s }()
	fn()
}

func TestDecodeWithoutReflectSet(t *testing.T) {
	docs := []string{
		`{"e":"emb","name":"n","ptr":1.5,"list":[{"x":1,"y":2},{"x":2e3}],"tags":{"a":1,"b":[true,null,{"c":"d"}]},"named":{"k":{"x":[]}},"any":{"k":[1,"v",null,true]},"hook":"h1","hooks":["a",{"id":"b"},null]}`,
		`{"name":"\u00e9","list":[],"any":[],"tags":{},"hooks":[]}`,
		`{"ptr":null,"any":null,"list":null,"tags":null,"hooks":null}`,
		` { } `,
	}
	withoutReflectSet(t, func() {
		for _, doc := range docs {
			var want, got lightSample
			// hook's own decoding differs from encoding/json's only in
			// how it calls back; both sides run it.
			require.NoError(t, json.Unmarshal([]byte(doc), &want), doc)
			require.NoError(t, Unmarshal([]byte(doc), &got), doc)
			assert.Equal(t, want, got, doc)
		}
		// Decoding adds to a map already there, as encoding/json does.
		got := anyMap{"z": 9.0}
		require.NoError(t, Unmarshal([]byte(`{"a":1,"a":2,"b":"x"}`), &got))
		assert.Equal(t, anyMap{"z": 9.0, "a": 2.0, "b": "x"}, got)
		// An error leaves the slice as it was, as before.
		s := lightSample{List: []inner{{X: 7}}}
		require.Error(t, Unmarshal([]byte(`{"list":[{"x":1},{"x":"no"}]}`), &s))
		assert.Equal(t, []inner{{X: 7}}, s.List)
		// Other maps need EnableReflectSet, and say so naming the field.
		var other struct {
			M map[string]int `json:"m"`
		}
		err := Unmarshal([]byte(`{"m":{"a":1}}`), &other)
		var list fielderr.Errors
		require.True(t, errors.As(err, &list), "%v", err)
		assert.Equal(t, fielderr.Errors{{Field: "m", Message: "cannot decode into map[string]int"}}, list)
	})
	// With it, as encoding/json.
	var other, want struct {
		M map[string]int `json:"m"`
	}
	require.NoError(t, Unmarshal([]byte(`{"m":{"a":1}}`), &other))
	require.NoError(t, json.Unmarshal([]byte(`{"m":{"a":1}}`), &want))
	assert.Equal(t, want, other)
}

func TestEncodeWithoutReflectSet(t *testing.T) {
	v := lightSample{Name: "n", Stamp: stamp{"s"}, Ref: &stamp{"r"}, Any: stamp{"in any"},
		Tags: map[string]any{"b": []any{1.0, "x"}, "a": nil}}
	want, err := json.Marshal(&v)
	require.NoError(t, err)
	withoutReflectSet(t, func() {
		// Addressable (reached through the pointer) or a pointer, as in an
		// interface here, the Marshaler is called.
		v.Any = &stamp{"in any"}
		got, err := Marshal(&v)
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got))
		assert.Equal(t, string(want), string(got))
		// A Marshaler value that is not addressable needs assign.
		_, err = Marshal(stamp{"x"})
		assert.EqualError(t, err, "jsonx: cannot encode a jsonx.stamp that is not addressable in this build")
		_, err = Marshal(map[string]stamp{"k": {"x"}})
		assert.Error(t, err)
	})
	v.Any = stamp{"in any"}
	for _, x := range []any{v, &v, stamp{"x"}, map[string]stamp{"k": {"x"}}, []any{stamp{"y"}, &stamp{"z"}}} {
		want, err := json.Marshal(x)
		require.NoError(t, err)
		got, err := Marshal(x)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%#v", x)
	}
}

// pointerAny makes the interface value Go makes of the pointer.
func TestPointerAnyIsTheInterfaceValue(t *testing.T) {
	x := stamp{"p"}
	got := pointerAny(reflect.TypeFor[*stamp](), unsafe.Pointer(&x))
	assert.True(t, got == any(&x))
	m, ok := got.(json.Marshaler)
	require.True(t, ok)
	b, err := m.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `"\u003cp\u003e"`, string(b))
}

// What the codec stores through addresses (pointers, slice headers,
// interfaces, maps) is seen by the garbage collector: the decoded values
// survive collections made while and after they are decoded.
func TestStoresSurviveCollections(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[`)
	for i := range 2000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"n%d","ptr":%d,"list":[{"x":%d}],"tags":{"k":"v%d"},"any":[%d]}`, i, i, i, i, i)
	}
	b.WriteString(`]`)
	var got []*lightSample
	withoutReflectSet(t, func() {
		require.NoError(t, Unmarshal([]byte(b.String()), &got))
	})
	runtime.GC()
	_ = make([][]byte, 0, 1<<16) // churn the heap
	runtime.GC()
	require.Len(t, got, 2000)
	for i, s := range got {
		require.Equal(t, fmt.Sprintf("n%d", i), s.Name)
		require.Equal(t, float64(i), *s.Ptr)
		require.Equal(t, []inner{{X: float64(i)}}, s.List)
		require.Equal(t, map[string]any{"k": fmt.Sprintf("v%d", i)}, s.Tags)
		require.Equal(t, []any{float64(i)}, s.Any)
	}
}
