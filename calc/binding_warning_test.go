package calc_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

// The warning names the term that binds (issue 35's reproducer, with
// every layer full attention: its 1 full and 4,095 sliding layers now
// form more KV-cache groups than kvcache.MaxGroups and are refused
// first): a model_config of 4,096 layers of hidden 256 weighs under 5
// GiB, but on an H100 SXM vLLM's profiler estimates its CUDA graphs at 102 graphs (max_num_seqs 1,024: the 51 capture sizes
// up to 512, counted for 2 x max_num_seqs and for max_num_seqs) x (4.133
// MiB + 0.166 MiB x 4,096 layers) = 69,775 MiB = 68.14 GiB, which with
// the weights and runtime memory (73.12 GiB) passes the 72.85 GiB that
// gpu_memory_utilization 0.92 leaves. The warning blames the estimate,
// not the weights.
func TestDoesNotFitNamesTheCUDAGraphEstimate(t *testing.T) {
	t.Parallel()
	body, err := json.Marshal(map[string]any{
		"model_config": map[string]any{"model_type": "qwen3", "hidden_size": 256, "num_hidden_layers": 4096, "num_attention_heads": 4,
			"num_key_value_heads": 1, "head_dim": 64, "intermediate_size": 512, "vocab_size": 32000, "max_position_embeddings": 4096,
		},
		"hardware": "h100-sxm", "max_model_len": 4096,
	})
	require.NoError(t, err)
	assert.Less(t, len(body), 34000)
	req, err := calc.ParseRequest(body)
	require.NoError(t, err)
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	assert.False(t, r.Fits)
	assert.InDelta(t, 68.14, float64(r.Memory.CUDAGraphBytes)/(1<<30), 0.005)
	assert.Less(t, float64(r.Memory.WeightsBytes)/(1<<30), 5.0)
	assert.Contains(t, warningsOf(r, "weights_do_not_fit"), "the CUDA-graph memory estimate, 68.14 GiB (4096 layers per GPU at max_num_seqs 1024), with weights and runtime memory needs 73.12 GiB per GPU but only 72.85 GiB is available at gpu_memory_utilization 0.92; lower max_num_seqs (fewer graphs captured) or split the layers over pipeline stages (pipeline_parallel_size)")
}
