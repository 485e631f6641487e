package bridge

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf16"
	"unsafe"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/jsongen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readTape decodes a tape as throughput.js's decodeTape does, into the
// values encoding/json's Unmarshal makes (map[string]any, []any, float64,
// string, bool, nil).
// The keys are those tapeKeysJSON gives JavaScript at load.
func readTape(t *tape) any {
	var allKeys []string
	if err := json.Unmarshal([]byte(tapeKeysJSON()), &allKeys); err != nil {
		panic(err)
	}
	i := 0
	units := utf16.Encode([]rune(string(t.blob)))
	p := 0
	var value func() any
	value = func() any {
		op := t.words[i]
		i++
		switch op {
		case tapeNull:
			return nil
		case tapeFalse:
			return false
		case tapeTrue:
			return true
		case tapeNumber:
			i++
			return t.words[i-1]
		case tapeString:
			n := int(t.words[i])
			i++
			s := string(utf16.Decode(units[p : p+n]))
			p += n
			return s
		case tapeArray:
			n := int(t.words[i])
			i++
			a := make([]any, n)
			for k := range a {
				a[k] = value()
			}
			return a
		case tapeObject:
			n := int(t.words[i])
			i++
			o := make(map[string]any, n)
			for range n {
				key := allKeys[int(t.words[i])]
				i++
				o[key] = value()
			}
			return o
		}
		panic("bad tape op")
	}
	v := value()
	if i != len(t.words) || p != len(units) {
		panic("tape not consumed")
	}
	return v
}

// TestTapeMatchesMarshal: the tape of a report decodes to what
// json.Unmarshal makes of json.Marshal's text, for random reports with every
// field set and for the golden reports.
func TestTapeMatchesMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(name string, r *calc.Report) {
		t.Helper()
		text, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var want any
		if err := json.Unmarshal(text, &want); err != nil {
			t.Fatal(err)
		}
		var tp tape
		tapeReport(&tp, r)
		if tp.err != nil {
			t.Fatal(tp.err)
		}
		if got := readTape(&tp); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: tape decodes to\n%v\nwant\n%v", name, got, want)
		}
	}
	for i := range 300 {
		var r calc.Report
		jsongen.Fill(rng, reflect.ValueOf(&r).Elem(), i%3 == 0)
		check("random", &r)
	}
	for _, r := range goldenReports(t) {
		check(r.Model.ID, &r)
	}
}

func TestTapeStringsCountUTF16Units(t *testing.T) {
	t.Parallel()
	var tp tape
	tp.string("a\xffb𝄞\u2028")
	if got, want := tp.words[1], 6.0; got != want { // a, U+FFFD, b, 2 for U+1D11E, U+2028
		t.Errorf("UTF-16 length %v, want %v", got, want)
	}
	if string(tp.blob) != "a\uFFFDb𝄞\u2028" {
		t.Errorf("blob %q", tp.blob)
	}
}

func TestEvaluateTapePublishesTheHeader(t *testing.T) {
	data := goldenRequest(t, "dense-llama-3.1-8b-h100")
	ptr, err := evaluateTape(string(data), calc.DefaultWorkBudget)
	if err != nil {
		t.Fatal(err)
	}
	if ptr != uint32(uintptr(unsafe.Pointer(&reportHeader))) {
		t.Errorf("returned %#x, not the header's address", ptr)
	}
	h := &reportHeader
	if h[1] != uint32(len(reportTape.words)) || h[3] != uint32(len(reportTape.blob)) || h[1] < 64*8 {
		t.Errorf("header %v for %d words, %d bytes", *h, len(reportTape.words), len(reportTape.blob))
	}
	if _, err := evaluateTape(`{"model":"x"}`, calc.DefaultWorkBudget); err == nil {
		t.Error("a bad request gave no error")
	}
}

// TestTapeLightEngineSkipsFullSections: without WriteFullSections (the
// light engine's main) the tape leaves out the sections only the full
// engine fills, even when set, and writes the rest, the bands included,
// as encoding/json does; with it, every section.
func TestTapeLightEngineSkipsFullSections(t *testing.T) {
	full, fullKeys := tapeFull, tapeFullKeyNames
	t.Cleanup(func() { tapeFull, tapeFullKeyNames = full, fullKeys })
	r := calc.Report{
		Version:     "v",
		Simulation:  &calc.SimulationReport{NumRequests: 3},
		StartupLog:  &calc.StartupLogReport{},
		Calibration: &calc.CalibrationReport{},
		Bands:       []calc.Band{{Figure: "decode.step_time_ms", Low: 1, High: 2, Basis: "b"}},
	}
	keys := func() map[string]any {
		var tp tape
		tapeReport(&tp, &r)
		require.NoError(t, tp.err)
		return readTape(&tp).(map[string]any)
	}
	tapeFull, tapeFullKeyNames = nil, nil
	light := keys()
	for _, k := range []string{"simulation", "startup_log", "calibration"} {
		assert.NotContains(t, light, k)
	}
	assert.Equal(t, []any{map[string]any{"figure": "decode.step_time_ms", "low": 1.0, "high": 2.0, "basis": "b"}}, light["bands"])
	WriteFullSections()
	got := keys()
	for _, k := range []string{"simulation", "startup_log", "calibration", "bands"} {
		assert.Contains(t, got, k)
	}
	assert.Equal(t, 3.0, got["simulation"].(map[string]any)["num_requests"])
}

// TestTapeKeysJSONFullKeys: the light engine's key table is tapeKeys
// alone; the full engine's continues it with tapeFullKeys, the keys only
// its sections use (the simulation's "arrival" among them).
func TestTapeKeysJSONFullKeys(t *testing.T) {
	full, fullKeys := tapeFull, tapeFullKeyNames
	t.Cleanup(func() { tapeFull, tapeFullKeyNames = full, fullKeys })
	keys := func() []string {
		var k []string
		require.NoError(t, json.Unmarshal([]byte(tapeKeysJSON()), &k))
		return k
	}
	tapeFull, tapeFullKeyNames = nil, nil
	assert.Equal(t, tapeKeys, keys())
	assert.NotContains(t, tapeKeys, "arrival")
	WriteFullSections()
	assert.Equal(t, append(append([]string{}, tapeKeys...), tapeFullKeys...), keys())
	assert.Contains(t, tapeFullKeys, "arrival")
}
