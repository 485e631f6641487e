package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/internal/fielderr"
)

type inner struct {
	X float64 `json:"x"`
	Y *int    `json:"y,omitempty"`
}

type Embedded struct {
	E string `json:"e"`
}

type sample struct {
	Embedded
	Name    string         `json:"name"`
	Count   int            `json:"count,omitempty"`
	Ratio   float64        `json:"ratio"`
	Ptr     *float64       `json:"ptr,omitempty"`
	Flag    bool           `json:"flag"`
	Inner   inner          `json:"inner"`
	List    []inner        `json:"list"`
	Tags    map[string]int `json:"tags,omitempty"`
	Any     any            `json:"any"`
	Skip    string         `json:"-"`
	Raw     Raw            `json:"raw,omitempty"`
	NoTag   int
	private int
}

type keyName string

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	y := 7
	p := 0.1
	values := []any{
		nil, true, 0, -12, uint8(200), 3.5, 1e-7, 1e21, 123456789012345678.0, 1e20, -0.0, float32(0.1),
		"plain", "<tag> & \"quotes\" \\ \n\t\u2028 é \x01", "\xff bad utf8",
		[]int{1, 2}, []string(nil), map[string]any{"b": 1.0, "a": []any{"x", nil, false}},
		sample{
			Embedded: Embedded{E: "emb"}, Name: "n", Count: 3, Ratio: 2.0 / 3, Ptr: &p, Flag: true,
			Inner: inner{X: 1e-9, Y: &y}, List: []inner{{X: 1}, {X: 2.5}}, Tags: map[string]int{"z": 1, "a": 2},
			Any: map[string]any{"k": []any{1.0, "v"}}, Skip: "hidden", NoTag: 4,
		},
		sample{},
		&inner{X: math.MaxFloat64},
		// Keys of a named string type, sorted as strings.
		map[keyName]int{"b": 2, "a": 1, "": 0, "é": 3, "B": 4},
	}
	for _, v := range values {
		want, err := json.Marshal(v)
		require.NoError(t, err)
		got, err := Marshal(v)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%#v", v)
	}
	// Raw is written as is (encoding/json needs json.RawMessage for that).
	got, err := Marshal(struct {
		R Raw `json:"r"`
	}{Raw(`{"r":1}`)})
	require.NoError(t, err)
	assert.Equal(t, `{"r":{"r":1}}`, string(got))
	_, err = Marshal(math.NaN())
	assert.Error(t, err)
	_, err = Marshal(inner{X: math.Inf(1)})
	assert.Error(t, err)
}

func TestUnmarshalMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	docs := []string{
		`{"e":"emb","name":"n","count":3,"ratio":0.5,"ptr":1.5,"flag":true,"inner":{"x":2,"y":3},"list":[{"x":1},{"x":2e3}],"tags":{"a":1},"any":{"k":[1,"v",null,true]},"NoTag":9}`,
		`{"name":"\u00e9\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t","list":[],"any":[]}`,
		`{"ptr":null,"any":null,"list":null}`,
		` { } `,
	}
	for _, doc := range docs {
		var want, got sample
		require.NoError(t, json.Unmarshal([]byte(doc), &want), doc)
		require.NoError(t, Unmarshal([]byte(doc), &got), doc)
		want.Raw, got.Raw = nil, nil
		assert.Equal(t, want, got, doc)
	}
	// A map with keys of a named string type, into a map that already
	// holds a key (decoding adds to it, as encoding/json does).
	doc := `{"b":2,"a":1,"":0,"\u00e9":3,"a":5}`
	want, got := map[keyName]int{"z": 9}, map[keyName]int{"z": 9}
	require.NoError(t, json.Unmarshal([]byte(doc), &want))
	require.NoError(t, Unmarshal([]byte(doc), &got))
	assert.Equal(t, map[keyName]int{"z": 9, "b": 2, "a": 5, "": 0, "é": 3}, got)
	assert.Equal(t, want, got)
}

func TestUnmarshalErrorsNamePaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		doc, path, msg string
		unknown        bool
	}{
		{`{"nope":1}`, "nope", "unknown field", true},
		{`{"inner":{"z":1}}`, "inner.z", "unknown field", true},
		{`{"list":[{"x":1},{"q":2}]}`, "list[1].q", "unknown field", true},
		// An empty key, or one that looks like an index, is named after
		// a dot like any other (issue 35), not as its parent or an element.
		{`{"inner":{"":1}}`, "inner.", "unknown field", true},
		{`{"inner":{"[0]":1}}`, "inner.[0]", "unknown field", true},
		{`{"":1}`, "", "unknown field", true},
		{`{"count":"3"}`, "count", "must be an integer, got a string", false},
		{`{"count":2.5}`, "count", "must be an integer, got 2.5", false},
		{`{"count":1e30}`, "count", "must be an integer", false},
		{`{"name":5}`, "name", "must be a string, got a number", false},
		{`{"flag":"yes"}`, "flag", "must be true or false", false},
		{`{"inner":[1]}`, "inner", "must be an object, got an array", false},
		{`{"list":{}}`, "list", "must be an array, got an object", false},
		{`{"ratio":x}`, "ratio", "invalid JSON 'x'", false},
		{`{"ratio":01}`, "", "leading zero", false},
		{`{"name":"x"`, "", "unexpected end", false},
		{`{"name":"x"} x`, "", "unexpected data", false},
		{``, "", "empty input", false},
		{`{"name":"a\qb"}`, "", "bad escape", false},
		{"{\"name\":\"a\nb\"}", "", "control character", false},
		{`{"ratio":1e999}`, "ratio", "out of range", false},
		{`{"ratio":-Infinity}`, "ratio", "must be a finite number", false},
		{`{"ratio":Infinity}`, "ratio", "must be a finite number", false},
		{`{"count":-Infinity}`, "count", "must be a finite number", false},
		{`{"count":9007199254740993}`, "count", "must be an integer of at most 2^53 in magnitude, got 9007199254740993", false},
		{`{"count":-9007199254740993}`, "count", "must be an integer of at most 2^53 in magnitude", false},
		{`{"count":1e16}`, "count", "must be an integer of at most 2^53 in magnitude, got 1e16", false},
		{`{"name":-x}`, "name", "must be a string, got invalid JSON '-'", false},
	}
	for _, tc := range tests {
		var s sample
		err := Unmarshal([]byte(tc.doc), &s)
		var list fielderr.Errors
		require.True(t, errors.As(err, &list), "%s: %v", tc.doc, err)
		require.Len(t, list, 1, tc.doc)
		assert.Equal(t, tc.path, list[0].Field, tc.doc)
		assert.Contains(t, list[0].Message, tc.msg, tc.doc)
		assert.Equal(t, tc.unknown, list[0].Message == "unknown field", tc.doc)
	}
}

func TestRawKeepsValue(t *testing.T) {
	t.Parallel()
	var s struct {
		A Raw `json:"a"`
		B int `json:"b"`
	}
	require.NoError(t, Unmarshal([]byte(`{"a": {"x": [1, 2, {"y": null}]} , "b": 2}`), &s))
	assert.Equal(t, `{"x": [1, 2, {"y": null}]}`, string(s.A))
	assert.Equal(t, 2, s.B)
	// A Raw is still validated.
	assert.Error(t, Unmarshal([]byte(`{"a": {"x": [1, }, "b": 2}`), &s))
}

type hook struct{ ID string }

func (h *hook) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '{' {
		var inner struct {
			ID string `json:"id"`
		}
		return Unmarshal(b, &inner)
	}
	return Unmarshal(b, &h.ID)
}

func TestUnmarshalerGetsPathPrefix(t *testing.T) {
	t.Parallel()
	var s struct {
		H hook `json:"h"`
	}
	require.NoError(t, Unmarshal([]byte(`{"h":"abc"}`), &s))
	assert.Equal(t, "abc", s.H.ID)
	err := Unmarshal([]byte(`{"h":{"idx":1}}`), &s)
	var list fielderr.Errors
	require.True(t, errors.As(err, &list))
	assert.Equal(t, "h.idx", list[0].Field)
	err = Unmarshal([]byte(`{"h":3}`), &s)
	require.True(t, errors.As(err, &list))
	assert.Equal(t, "h", list[0].Field)
}

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	deep := ""
	for i := 0; i < 200; i++ {
		deep += "["
	}
	var x any
	err := Unmarshal([]byte(deep), &x)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nesting")
}

// FuzzUnmarshalAny checks that jsonx accepts exactly the documents
// encoding/json accepts (as generic values) and decodes them to the same
// value, and that Marshal then writes the same bytes.
func FuzzUnmarshalAny(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x",null,true]}`, `"\u00e9\ud83d\ude00"`, `-0.0e+1`, `[]`, `{"a":{"b":{}}}`, `"\ud800"`, `1e400`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want, got any
		werr := json.Unmarshal(data, &want)
		gerr := Unmarshal(data, &got)
		// A Raw skips the value without building it: same verdict, and
		// it keeps the value's bytes.
		var raw Raw
		rerr := Unmarshal(data, &raw)
		if (rerr == nil) != (gerr == nil) {
			t.Fatalf("Raw and any disagree on %q: %v vs %v", data, rerr, gerr)
		}
		if rerr == nil && string(raw) != string(bytes.Trim(data, " \t\r\n")) {
			t.Fatalf("Raw kept %q of %q", raw, data)
		}
		if werr != nil {
			if gerr == nil {
				t.Fatalf("jsonx accepted %q which encoding/json rejects: %v", data, werr)
			}
			return
		}
		if gerr != nil {
			var list fielderr.Errors
			if errors.As(gerr, &list) && list[0].Message == "nesting deeper than 64" {
				return
			}
			t.Fatalf("jsonx rejected %q: %v", data, gerr)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("decoded %q as %#v, encoding/json %#v", data, got, want)
		}
		wb, _ := json.Marshal(want)
		gb, err := Marshal(got)
		if err != nil || string(wb) != string(gb) {
			t.Fatalf("marshal %#v: %s vs %s (%v)", got, gb, wb, err)
		}
	})
}

// Floats and strings that trip up encoders, against encoding/json.
func TestAppendFloatAndStringMatchEncodingJSON(t *testing.T) {
	t.Parallel()
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 1.2345e21,
		1 << 53, 1<<53 + 2, -(1 << 53), 123456789012345680000, math.MaxFloat64, math.SmallestNonzeroFloat64, 85899345920, 0.85, 19.646197388671617}
	for _, f := range floats {
		got, err := AppendFloat(nil, f, 64)
		want, _ := json.Marshal(f)
		assert.NoError(t, err)
		assert.Equal(t, string(want), string(got), "float %v", f)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := AppendFloat(nil, f, 64)
		assert.Error(t, err, "float %v", f)
	}
	for _, s := range []string{"", "plain", `q"b\s`, "<a&b>", "tab\tnl\ncr\rbs\bff\f\x00\x1f\x7f", "\u2028\u2029", "bad \xff\xfe utf8", "héllo ☃ 𝄞"} {
		want, _ := json.Marshal(s)
		assert.Equal(t, string(want), string(AppendString(nil, s)), "string %q", s)
	}
}

func TestUnmarshalIntegersUpTo2To53(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]int{
		`{"count":2.0}`:               2,
		`{"count":9007199254740992}`:  1 << 53,
		`{"count":-9007199254740992}`: -(1 << 53),
		`{"count":9007199254740991}`:  1<<53 - 1,
	} {
		var s sample
		require.NoError(t, Unmarshal([]byte(doc), &s), doc)
		assert.Equal(t, want, s.Count, doc)
	}
}

func TestUnmarshalQuotesAtMost200Characters(t *testing.T) {
	t.Parallel()
	lit := strings.Repeat("1", 5000) + ".5"
	var s sample
	err := Unmarshal([]byte(`{"count":`+lit+`}`), &s)
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 300)
	assert.Contains(t, err.Error(), "…")
}

// A 60 KB unknown key is named by its first 200 characters.
func TestUnknownLongKeyIsCut(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("k", 60<<10)
	var s sample
	err := Unmarshal([]byte(`{"`+key+`":1}`), &s)
	var list fielderr.Errors
	require.True(t, errors.As(err, &list))
	assert.Equal(t, strings.Repeat("k", 200)+"…", list[0].Field)
}

// UnmarshalKnown skips unknown keys, at any depth, naming each in document
// order, and decodes everything else as Unmarshal does.
func TestUnmarshalKnownCollectsUnknownKeys(t *testing.T) {
	t.Parallel()
	var s sample
	unknown, err := UnmarshalKnown([]byte(`{"nope":{"deep":[1,{"x":"}"}]},"name":"a","inner":{"z":1,"x":7},"list":[{"q":true}],"count":3}`), &s)
	require.NoError(t, err)
	assert.Equal(t, fielderr.Errors{
		{Field: "nope", Message: "unknown field"},
		{Field: "inner.z", Message: "unknown field"},
		{Field: "list[0].q", Message: "unknown field"},
	}, unknown)
	assert.Equal(t, "a", s.Name)
	assert.Equal(t, 7.0, s.Inner.X)
	assert.Equal(t, 3, s.Count)
	require.Len(t, s.List, 1)

	// No unknown key: an empty list, and the same value as Unmarshal.
	var a, b sample
	unknown, err = UnmarshalKnown([]byte(`{"name":"a","count":2}`), &a)
	require.NoError(t, err)
	assert.Empty(t, unknown)
	require.NoError(t, Unmarshal([]byte(`{"name":"a","count":2}`), &b))
	assert.Equal(t, b, a)

	// A type error still stops decoding; the keys seen before it are kept.
	unknown, err = UnmarshalKnown([]byte(`{"nope":1,"count":"3","later":2}`), &s)
	assert.Equal(t, fielderr.Errors{{Field: "nope", Message: "unknown field"}}, unknown)
	assert.Equal(t, fielderr.New("count", "must be an integer, got a string"), err)
	// Malformed JSON inside an unknown key's value is still a syntax error.
	_, err = UnmarshalKnown([]byte(`{"nope":[1,}`), &s)
	assert.ErrorContains(t, err, "invalid JSON")
}

// TestJSONTagReadsAsStructTagGet: jsonTag reads a tag's json value as
// reflect.StructTag.Get does, but for the escapes it refuses.
func TestJSONTagReadsAsStructTagGet(t *testing.T) {
	t.Parallel()
	for _, tag := range []reflect.StructTag{
		``, `json:"name"`, `json:"name,omitempty"`, `json:"-"`, `json:"-,"`, `json:",omitempty"`,
		`xml:"x" json:"y"`, `  json:"y"  `, `json:"a" json:"b"`, `jsonx:"a" json:"b"`, `xml:"a\"b" json:"c"`,
		`json:"a\"b"`, `json:"a\\b"`, `json:"é"`, "json:\"a\tb\"", `json:"unterminated`, `json:name`, `json :"a"`,
		`:"a" json:"b"`, `json:"a"x:"b"`, "json:\"a\nb\"", "json:\"\xff\"", "json:\"a\xffb\\\\\"", `xml:"\q" json:"c"`,
	} {
		assert.Equal(t, tag.Get("json"), jsonTag(tag), "%q", tag)
	}
	// An escape other than \" and \\ (StructTag.Get unquotes "a\nb"):
	// no JSON key of this module's types needs one.
	assert.Equal(t, "", jsonTag(`json:"a\nb"`))
}
