package calc_test

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// floorHW is a custom accelerator at the physical floors
// (hardware/validate.go): 1 GB/s, 1 GFLOP/s, a 1 MB/s link with 1 s latency.
const floorHW = `{"memory_bytes": 80000000000, "memory_bandwidth_bytes_per_s": 1e9, "peak_flops": {"bf16": 1e9},
	"interconnect": {"bandwidth_bytes_per_s": 1e6, "latency_s": 1}}`

// extremeRequests are valid but extreme: each must give a finite report
// that carries the extreme_input warning (issue 16: request_rate 1e-300
// gave 5.6e-299 tok/s and a TTFT of 1.8e22 ms without a word).
var extremeRequests = map[string]string{
	"floor hardware, long prompt": `{"model": "llama-3.1-8b", "hardware": ` + floorHW + `, "workload": {"input_tokens": 100000, "output_tokens": 10}}`,
	"floor hardware at TP 2":      `{"model": "llama-3.1-8b", "hardware": ` + floorHW + `, "tensor_parallel_size": 2, "workload": {"input_tokens": 100000}}`,
	"floor request rate, simulated": `{"model": "llama-3.1-8b", "hardware": "h100-sxm", "workload": {"request_rate": 1e-6},
		"simulate": {"num_requests": 50}}`,
	"floor sweep rate": `{"model": "llama-3.1-8b", "hardware": "h100-sxm",
		"simulate": {"arrival": "poisson", "request_rate": 1e-6, "num_requests": 20, "sweep": {"request_rates": [1e-6, 1]}}}`,
	"floor hardware, simulated, priced": `{"model": "llama-3.1-8b", "hardware": ` + floorHW + `, "gpu_hour_usd": 1000000,
		"workload": {"input_tokens": 100000, "output_tokens": 100}, "simulate": {"num_requests": 5}}`,
}

func TestExtremeButValidInputGivesAFiniteReportWithAWarning(t *testing.T) {
	t.Parallel()
	for name, body := range extremeRequests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req, err := calc.ParseRequest([]byte(body))
			require.NoError(t, err)
			r, err := calc.Evaluate(req)
			require.NoError(t, err)
			assertFinite(t, r)
			codes := []string{}
			for _, w := range r.Warnings {
				codes = append(codes, w.Code)
			}
			assert.Contains(t, codes, "extreme_input")
		})
	}
}

// A request rate of 1 per second is not extreme.
func TestOrdinaryReportHasNoExtremeWarning(t *testing.T) {
	t.Parallel()
	req, err := calc.ParseRequest([]byte(`{"model": "llama-3.1-8b", "hardware": "h100-sxm", "workload": {"request_rate": 1}, "simulate": {"num_requests": 50}}`))
	require.NoError(t, err)
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	for _, w := range r.Warnings {
		assert.NotEqual(t, "extreme_input", w.Code, w.Message)
	}
}

// assertFinite fails when any number in the report is NaN or ±Inf, walking
// it by reflection and, independently, through encoding/json (which refuses
// both).
func assertFinite(t testing.TB, r calc.Report) {
	t.Helper()
	_, err := json.Marshal(r)
	require.NoError(t, err, "the report does not marshal")
	walkFloats(reflect.ValueOf(r), "", func(path string, f float64) {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			t.Errorf("%s is %v", path, f)
		}
	})
}

func walkFloats(v reflect.Value, path string, fn func(string, float64)) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		fn(path, v.Float())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkFloats(v.Elem(), path, fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkFloats(v.Field(i), path+"."+v.Type().Field(i).Name, fn)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkFloats(v.Index(i), path+"[]", fn)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walkFloats(it.Value(), path+"."+it.Key().String(), fn)
		}
	}
}
