package evaluate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func goodRequest() spec.Request {
	return spec.Request{Model: "llama-3.1-8b", Hardware: spec.HardwareRef{ID: "h100-sxm"}}
}

// Every invalid field is answered by an error naming it; nothing panics and
// no partial report comes back.
func TestBadRequestsNameTheirField(t *testing.T) {
	t.Parallel()
	custom := func(edit func(a *hardware.Accelerator)) spec.HardwareRef {
		a, err := hardware.Lookup("h100-sxm")
		if err != nil {
			panic(err)
		}
		edit(&a)
		return spec.HardwareRef{Custom: &a}
	}
	tests := []struct {
		name  string
		edit  func(r *spec.Request)
		field string
		msg   string // substring of the message
	}{
		{"no model", func(r *spec.Request) { r.Model = "" }, "model", "is required"},
		{"model and config", func(r *spec.Request) { r.ModelConfig = map[string]any{"hidden_size": 1.0} }, "model", "not both"},
		{"unknown model", func(r *spec.Request) { r.Model = "gpt-7" }, "model", `unknown model "gpt-7"`},
		{"config missing field", func(r *spec.Request) {
			r.Model = ""
			r.ModelConfig = map[string]any{"model_type": "llama2x", "num_hidden_layers": 2.0}
		}, "model_config.hidden_size", "missing"},
		{"config huge layers", func(r *spec.Request) {
			r.Model = ""
			r.ModelConfig = map[string]any{"hidden_size": 64.0, "num_hidden_layers": 1e9, "num_attention_heads": 1.0, "vocab_size": 10.0, "intermediate_size": 10.0, "max_position_embeddings": 10.0}
		}, "model_config.num_hidden_layers", "maximum"},
		{"no hardware", func(r *spec.Request) { r.Hardware = spec.HardwareRef{} }, "hardware", "is required"},
		{"unknown hardware", func(r *spec.Request) { r.Hardware = spec.HardwareRef{ID: "tpu-v99"} }, "hardware", "unknown hardware"},
		{"ambiguous hardware", func(r *spec.Request) { r.Hardware = spec.HardwareRef{ID: "A100"} }, "hardware", "a100"},
		{"custom zero bandwidth", func(r *spec.Request) {
			r.Hardware = custom(func(a *hardware.Accelerator) { a.MemoryBandwidthBytesPerS = 0 })
		}, "hardware.memory_bandwidth_bytes_per_s", ""},
		{"custom NaN memory", func(r *spec.Request) {
			r.Hardware = custom(func(a *hardware.Accelerator) { a.MemoryBytes = hardware.Bytes(math.NaN()) })
		}, "hardware.memory_bytes", ""},
		{"custom negative flops", func(r *spec.Request) {
			r.Hardware = custom(func(a *hardware.Accelerator) { a.PeakFLOPS.BF16 = -1 })
		}, "hardware.peak_flops.bf16", ""},
		{"unknown engine", func(r *spec.Request) { r.Engine = "ollama" }, "engine", "one of"},
		{"tp zero", func(r *spec.Request) { r.TensorParallelSize = spec.Int(0) }, "tensor_parallel_size", "at least 1"},
		{"scheduler steps zero", func(r *spec.Request) { r.NumSchedulerSteps = spec.Int(0) }, "num_scheduler_steps", "at least 1"},
		{"scheduler steps huge", func(r *spec.Request) {
			r.Engine, r.EngineVersion, r.NumSchedulerSteps = "vllm", "0.6", spec.Int(1025)
		}, "num_scheduler_steps", "at most 1024"},
		{"scheduler steps under V1", func(r *spec.Request) { r.NumSchedulerSteps = spec.Int(8) }, "num_scheduler_steps", "V0 engine"},
		{"scheduler steps under sglang", func(r *spec.Request) { r.Engine, r.NumSchedulerSteps = "sglang", spec.Int(8) }, "num_scheduler_steps", "V0 engine"},
		{"tp negative", func(r *spec.Request) { r.TensorParallelSize = spec.Int(-2) }, "tensor_parallel_size", "at least 1"},
		{"tp huge", func(r *spec.Request) { r.TensorParallelSize = spec.Int(1 << 20) }, "tensor_parallel_size", "at most"},
		{"tp not dividing heads", func(r *spec.Request) { r.TensorParallelSize = spec.Int(3) }, "tensor_parallel_size", "does not divide"},
		{"tp vs kv heads", func(r *spec.Request) { r.Model = "Qwen/Qwen2.5-7B-Instruct"; r.TensorParallelSize = spec.Int(7) }, "tensor_parallel_size", ""},
		{"pp zero", func(r *spec.Request) { r.PipelineParallelSize = spec.Int(0) }, "pipeline_parallel_size", "at least 1"},
		{"pp above layers", func(r *spec.Request) { r.PipelineParallelSize = spec.Int(64) }, "pipeline_parallel_size", "exceeds"},
		{"bad dtype", func(r *spec.Request) { r.Dtype = "int4" }, "dtype", "unknown dtype"},
		{"bad quantization", func(r *spec.Request) { r.Quantization = "int3" }, "quantization", "unknown quantization"},
		{"quantization on quantized", func(r *spec.Request) { r.Model = "openai/gpt-oss-20b"; r.Quantization = "awq" }, "quantization", "already quantized"},
		{"bad kv dtype", func(r *spec.Request) { r.KVCacheDtype = "int2" }, "kv_cache_dtype", "unknown kv_cache_dtype"},
		{"util zero", func(r *spec.Request) { r.GPUMemoryUtilization = spec.Float(0) }, "gpu_memory_utilization", "greater than 0"},
		{"util above one", func(r *spec.Request) { r.GPUMemoryUtilization = spec.Float(1.5) }, "gpu_memory_utilization", "at most 1"},
		{"util NaN", func(r *spec.Request) { r.GPUMemoryUtilization = spec.Float(math.NaN()) }, "gpu_memory_utilization", "finite"},
		{"util Inf", func(r *spec.Request) { r.GPUMemoryUtilization = spec.Float(math.Inf(1)) }, "gpu_memory_utilization", "finite"},
		{"block size zero", func(r *spec.Request) { r.BlockSize = spec.Int(0) }, "block_size", "at least 1"},
		{"block size odd", func(r *spec.Request) { r.BlockSize = spec.Int(24) }, "block_size", "power of two"},
		{"max_model_len zero", func(r *spec.Request) { r.MaxModelLen = spec.Int(0) }, "max_model_len", "at least 1"},
		{"max_model_len above model", func(r *spec.Request) { r.MaxModelLen = spec.Int(1 << 20) }, "max_model_len", "max_position_embeddings"},
		{"max_num_seqs zero", func(r *spec.Request) { r.MaxNumSeqs = spec.Int(0) }, "max_num_seqs", "at least 1"},
		{"batched below seqs", func(r *spec.Request) { r.MaxNumSeqs = spec.Int(512); r.MaxNumBatchedTokens = spec.Int(256) }, "max_num_batched_tokens", "at least max_num_seqs"},
		{"input zero", func(r *spec.Request) { r.Workload = &spec.Workload{InputTokens: spec.Int(0)} }, "workload.input_tokens", "at least 1"},
		{"output negative", func(r *spec.Request) { r.Workload = &spec.Workload{OutputTokens: spec.Int(-5)} }, "workload.output_tokens", "at least 1"},
		{"sequence above max_model_len", func(r *spec.Request) {
			r.MaxModelLen = spec.Int(2048)
			r.Workload = &spec.Workload{InputTokens: spec.Int(2000), OutputTokens: spec.Int(100)}
		}, "workload.output_tokens", "exceeds max_model_len"},
		{"concurrency zero", func(r *spec.Request) { r.Workload = &spec.Workload{Concurrency: spec.Int(0)} }, "workload.concurrency", "at least 1"},
		{"rate and concurrency", func(r *spec.Request) {
			r.Workload = &spec.Workload{Concurrency: spec.Int(4), RequestRate: spec.Float(2)}
		}, "workload.request_rate", "not both"},
		{"rate negative", func(r *spec.Request) { r.Workload = &spec.Workload{RequestRate: spec.Float(-1)} }, "workload.request_rate", "must be at least 1e-06 requests/s, got -1"},
		{"rate NaN", func(r *spec.Request) { r.Workload = &spec.Workload{RequestRate: spec.Float(math.NaN())} }, "workload.request_rate", "finite"},
		{"ttft zero", func(r *spec.Request) { r.SLO = &spec.SLO{TTFTMs: spec.Float(0)} }, "slo.ttft_ms", "greater than 0"},
		{"tpot Inf", func(r *spec.Request) { r.SLO = &spec.SLO{TPOTMs: spec.Float(math.Inf(1))} }, "slo.tpot_ms", "finite"},
		{"price negative", func(r *spec.Request) { r.GPUHourUSD = spec.Float(-2) }, "gpu_hour_usd", "at least 0"},
		{"price huge", func(r *spec.Request) { r.GPUHourUSD = spec.Float(1e12) }, "gpu_hour_usd", "at most"},
		{"sweep points one", func(r *spec.Request) { r.Sweep = &spec.SweepOptions{Points: spec.Int(1)} }, "sweep.points", "at least 2"},
		{"sweep points huge", func(r *spec.Request) { r.Sweep = &spec.SweepOptions{Points: spec.Int(1 << 20)} }, "sweep.points", "at most"},
		{"sweep max zero", func(r *spec.Request) { r.Sweep = &spec.SweepOptions{MaxBatchSize: spec.Int(0)} }, "sweep.max_batch_size", "at least 1"},
		{"tp on single-chip hardware", func(r *spec.Request) { r.Hardware = spec.HardwareRef{ID: "m4-max"}; r.TensorParallelSize = spec.Int(2) }, "tensor_parallel_size", "interconnect"},
	}
	require.GreaterOrEqual(t, len(tests), 30)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := goodRequest()
			tc.edit(&req)
			rep, err := Evaluate(req)
			require.Error(t, err)
			assert.ErrorIs(t, err, spec.ErrInvalidRequest)
			var list spec.Errors
			require.True(t, errors.As(err, &list))
			var found *spec.FieldError
			for i := range list {
				if list[i].Field == tc.field {
					found = &list[i]
				}
			}
			require.NotNil(t, found, "no error for %q in %v", tc.field, list)
			assert.Contains(t, strings.ToLower(found.Message), strings.ToLower(tc.msg))
			assert.Equal(t, spec.Report{}, rep, "no partial report")
		})
	}
}

// Several bad fields are all reported at once.
func TestAllErrorsReported(t *testing.T) {
	t.Parallel()
	req := goodRequest()
	req.TensorParallelSize = spec.Int(0)
	req.GPUMemoryUtilization = spec.Float(2)
	req.Engine = "nope"
	_, err := Evaluate(req)
	var list spec.Errors
	require.True(t, errors.As(err, &list))
	fields := map[string]bool{}
	for _, f := range list {
		fields[f.Field] = true
	}
	assert.True(t, fields["tensor_parallel_size"])
	assert.True(t, fields["gpu_memory_utilization"])
	assert.True(t, fields["engine"])
}

// One bad call does not poison the next.
func TestBadCallDoesNotPoisonNext(t *testing.T) {
	t.Parallel()
	bad := goodRequest()
	bad.Model = "nope"
	_, err := Evaluate(bad)
	require.Error(t, err)
	rep, err := Evaluate(goodRequest())
	require.NoError(t, err)
	assert.True(t, rep.Fits)
}

func TestParseRequestStrict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, field, msg string
	}{
		{"unknown top-level key", `{"model":"llama-3.1-8b","hardware":"h100","colour":"red"}`, "colour", "unknown field"},
		{"unknown nested key", `{"model":"llama-3.1-8b","hardware":"h100","workload":{"input":5}}`, "workload.input", "unknown field"},
		{"wrong type", `{"model":"llama-3.1-8b","hardware":"h100","tensor_parallel_size":"two"}`, "tensor_parallel_size", "integer"},
		{"fraction for int", `{"model":"llama-3.1-8b","hardware":"h100","max_num_seqs":2.5}`, "max_num_seqs", "integer"},
		{"unknown hardware key", `{"model":"llama-3.1-8b","hardware":{"id":"x","memory_bytes":80000000000,"memory_bandwidth_bytes_per_s":2000000000000,"peak_flops":{"bf16":1e15},"speed":3}}`, "hardware.speed", "unknown field"},
		{"hardware neither string nor object", `{"model":"llama-3.1-8b","hardware":5}`, "hardware", "a string) or an object"},
		{"nested type", `{"model":"llama-3.1-8b","hardware":{"peak_flops":{"bf16":"fast"}}}`, "hardware.peak_flops.bf16", "must be a number"},
		{"sweep type", `{"model":"llama-3.1-8b","hardware":"h100","sweep":{"points":true}}`, "sweep.points", "integer"},
		{"syntax", `{"model":`, "", "JSON"},
		{"empty", ``, "", "empty"},
		{"trailing", `{"model":"a"} {}`, "", "after"},
		{"array", `[1,2]`, "", "must be an object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseRequest([]byte(tc.body))
			var list spec.Errors
			require.True(t, errors.As(err, &list), "got %v", err)
			require.Len(t, list, 1)
			assert.Equal(t, tc.field, list[0].Field)
			assert.Contains(t, strings.ToLower(list[0].Message), strings.ToLower(tc.msg))
		})
	}
	big := `{"model":"` + strings.Repeat("x", MaxRequestBytes) + `"}`
	_, err := ParseRequest([]byte(big))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "limit")

	r, err := ParseRequest([]byte(`{"model":"llama-3.1-8b","hardware":"H100 SXM","tensor_parallel_size":2,"workload":{"input_tokens":100}}`))
	require.NoError(t, err)
	assert.Equal(t, "H100 SXM", r.Hardware.ID)
	assert.Equal(t, 2, *r.TensorParallelSize)
	assert.Equal(t, 100, *r.Workload.InputTokens)
}

func TestAbsurdConfigRejected(t *testing.T) {
	t.Parallel()
	req := spec.Request{Hardware: spec.HardwareRef{ID: "h100"}, ModelConfig: map[string]any{
		"hidden_size": float64(1 << 20), "num_hidden_layers": 4096.0, "num_attention_heads": 1024.0,
		"intermediate_size": float64(1 << 20), "vocab_size": 1000.0, "max_position_embeddings": 4096.0,
		"num_local_experts": 16384.0, "num_experts_per_tok": 2.0,
	}}
	_, err := Evaluate(req)
	var list spec.Errors
	require.True(t, errors.As(err, &list))
	assert.Equal(t, "model_config", list[0].Field)
	assert.Contains(t, list[0].Message, "parameters")
}
