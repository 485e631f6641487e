package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// KV bytes per token of the layer kinds the 2026 catalog brought, derived
// by hand from each entry's config (bytes_per_token covers every layer at
// tensor-parallel size 1).
func TestKVBytesPerTokenNewArchitectures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		req         spec.Request
		perToken    float64
		statePerSeq float64
		groups      int
	}{
		// DeepSeek sparse attention, DeepSeek-V3.2: 61 MLA layers, each a
		// latent of 512 + 64 bf16 values (1,152 B) plus the indexer's key
		// cache: 128 fp8 values + one float32 scale per 128 = 132 B.
		// 61 * (1,152 + 132) = 78,324.
		{"DSA bf16", spec.Request{Model: "deepseek-ai/DeepSeek-V3.2"}, 61 * (576*2 + 132), 0, 1},
		// An fp8 KV cache is vLLM's fp8_ds_mla: 512 fp8 + 512/128 * 4 B of
		// scales + 64 bf16 rope values = 512 + 16 + 128 = 656 B, and the
		// indexer keeps its own 132 B: 61 * 788 = 48,068.
		{"DSA fp8_ds_mla", spec.Request{Model: "deepseek-v3.2", KVCacheDtype: "fp8"}, 61 * (656 + 132), 0, 1},
		// GLM-5: the same DSA layout on 78 layers: 78 * 1,284 = 100,152.
		{"GLM-5 DSA", spec.Request{Model: "zai-org/GLM-5"}, 78 * (576*2 + 132), 0, 1},
		// Kimi K2 and GLM-4.7-Flash are plain MLA (no indexer): 61 and 47
		// layers of 576 bf16 values.
		{"Kimi K2 MLA", spec.Request{Model: "kimi-k2-instruct"}, 61 * 576 * 2, 0, 1},
		{"GLM-4.7-Flash MLA", spec.Request{Model: "glm-4.7-flash"}, 47 * 576 * 2, 0, 1},
		// Qwen3.5-35B-A3B: 10 full gated-attention layers of 2 KV heads of
		// 256: 10 * 2 * 2 * 256 * 2 B = 20,480 per token. 30 Gated DeltaNet
		// layers hold a conv state of (2*16*128 + 32*128) * (4-1) = 24,576
		// bf16 values (49,152 B) and a recurrent state of 32*128*128 =
		// 524,288 values in float32 (mamba_ssm_dtype): 2,097,152 B. 30 *
		// 2,146,304 = 64,389,120 B per sequence.
		{"Qwen3.5 hybrid", spec.Request{Model: "Qwen/Qwen3.5-35B-A3B"}, 10 * 2 * 2 * 256 * 2, 30 * (24576*2 + 524288*4), 0},
		// MiniMax-M2.5: 62 full GQA layers of 8 KV heads of 128:
		// 62 * 2 * 8 * 128 * 2 = 253,952.
		{"MiniMax GQA", spec.Request{Model: "minimax-m2.5"}, 62 * 2 * 8 * 128 * 2, 0, 1},
		// Step-3.7-Flash: 45 layers of 8 KV heads of 128 (12 full, 33
		// sliding over 512 tokens): 45 * 2 * 8 * 128 * 2 = 368,640 per
		// token. 33 is not under 1.25 * 12, so groups hold 12 layers: one
		// full group and ceil(33/12) = 3 sliding groups, 4 in all.
		{"Step sliding", spec.Request{Model: "step-3.7-flash"}, 45 * 2 * 8 * 128 * 2, 0, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := tc.req
			req.Hardware = spec.HardwareRef{Custom: &bigAccelerator}
			req.MaxModelLen = spec.Int(4096)
			d, err := Resolve(req)
			require.NoError(t, err)
			lay := d.Layout()
			assert.InDelta(t, tc.perToken, lay.BytesPerToken, 1e-6)
			assert.InDelta(t, tc.statePerSeq, lay.StateBytes, 1e-6)
			if tc.groups > 0 {
				assert.Len(t, lay.Groups, tc.groups)
			}
		})
	}
}

// bigAccelerator holds any catalog model at tensor-parallel size 1, so the
// layout tests read whole-model figures.
var bigAccelerator = hardware.Accelerator{
	ID: "big", Name: "big", MemoryBytes: 8e12, MemoryBandwidthBytesPerS: 1e13,
	PeakFLOPS:    hardware.PeakFLOPS{BF16: 1e15, FP8: 2e15, INT8: 2e15, FP4: 4e15, FP32: 1e14},
	Interconnect: hardware.Interconnect{BandwidthBytesPerS: 4.5e11, LatencyS: 5e-6},
}

// The DSA indexer weights are part of the attention count: per layer wq_b
// 1,536 * 64 * 128 = 12,582,912, wk 7,168 * 128 = 917,504, k_norm 2 * 128
// = 256 and weights_proj 7,168 * 64 = 458,752, 13,959,424 in all; DeepSeek-
// V3.2 differs from DeepSeek-V3 by nothing else, so its total is V3's plus
// 61 * 13,959,424 = 851,524,864.
func TestSparseAttentionIndexerParams(t *testing.T) {
	t.Parallel()
	v3, err := Resolve(spec.Request{Model: "deepseek-v3", Hardware: spec.HardwareRef{Custom: &bigAccelerator}})
	require.NoError(t, err)
	v32, err := Resolve(spec.Request{Model: "deepseek-v3.2", Hardware: spec.HardwareRef{Custom: &bigAccelerator}})
	require.NoError(t, err)
	assert.Equal(t, int64(61*13_959_424), v32.Model.Params.Attention-v3.Model.Params.Attention)
	assert.Equal(t, int64(61*13_959_424), v32.Model.Params.Total-v3.Model.Params.Total)
}

// A published vLLM 0.19.0 start-up log (vllm-project/vllm issue #40691,
// Qwen3.5-27B on one H20, --max-model-len 32768): "GPU KV cache size:
// 290,864 tokens" and "Maximum concurrency for 32,768 tokens per request:
// 33.04x". By hand: a full-attention layer costs 4 KV heads * (256+256) * 2
// B = 4,096 B per token; a Gated DeltaNet layer's state is a conv state of
// (2*16*128 + 48*128) * 3 = 30,720 bf16 values (61,440 B) and a float32
// recurrent state of 48*128*128 values (3,145,728 B), 3,207,168 B. vLLM
// enlarges the block to 16 * ceil(3,207,168 / (16 * 4,096)) = 16 * 49 =
// 784 tokens. 16 full and 48 linear layers make 4 groups of 16 (one full,
// three state), so one request of 32,768 tokens needs ceil(32768/784) = 42
// blocks plus 3 state blocks = 45. Both logged figures then follow from one
// pool of 1,487 blocks: 1,487 // 4 * 784 = 290,864 tokens and 1,487 / 45 =
// 33.04. With a bf16 recurrent state the block would be 400 tokens and no
// pool would give both figures.
func TestQwen35LayoutMatchesVLLMLog(t *testing.T) {
	t.Parallel()
	d, err := Resolve(spec.Request{Model: "Qwen/Qwen3.5-27B", Hardware: spec.HardwareRef{Custom: &bigAccelerator}, MaxModelLen: spec.Int(32768), MaxNumBatchedTokens: spec.Int(16384)})
	require.NoError(t, err)
	lay := d.Layout()
	assert.Equal(t, 784, lay.BlockSize)
	require.Len(t, lay.Groups, 4)
	assert.Equal(t, 16, lay.LayersPerBlock)
	assert.Equal(t, int64(45), lay.MaxBlocksPerRequest(32768, 16384))
	assert.Equal(t, int64(290_864), lay.CapacityTokens(1487))
	assert.InDelta(t, 33.04, lay.MaxConcurrency(1487, 32768, 16384), 0.005)
	assert.InDelta(t, 3_207_168.0, lay.StateBytes/48, 1e-6)
}
