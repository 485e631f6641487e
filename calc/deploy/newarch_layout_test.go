package deploy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/kvcache"
)

// Nemotron 3 Nano (nemotron_h, vLLM 0.19 nemotron_h.py): 52 blocks, of
// which only the 6 attention blocks keep KV and the 23 Mamba-2 blocks a
// state; the 23 MoE blocks keep nothing. Worked by hand from the config
// (hidden 2688, 2 KV heads of 128, mamba_num_heads 64 x mamba_head_dim 64
// = d_inner 4096, n_groups 8, ssm_state_size 128, conv_kernel 4,
// mamba_ssm_cache_dtype float32, bf16 model):
//
//	KV per token:  6 layers * 2 (K,V) * 2 heads * 128 * 2 B     =      6,144 B
//	conv state:    (4096 + 2*8*128) * (4-1) = 18,432 elems * 2 B =     36,864 B
//	SSM state:     64 * 64 * 128 = 524,288 elems * 4 B (fp32)   =  2,097,152 B
//	state/layer:                                                  2,134,016 B
//	state/seq:     23 * 2,134,016                                = 49,082,368 B
//	block size:    16 * ceil(2,134,016 / (16 * 1,024 B))         = 16 * 131 = 2,096
//
// (vLLM HybridAttentionMambaModelConfig: the attention block grows until
// one attention page, 1,024 B per token of one layer, holds a Mamba
// state.) Groups: 6 attention layers and 23 Mamba layers; 23 >= 1.25 * 6,
// so groups of 6: one attention group and ceil(23/6) = 4 Mamba groups.
func TestNemotronHNanoLayout(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	k := rep.KVCache
	assert.InDelta(t, 6144, k.BytesPerToken, 0)
	assert.InDelta(t, 49_082_368, k.StateBytesPerSequence, 0)
	assert.Equal(t, 2096, k.BlockSize)
	require.Len(t, k.Groups, 5)
	layers := map[string][]int{}
	for _, g := range k.Groups {
		layers[g.Kind] = append(layers[g.Kind], g.Layers)
	}
	assert.Equal(t, map[string][]int{"full_attention": {6}, "state": {6, 6, 6, 5}}, layers)
	assert.Equal(t, "hybrid+moe", rep.Model.Architecture)

	// At tp=2 each rank keeps one of the 2 KV heads and half the Mamba
	// heads and groups: 6 * 2 * 1 * 128 * 2 = 3,072 B per token per GPU,
	// and 1,067,008 B of state per layer, so the block stays
	// 16 * ceil(1,067,008 / (16 * 512)) = 2,096 tokens.
	rep2 := eval(t, spec.Request{Model: "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192), TensorParallelSize: spec.Int(2)})
	assert.InDelta(t, 3072, rep2.KVCache.BytesPerTokenPerGPU, 0)
	assert.InDelta(t, 49_082_368, rep2.KVCache.StateBytesPerSequence, 0)
	assert.Equal(t, 2096, rep2.KVCache.BlockSize)
}

// Nemotron-H 56B: the config names no mamba_ssm_cache_dtype, so the SSM
// state is kept in the model dtype here (bf16):
//
//	KV per token:  10 * 2 * 8 heads * 128 * 2 B                         =      40,960 B
//	state/layer:   ((16384 + 2*8*256) * 3 + 256 * 64 * 256) * 2 B
//	             = (61,440 + 4,194,304) * 2                             =   8,511,488 B
//	state/seq:     54 * 8,511,488                                       = 459,620,352 B
//
// The 54 squared-ReLU MLP blocks keep nothing.
func TestNemotronH56BLayout(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "nvidia/Nemotron-H-56B-Base-8K", Hardware: spec.HardwareRef{ID: "h200"}, TensorParallelSize: spec.Int(2), MaxModelLen: spec.Int(8192)})
	assert.InDelta(t, 40960, rep.KVCache.BytesPerToken, 0)
	assert.InDelta(t, 459_620_352, rep.KVCache.StateBytesPerSequence, 0)
	assert.Equal(t, "hybrid", rep.Model.Architecture)
}

// Gemma 4 31B (vLLM 0.19 gemma4.py): 50 sliding layers (window 1024) of
// 16 KV heads x 256 and 10 full-attention layers of
// num_global_key_value_heads 4 x global_head_dim 512 (attention_k_eq_v:
// the checkpoint has no v_proj but vLLM stores V, a copy of K, in the
// cache):
//
//	sliding: 50 * 2 * 16 * 256 * 2 B = 50 * 16,384 = 819,200 B per token
//	full:    10 * 2 *  4 * 512 * 2 B = 10 *  8,192 =  81,920 B per token
//	total                                           = 901,120 B per token
//
// Pages are uniform (vLLM unify_kv_cache_spec_page_size): a sliding page
// is 16 tokens * 16,384 B = 262,144 B; a full-attention layer costs half
// as much per token, so its blocks hold 32 tokens. Groups of the smallest
// type's 10 layers: 5 sliding groups and 1 full group.
func TestGemma4Layout(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "google/gemma-4-31B-it", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	k := rep.KVCache
	assert.InDelta(t, 901_120, k.BytesPerToken, 0)
	assert.Equal(t, 16, k.BlockSize)
	require.Len(t, k.Groups, 6)
	assert.Equal(t, spec.KVGroup{Kind: "sliding_attention", Layers: 10, Window: 1024}, k.Groups[0])
	assert.Equal(t, spec.KVGroup{Kind: "full_attention", Layers: 10}, k.Groups[5])

	d, err := Resolve(spec.Request{Model: "google/gemma-4-31B-it", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	lay := d.Layout()
	assert.InDelta(t, 16*16384.0, lay.PageBytes, 0)
	assert.Equal(t, 32, lay.Groups[5].BlockSize)
	// One 8,000-token sequence in decode: each sliding group keeps
	// ceil((1024-1+1)/16) + 1 = 65 blocks, the full group ceil(8000/32) =
	// 250: 5 * 65 + 250 = 575.
	assert.Equal(t, int64(575), lay.BlocksFor(8000, 1))
	// Per request of 8,192 tokens with 8,192 batched: sliding
	// ceil(min(1023+8192, 8192)/16)+1 = 513 per group, full 8192/32 = 256.
	assert.Equal(t, int64(5*513+256), lay.MaxBlocksPerRequest(8192, 8192))
}

// Gemma 4 26B-A4B: 25 sliding layers of 8 KV heads x 256 and 5 full
// layers of 2 x 512: 25 * 2*8*256*2 + 5 * 2*2*512*2 = 204,800 + 20,480 =
// 225,280 B per token. A full layer costs 4,096 B per token against
// 8,192 for a sliding one: 32-token blocks.
func TestGemma4MoELayout(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "google/gemma-4-26B-A4B", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	lay := d.Layout()
	assert.InDelta(t, 225_280, lay.BytesPerToken, 0)
	require.Len(t, lay.Groups, 6)
	assert.Equal(t, kvcache.Group{Kind: kvcache.Full, Layers: 5, BlockSize: 32}, lay.Groups[5])
}

// Layers that share an earlier layer's cache (num_kv_shared_layers, vLLM
// kv_sharing_target_layer_name) keep none: a Gemma 4 text config of 6
// layers whose last 2 share holds 4 layers' KV, 2 * 2 * 256 * 2 B each.
func TestSharedKVLayersKeepNoCache(t *testing.T) {
	t.Parallel()
	cfg := map[string]any{
		"model_type": "gemma4_text", "hidden_size": 512.0, "intermediate_size": 1024.0,
		"num_hidden_layers": 6.0, "num_attention_heads": 4.0, "num_key_value_heads": 2.0,
		"head_dim": 256.0, "vocab_size": 1000.0, "max_position_embeddings": 4096.0,
		"sliding_window": 512.0, "num_kv_shared_layers": 2.0,
		"layer_types": []any{"sliding_attention", "sliding_attention", "full_attention", "sliding_attention", "sliding_attention", "full_attention"},
	}
	rep := eval(t, spec.Request{ModelConfig: cfg, Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(4096)})
	assert.InDelta(t, 4*2*2*256*2, rep.KVCache.BytesPerToken, 0)
}

// Llama 3.3 Nemotron Super 49B (DeciLM, vLLM 0.19 nemotron_nas.py): 49 of
// its 80 blocks attend, each with 64 / n_heads_in_group 8 = 8 KV heads of
// 128; the 31 no-op attention blocks keep no cache:
// 49 * 2 * 8 * 128 * 2 B = 200,704 B per token, one group of 49 layers.
func TestNemotronNASLayout(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "nvidia/Llama-3_3-Nemotron-Super-49B-v1", Hardware: spec.HardwareRef{ID: "h200"}, TensorParallelSize: spec.Int(2), MaxModelLen: spec.Int(8192)})
	assert.InDelta(t, 200_704, rep.KVCache.BytesPerToken, 0)
	assert.InDelta(t, 100_352, rep.KVCache.BytesPerTokenPerGPU, 0)
	assert.Equal(t, []spec.KVGroup{{Kind: "full_attention", Layers: 49}}, rep.KVCache.Groups)
}

// A published vLLM report for Gemma 4 31B (vllm-project/vllm issue
// #43308: cyankiwi/gemma-4-31B-it-AWQ-4bit on an A100 80GB,
// gpu_memory_utilization 0.9): with about 50 GB of KV cache memory vLLM
// v0.20.0 reported a "GPU KV cache size" of about 55k tokens (v0.21.0
// changed the allocation and reported about 525k; the engine models the
// 0.19/0.20 layout). By hand: 50 GiB / (262,144 B per page * 10 layers per
// block) = 20,480 blocks; 20,480 / 6 groups * 16 = 54,608 tokens. The
// report's figures are rounded ("~50 GB", "~55k"), so the check allows 5 %.
func TestGemma4MatchesPublishedVLLMReport(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "google/gemma-4-31B-it", Hardware: spec.HardwareRef{ID: "h200"}, MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	lay := d.Layout()
	blocks := lay.NumBlocks(50 * (1 << 30))
	assert.Equal(t, int64(20480), blocks)
	assert.Equal(t, int64(54_608), lay.CapacityTokens(blocks))
	assert.InEpsilon(t, 55_000, float64(lay.CapacityTokens(blocks)), 0.05)
}

// A pipeline stage made only of MLP blocks keeps no cache: Llama 3.3
// Nemotron Super 49B at pp=8 has layers 60-69 all no-op attention, so
// that stage does not bound the pool (10 layers per stage; the other
// stages hold 2 to 10 attention layers each).
func TestStageWithoutCacheLayers(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "nvidia/Llama-3_3-Nemotron-Super-49B-v1", Hardware: spec.HardwareRef{ID: "h200"}, PipelineParallelSize: spec.Int(8), MaxModelLen: spec.Int(8192)})
	require.NoError(t, err)
	assert.Positive(t, d.NumBlocks)
	assert.Empty(t, d.stages[6].layout.Groups)
	assert.NotEqual(t, 6, d.tight)
}

// A block list with neither attention nor Mamba blocks has no cache to
// size: the error names the model.
func TestModelWithoutCacheLayers(t *testing.T) {
	t.Parallel()
	cfg := map[string]any{
		"model_type": "nemotron_h", "hidden_size": 256.0, "num_hidden_layers": 2.0,
		"num_attention_heads": 4.0, "intermediate_size": 512.0, "vocab_size": 1000.0,
		"max_position_embeddings": 4096.0, "hybrid_override_pattern": "--",
	}
	_, err := Resolve(spec.Request{ModelConfig: cfg, Hardware: spec.HardwareRef{ID: "h200"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no attention or state layers")
}

// MiniMax-M1 (minimax_text_01 lightning attention, vLLM
// minimax_text_01.py; state shape from vllm/model_executor/layers/mamba/
// mamba_utils.py linear_attention_state_shape, dtype the model's): of 80
// layers, attn_type_list makes every 8th a softmax GQA layer (10 layers, 8
// KV heads of 128) and the other 70 lightning layers, each with one
// (64 heads, 128, 128) state and no convolution state. Worked by hand, bf16:
//
//	KV per token:  10 * 2 (K,V) * 8 heads * 128 * 2 B            =      40,960 B
//	state/layer:   64 * 128 * 128 = 1,048,576 elems * 2 B        =   2,097,152 B
//	state/seq:     70 * 2,097,152                                 = 146,800,640 B
//
// At tp=8 each rank keeps 1 KV head (10 * 2 * 1 * 128 * 2 = 5,120 B per token)
// and 8 of the 64 state heads (262,144 B per layer), so the attention block
// grows to 16 * ceil(262,144 / (16 * 512 B)) = 16 * 32 = 512 tokens.
func TestMiniMaxM1LightningLayout(t *testing.T) {
	t.Parallel()
	rep := eval(t, spec.Request{Model: "MiniMaxAI/MiniMax-M1-80k", Hardware: spec.HardwareRef{ID: "h200"}, TensorParallelSize: spec.Int(8), MaxModelLen: spec.Int(8192)})
	k := rep.KVCache
	assert.InDelta(t, 40960, k.BytesPerToken, 0)
	assert.InDelta(t, 5120, k.BytesPerTokenPerGPU, 0)
	assert.InDelta(t, 146_800_640, k.StateBytesPerSequence, 0)
	assert.Equal(t, 512, k.BlockSize)
	assert.Equal(t, "hybrid+moe", rep.Model.Architecture)
}
