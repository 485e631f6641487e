package calibrate

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/fielderr"
)

// parseImport reads one benchmark tool's result file (imp.Format) into
// its runs, each a serving point. path is the import's field
// ("calibration.imports[0]"); an error names the place in the file under
// path + ".data": the JSON path of a missing or wrong value
// ("calibration.imports[0].data.benchmarks[1].metrics.time_to_first_token_ms"),
// or, for CSV, the row and column. A file is at most spec.MaxImportBytes,
// and gives at most spec.MaxCalibrationPoints runs.
func parseImport(path string, imp spec.BenchmarkImport) ([]spec.ServingMeasurement, error) {
	data := fielderr.Join(path, "data")
	if imp.Data == "" {
		return nil, fielderr.New(data, "is required: the text of the benchmark's result file")
	}
	if len(imp.Data) > spec.MaxImportBytes {
		return nil, fielderr.New(data, "is "+strconv.Itoa(len(imp.Data))+" bytes; at most "+strconv.Itoa(spec.MaxImportBytes))
	}
	var (
		ms  []spec.ServingMeasurement
		err error
	)
	switch imp.Format {
	case spec.FormatVLLMBenchJSON, spec.FormatSGLangBenchJSONL:
		ms, err = readBenchServingJSON(data, imp.Format, imp.Data)
	case spec.FormatGuideLLMJSON:
		ms, err = readGuideLLM(data, imp.Data)
	case spec.FormatAIPerfJSON:
		ms, err = readAIPerfJSON(data, imp.Data)
	case spec.FormatAIPerfCSV:
		ms, err = readAIPerfCSV(data, imp.Data)
	case spec.FormatLLMDReport:
		ms, err = readLLMDReport(data, imp.Data)
	case "":
		return nil, fielderr.New(fielderr.Join(path, "format"), "is required: one of "+strings.Join(spec.ImportFormats[:], ", "))
	default:
		return nil, fielderr.New(fielderr.Join(path, "format"), "must be one of "+strings.Join(spec.ImportFormats[:], ", ")+", got "+fielderr.Quote(imp.Format))
	}
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, fielderr.New(data, "has no benchmark run")
	}
	if len(ms) > spec.MaxCalibrationPoints {
		return nil, fielderr.New(data, "has "+strconv.Itoa(len(ms))+" runs; at most "+strconv.Itoa(spec.MaxCalibrationPoints))
	}
	return ms, nil
}

// ParseImport reads one benchmark result file into its serving points
// (parseImport, rooted at "calibration.imports[0]" for a lone file).
func ParseImport(imp spec.BenchmarkImport) ([]spec.ServingMeasurement, error) {
	return parseImport("calibration.imports[0]", imp)
}

// decodeJSONValues decodes the JSON values of text one after another (a
// JSON file is one; a JSONL file one a line). Python's json module writes
// float('inf') and NaN as the bare words Infinity and NaN, which JSON has
// not: they read as the strings "inf" and "nan" (num treats "inf" as +Inf).
func decodeJSONValues(path, text string) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(pythonJSON(text)))
	var out []any
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fielderr.New(path, "is not JSON: "+fielderr.Truncate(err.Error()))
		}
		out = append(out, v)
		if len(out) > spec.MaxCalibrationPoints {
			return out, nil
		}
	}
}

// decodeDocument decodes text as one JSON document (what names it in the
// error when it holds several).
func decodeDocument(path, text, what string) (jv, error) {
	vals, err := decodeJSONValues(path, text)
	if err != nil {
		return jv{}, err
	}
	if len(vals) != 1 {
		return jv{}, fielderr.New(path, "must be one JSON document ("+what+")")
	}
	return jv{vals[0], path}, nil
}

// pythonJSON replaces the bare Infinity, -Infinity and NaN that Python's
// json.dumps writes (outside strings) with the strings "inf", "-inf" and
// "nan".
func pythonJSON(s string) string {
	if !strings.Contains(s, "Infinity") && !strings.Contains(s, "NaN") {
		return s
	}
	var b bytes.Buffer
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			i++
			c = s[i]
		case c == '"':
			in = !in
		case !in && strings.HasPrefix(s[i:], "-Infinity"):
			b.WriteString(`"-inf"`)
			i += len("-Infinity") - 1
			continue
		case !in && strings.HasPrefix(s[i:], "Infinity"):
			b.WriteString(`"inf"`)
			i += len("Infinity") - 1
			continue
		case !in && strings.HasPrefix(s[i:], "NaN"):
			b.WriteString(`"nan"`)
			i += len("NaN") - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// jv is a decoded JSON value and its path, for reading a file's fields
// with errors that name them.
type jv struct {
	v    any
	path string
}

func (j jv) key(k string) jv {
	m, _ := j.v.(map[string]any)
	return jv{m[k], fielderr.Join(j.path, k)}
}

// at follows keys (each may hold several names, "a|b", the first present
// taken).
func (j jv) at(keys ...string) jv {
	for _, k := range keys {
		alts := strings.Split(k, "|")
		next := j.key(alts[0])
		for _, a := range alts[1:] {
			if next.v != nil {
				break
			}
			next = j.key(a)
		}
		j = next
	}
	return j
}

func (j jv) idx(i int) jv {
	a, _ := j.v.([]any)
	var v any
	if i < len(a) {
		v = a[i]
	}
	return jv{v, j.path + "[" + strconv.Itoa(i) + "]"}
}

func (j jv) list() []any { a, _ := j.v.([]any); return a }

func (j jv) str() string { s, _ := j.v.(string); return s }

// num is the value as a number: a JSON number, or "inf" (Python's
// infinity, see pythonJSON); ok is false when absent, null or not a
// number.
func (j jv) num() (float64, bool) {
	switch x := j.v.(type) {
	case float64:
		return x, true
	case string:
		if x == "inf" {
			return math.Inf(1), true
		}
	}
	return 0, false
}

// reader collects the errors of one file's fields.
type reader struct{ errs fielderr.List }

// need is j's number, which must be finite and at least 0 (above 0 when
// positive); a missing or wrong one is an error at j's path.
func (r *reader) need(j jv, positive bool, what string) float64 {
	x, ok := j.num()
	switch {
	case j.v == nil:
		r.errs.Add(j.path, "is required ("+what+")")
	case !ok || math.IsInf(x, 0) || math.IsNaN(x):
		r.errs.Add(j.path, "must be a number ("+what+")")
	case x < 0 || (positive && x == 0):
		r.errs.Add(j.path, "must be above 0 ("+what+"), got "+fielderr.Number(x))
	default:
		return x
	}
	return 0
}

// opt is j's number when present and finite, else 0; a present value that
// is not a number is an error.
func (r *reader) opt(j jv, what string) float64 {
	if j.v == nil {
		return 0
	}
	x, ok := j.num()
	if !ok || math.IsNaN(x) || x < 0 {
		r.errs.Add(j.path, "must be a number at least 0 ("+what+")")
		return 0
	}
	if math.IsInf(x, 1) {
		return 0
	}
	return x
}

// closedByLittle is the closed loop a run without a stated concurrency
// ran as (all its requests sent at once, or a tool that does not say):
// the mean number in flight, Little's law, completions per second x the
// mean request latency, latency = TTFT + TPOT x (output - 1) when the
// file states no latency.
func closedByLittle(m *spec.ServingMeasurement, latencyMs float64) {
	if latencyMs <= 0 {
		latencyMs = m.TTFTMs + m.TPOTMs*max(m.OutputTokens-1, 0)
	}
	m.Concurrency = max(m.RequestsPerS*latencyMs/1000, 1)
}

// fail returns r's errors with one more at path.
func (r *reader) fail(path, msg string) error {
	r.errs.Add(path, msg)
	return r.errs.Err()
}

func quote(s string) string { return fielderr.Quote(s) }
