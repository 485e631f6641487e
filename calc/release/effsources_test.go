package release

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEffSet checks the set each engine, release and vendor resolves to,
// as calc/deploy's resolve picks the terms: the vendor's back end first,
// then the release's.
func TestEffSet(t *testing.T) {
	v := func(engine, name string) EngineVersion {
		ver, ok := LookupVersion(engine, name)
		require.True(t, ok, "%s %s", engine, name)
		return ver
	}
	vllm, llamacpp, sglang := engines["vllm"], engines["llamacpp"], engines["sglang"]
	assert.Equal(t, "vllm", vllm.EffSet("NVIDIA", v("vllm", "")))
	assert.Equal(t, "vllm@0.6", vllm.EffSet("NVIDIA", v("vllm", "0.6")))
	assert.Equal(t, "vllm@0.6", vllm.EffSet("NVIDIA", v("vllm", "0.7")), "0.7 runs V0: V0's terms")
	assert.Equal(t, "vllm@sync", vllm.EffSet("NVIDIA", v("vllm", "0.10")))
	assert.Equal(t, "vllm@rocm", vllm.EffSet("AMD", v("vllm", "0.10")), "the ROCm terms over the release's")
	assert.Equal(t, "vllm@0.6+rocm", vllm.EffSet("AMD", v("vllm", "0.6")))
	assert.Equal(t, "vllm@0.7+rocm", vllm.EffSet("AMD", v("vllm", "0.7")))
	assert.Equal(t, "llamacpp@metal", llamacpp.EffSet("Apple", v("llamacpp", "")))
	assert.Equal(t, "llamacpp@rocm", llamacpp.EffSet("AMD", v("llamacpp", "")))
	assert.Equal(t, "sglang", sglang.EffSet("AMD", v("sglang", "")), "SGLang has no ROCm terms")
}

// TestSingleSourceWarning checks that a set fitted on one document is
// flagged, naming the set and the document, one fitted on none (SGLang's,
// borrowed from vLLM) is flagged as borrowed, and one fitted on several is
// not.
func TestSingleSourceWarning(t *testing.T) {
	lmdeploy, _ := LookupVersion("lmdeploy", "")
	msg, ok := engines["lmdeploy"].SingleSourceWarning("NVIDIA", lmdeploy)
	require.True(t, ok)
	assert.Contains(t, msg, "efficiency set lmdeploy")
	assert.Contains(t, msg, "InternLM/lmdeploy/docs/en/benchmark/a100_fp16.md")
	trt, _ := LookupVersion("trtllm", "")
	_, ok = engines["trtllm"].SingleSourceWarning("NVIDIA", trt)
	assert.False(t, ok, "TensorRT-LLM's terms rest on %d sources", len(EffSources["trtllm"]))
	sg, _ := LookupVersion("sglang", "")
	msg, ok = engines["sglang"].SingleSourceWarning("NVIDIA", sg)
	require.True(t, ok)
	assert.Contains(t, msg, "efficiency set sglang")
	assert.Contains(t, msg, "borrowed from vLLM's")
	assert.Equal(t, engines["vllm"].Eff, engines["sglang"].Eff)
	for set, src := range EffSources {
		assert.NotEmpty(t, src, set)
	}
}
