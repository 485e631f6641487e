package evaluate

import (
	"encoding/json"
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
)

// FuzzEvaluateJSON feeds arbitrary JSON requests through ParseRequest and
// Evaluate: nothing may panic, and a report never holds NaN or Inf.
//
//	go test -run '^$' -fuzz FuzzEvaluateJSON -fuzztime 60s ./calc/
func FuzzEvaluateJSON(f *testing.F) {
	seeds := []string{
		`{"model":"llama-3.1-8b","hardware":"h100-sxm"}`,
		`{"model":"deepseek-ai/DeepSeek-V2-Lite-Chat","hardware":"a100-sxm-80gb","kv_cache_dtype":"fp8","workload":{"input_tokens":4000,"output_tokens":1000,"concurrency":300}}`,
		`{"model":"google/gemma-3-12b-it","hardware":"l40s","tensor_parallel_size":2,"slo":{"ttft_ms":200,"tpot_ms":30},"gpu_hour_usd":1.2}`,
		`{"model":"openai/gpt-oss-120b","hardware":"h200","workload":{"request_rate":20},"sweep":{"points":256}}`,
		`{"model":"Qwen/Qwen3-Next-80B-A3B-Thinking","hardware":"b200","pipeline_parallel_size":2,"block_size":32}`,
		`{"model_config":{"model_type":"llama","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100,"max_position_embeddings":512},"hardware":{"memory_bytes":1e9,"memory_bandwidth_bytes_per_s":1e11,"peak_flops":{"bf16":1e13}}}`,
		`{"model":"llama-3.1-8b","hardware":"rtx-4090","engine":"llamacpp","quantization":"q4_k_m","max_model_len":1e300}`,
		// Issue 16: tiny figures, tiny rates, fractional config integers.
		`{"model":"llama-3.1-8b","hardware":{"memory_bytes":80e9,"memory_bandwidth_bytes_per_s":1e-300,"peak_flops":{"bf16":1e-300}}}`,
		`{"model":"llama-3.1-8b","hardware":{"memory_bytes":80e9,"memory_bandwidth_bytes_per_s":1e9,"peak_flops":{"bf16":1e9},"interconnect":{"bandwidth_bytes_per_s":1e6,"latency_s":1}},"tensor_parallel_size":2}`,
		`{"model":"llama-3.1-8b","hardware":"h100-sxm","simulate":{"arrival":"poisson","request_rate":1e-320}}`,
		`{"model":"llama-3.1-8b","hardware":"h100-sxm","workload":{"request_rate":1e-6},"simulate":{"num_requests":20}}`,
		`{"model_config":{"model_type":"llama","hidden_size":4096,"num_hidden_layers":2,"num_attention_heads":32,"num_key_value_heads":8.5,"head_dim":127.5,"intermediate_size":128,"vocab_size":100,"max_position_embeddings":512},"hardware":"h100-sxm"}`,
		`{"model":"llama-3.1-8b","hardware":"h100-sxm","max_num_seqs":9007199254740993,"gpu_hour_usd":-Infinity}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := ParseRequest(data)
		if err != nil {
			return
		}
		rep, err := Evaluate(req)
		if err != nil {
			if _, ok := err.(spec.Errors); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		// encoding/json refuses NaN and ±Inf: a report that marshals holds
		// none.
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("report does not marshal: %v", err)
		}
	})
}
