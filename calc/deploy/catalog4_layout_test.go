package deploy

import (
	"testing"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// KV bytes per token and state bytes per sequence of the models added for
// 2026, part 4, worked by hand from each entry's config at tensor-parallel
// size 1 and the default dtype (bf16: vLLM's dtype "auto" serves OLMo 2's
// float32 checkpoints in bfloat16, calc/resolve.go resolveDtypes).
//
// Attention layers keep K and V: layers * 2 * kv_heads * head_dim * 2 B.
// Mamba-2 layers keep a conv state of (d_inner + 2 * n_groups * d_state) *
// (conv_kernel - 1) values and an SSM state of heads * head_dim * d_state
// values (vLLM 0.19 MambaStateShapeCalculator.mamba2_state_shape), both in
// bf16 when the config names no mamba_ssm_cache_dtype.
func TestKVBytesPerTokenCatalogPart4(t *testing.T) {
	t.Parallel()
	assertKVPerTokenAndState(t, []kvCase{
		// OLMo 2 7B: 32 layers of full multi-head attention (32 KV heads of
		// 4096 / 32 = 128): 32 * 2 * 32 * 128 * 2 = 524,288.
		{"OLMo 2 7B MHA", "allenai/OLMo-2-1124-7B", 524_288, 0},
		// OLMo 2 13B: 40 layers of 40 KV heads of 128: 40 * 2 * 40 * 128 *
		// 2 = 819,200.
		{"OLMo 2 13B MHA", "olmo-2-13b", 819_200, 0},
		// OLMo 2 32B: 64 layers of GQA, 8 KV heads of 5120 / 40 = 128:
		// 64 * 2 * 8 * 128 * 2 = 262,144.
		{"OLMo 2 32B GQA", "olmo-2-32b", 262_144, 0},
		// Ministral 3 3B: text_config 26 layers, 8 KV heads of head_dim 128
		// (not 3072 / 32 = 96): 26 * 2 * 8 * 128 * 2 = 106,496.
		{"Ministral 3 3B", "ministral-3-3b", 106_496, 0},
		// Mistral Small 3.1: text_config 40 layers, 8 KV heads of 128,
		// sliding_window null (full attention): 40 * 2 * 8 * 128 * 2 =
		// 163,840. The pixtral tower keeps no cache.
		{"Mistral Small 3.1", "mistral-small-3.1", 163_840, 0},
		// Seed-OSS-36B: 64 layers of 8 KV heads of head_dim 128 (not 5120 /
		// 80 = 64): 64 * 2 * 8 * 128 * 2 = 262,144.
		{"Seed-OSS 36B", "seed-oss-36b", 262_144, 0},
		// ERNIE-4.5-0.3B: 18 layers of 2 KV heads of 128: 18 * 2 * 2 * 128
		// * 2 = 18,432.
		{"ERNIE 4.5 0.3B", "ernie-4.5-0.3b", 18_432, 0},
		// ERNIE-4.5-21B-A3B: 28 layers of 4 KV heads of 128: 28 * 2 * 4 *
		// 128 * 2 = 57,344 (the MoE blocks keep no cache).
		{"ERNIE 4.5 21B-A3B", "ernie-4.5-21b-a3b", 57_344, 0},
		// Nemotron-H 8B: 4 attention blocks of 8 KV heads of 128: 4 * 2 * 8
		// * 128 * 2 = 16,384 per token. 24 Mamba-2 blocks, d_inner =
		// mamba_num_heads 128 * mamba_head_dim 64 = 8,192, n_groups 8,
		// ssm_state_size 128, conv_kernel 4:
		//   conv (8,192 + 2 * 8 * 128) * 3 = 30,720 values
		//   SSM  128 * 64 * 128 = 1,048,576 values
		//   (30,720 + 1,048,576) * 2 B = 2,158,592 B per layer
		//   24 * 2,158,592 = 51,806,208 B per sequence.
		// The 24 squared-ReLU MLP blocks keep nothing.
		{"Nemotron-H 8B", "nvidia/Nemotron-H-8B-Base-8K", 16_384, 51_806_208},
		// Nemotron 3 Nano 4B: 4 attention blocks of 8 KV heads of 128:
		// 16,384 per token. 21 Mamba-2 blocks, d_inner = 96 * 80 = 7,680:
		//   conv (7,680 + 2 * 8 * 128) * 3 = 29,184 values
		//   SSM  96 * 80 * 128 = 983,040 values
		//   (29,184 + 983,040) * 2 B = 2,024,448 B per layer
		//   21 * 2,024,448 = 42,513,408 B per sequence.
		{"Nemotron 3 Nano 4B", "nemotron-3-nano-4b", 16_384, 42_513_408},
	})
}

// kvCase is a catalog model with its hand-derived KV bytes per token and
// state bytes per sequence (tp=1, bf16).
type kvCase struct {
	name        string
	model       string
	perToken    float64
	statePerSeq float64
}

// assertKVPerTokenAndState resolves each model on a large accelerator at a
// 4,096-token context and compares its layout with the hand derivation.
func assertKVPerTokenAndState(t *testing.T, tests []kvCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := Resolve(spec.Request{Model: tc.model, Hardware: spec.HardwareRef{Custom: &bigAccelerator}, MaxModelLen: spec.Int(4096)})
			require.NoError(t, err)
			lay := d.Layout()
			assert.InDelta(t, tc.perToken, lay.BytesPerToken, 1e-6)
			assert.InDelta(t, tc.statePerSeq, lay.StateBytes, 1e-6)
		})
	}
}
