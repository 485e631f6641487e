package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/models"
)

// The 4-bit float formats are searched where the engines have kernels for
// them (quantFor's sources): NVFP4 on NVIDIA's FP4 tensor cores
// (Blackwell), by vLLM, SGLang and TensorRT-LLM; MXFP4 expert weights for
// an MoE model, on NVIDIA from Ampere on (Marlin) and on AMD's CDNA3 and
// later (vLLM, SGLang), never for a dense model.
func TestQuantForFP4Formats(t *testing.T) {
	moe, err := models.Lookup("Qwen/Qwen3-30B-A3B")
	require.NoError(t, err)
	dense, err := models.Lookup(llama8B)
	require.NoError(t, err)
	for _, tc := range []struct {
		prec, engine, gpu string
		m                 *models.Model
		want              bool
	}{
		{"nvfp4", "vllm", "b200", dense, true},
		{"nvfp4", "sglang", "rtx-pro-6000-server", dense, true},
		{"nvfp4", "trtllm", "b300", moe, true},
		{"nvfp4", "lmdeploy", "b200", dense, false},        // no FP4 kernels
		{"nvfp4", "vllm", "h100-sxm-80gb", dense, false},   // Hopper: FP8 tensor cores, no FP4
		{"nvfp4", "vllm", "mi355x", dense, false},          // FP4 cores, but NVFP4 is NVIDIA's format
		{"mxfp4", "vllm", "h100-sxm-80gb", moe, true},      // triton_kernels
		{"mxfp4", "vllm", "a100-sxm-80gb", moe, true},      // Marlin
		{"mxfp4", "sglang", "mi300x", moe, true},           // CDNA3
		{"mxfp4", "trtllm", "mi300x", moe, false},          // TensorRT-LLM is NVIDIA's
		{"mxfp4", "vllm", "h100-sxm-80gb", dense, false},   // an MoE format
		{"mxfp4", "lmdeploy", "h100-sxm-80gb", moe, false}, // no FP4 kernels
	} {
		a, err := hardware.Lookup(tc.gpu)
		require.NoError(t, err, tc.gpu)
		q, ok := quantFor(tc.prec, tc.engine, a, tc.m)
		assert.Equal(t, tc.want, ok, "%s %s %s %s", tc.prec, tc.engine, tc.gpu, tc.m.ID)
		if ok {
			assert.Equal(t, tc.prec, q)
		}
	}
}

// Hand case: NVFP4 weights meet a budget the published ones cannot on one
// GPU. One user of Llama 3.1 70B (70.55e9 parameters) on one B200
// (8.0e12 bytes/s of HBM3e) under TPOT <= 15 ms. In bf16 a decode step
// reads about 141e9 bytes of weights: 141e9 / (8.0e12 * 0.82) = 21.5 ms
// (vLLM's bandwidth efficiency, calc/release), over the budget before any
// overhead. NVFP4 stores the linear layers' weights in 4.5 bits (4-bit
// values and one FP8 scale per 16): 0.5625 bytes a parameter, and the
// 2 x 128,256 x 8,192 embedding and head parameters (2.1e9, 4.2e9 bytes in
// bf16) stay bf16: about (68.45e9 * 0.5625 + 4.2e9) = 42.7e9 bytes,
// 42.7e9 / 6.56e12 = 6.5 ms, well inside it. So the plan's pick is the
// NVFP4 row (its step adds vLLM's 0.71 ms a step and 7.6 us a layer to
// the read); its vLLM command passes no --quantization (vLLM reads
// modelopt_fp4 from the checkpoint) and says that it needs an NVFP4
// checkpoint, and SGLang's passes --quantization modelopt_fp4.
func TestPlanHandNVFP4MeetsTheBudget(t *testing.T) {
	s := narrow(1)
	s.Precisions = []string{"published", "nvfp4"}
	r, err := Plan(spec.PlanRequest{
		Model: "meta-llama/Llama-3.1-70B-Instruct", Workload: spec.PlanWorkload{Concurrency: spec.Int(1)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(15)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"b200"}, Engines: []string{"vllm", "sglang"}},
		Search:      s,
	})
	require.NoError(t, err)
	require.True(t, r.Feasible)
	// Two engines x two precisions x one layout; the two bf16 rows miss.
	assert.Equal(t, 4, r.Candidates)
	require.Len(t, r.Deployments, 2)
	saw := map[string]bool{}
	for _, d := range r.Deployments {
		saw[d.Quantization] = true
		assert.Equal(t, "nvfp4", d.Quantization, "only NVFP4 meets 15 ms on one B200")
		assert.Less(t, d.TPOTMs, 15.0)
		assert.Greater(t, d.TPOTMs, 6.5, "the step cannot beat its weights' read")
		assert.Contains(t, d.Notes, "nvfp4 needs an NVFP4 checkpoint of the model (NVIDIA Model Optimizer's, as nvidia/ publishes them): replace the model id with one")
		switch d.Engine {
		case "vllm":
			assert.NotContains(t, d.Launch, "--quantization")
		case "sglang":
			assert.Contains(t, d.Launch, "--quantization modelopt_fp4")
		}
	}
	assert.True(t, saw["nvfp4"])
}

// On a chip without FP4 tensor cores NVFP4 is not searched at all: a plan
// that allows only it has no candidate.
func TestPlanNVFP4NotOnHopper(t *testing.T) {
	s := narrow(1)
	s.Precisions = []string{"nvfp4"}
	r, err := Plan(spec.PlanRequest{
		Model: llama8B, Workload: spec.PlanWorkload{Concurrency: spec.Int(1)}, SLO: spec.PlanSLO{TPOTMs: spec.Float(100)},
		Constraints: &spec.PlanConstraints{Accelerators: []string{"h100-sxm-80gb"}, Engines: []string{"vllm"}},
		Search:      s,
	})
	require.NoError(t, err)
	assert.False(t, r.Feasible)
	assert.Zero(t, r.Candidates)
}
