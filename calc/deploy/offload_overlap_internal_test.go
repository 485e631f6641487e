package deploy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/sched"
)

// The CPU tier's transfers against the forward, by hand, for Llama 3.1 8B
// on one H100 (a block: 16 tokens x 32 layers x 4 KiB = 2 MiB) over a
// 1 GB/s link. A step of 8 decodes that loads 100 blocks back:
//
//	load   100 x 2,097,152 / 1e9        = 0.2097152 s
//	store  8 tokens x 131,072 / 1e9     = 0.00104858 s (the KV the step writes)
//
// vLLM's native connector loads asynchronously, so the step is
// max(compute, load, store) = 0.2097152 s (the load binds); a synchronous
// connector (async_load false) waits: compute + load. Over a 1 TB/s link
// the load, 0.2 ms, hides under the forward: the step is compute alone.
func TestOffloadOverlapByHand(t *testing.T) {
	t.Parallel()
	cpu := 64.0 * (1 << 30)
	mk := func(bw float64, async bool) *Deployment {
		d, _, err := resolve(spec.Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Hardware: spec.HardwareRef{ID: "h100-sxm"},
			KVOffload: &spec.KVOffload{CPUBytes: &cpu, BandwidthBytesPerS: &bw, AsyncLoad: &async}})
		require.NoError(t, err)
		return d
	}
	l := sched.Load{DecodeSeqs: 8, DecodeContext: 1024, ReloadBlocks: 100}
	plain := mk(1e9, true)
	compute := plain.Step(StepLoad{DecodeSeqs: 8, DecodeContext: 1024}).TimeS
	require.Less(t, compute, 0.2097152, "the forward is shorter than the load here")

	assert.InDelta(t, 0.2097152, plain.StepSeconds(l), 1e-12)
	assert.InDelta(t, compute+0.2097152, mk(1e9, false).StepSeconds(l), 1e-12)
	assert.InDelta(t, compute, mk(1e12, true).StepSeconds(l), 1e-15)

	// Direction: overlapping the load never takes longer than waiting for it.
	for _, bw := range []float64{1e8, 1e9, 1e10, 6.3e10, 1e12} {
		for _, n := range []int64{0, 1, 10, 1000} {
			ld := sched.Load{DecodeSeqs: 64, DecodeContext: 2048, PrefillTokens: 512, PrefillSpan: 512 * 257, PrefillSeqs: 1, ReloadBlocks: n}
			a, s := mk(bw, true).StepSeconds(ld), mk(bw, false).StepSeconds(ld)
			assert.LessOrEqual(t, a, s, "bw %g, %d blocks", bw, n)
		}
	}
}
