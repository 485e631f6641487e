package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/validation"
)

// lmdeployCases writes LMDeploy decode-step cases (Llama 2 7B on an A100,
// the B-group's layout) from three source documents: a and b measured
// alike, c slow by the factor slow, and reads them back.
func lmdeployCases(t *testing.T, slow float64) []validation.Case {
	t.Helper()
	// Per-token latency p50 in seconds at batch 1 and 16, prompt 128 and
	// 2,048 tokens, 128 output tokens (InternLM/lmdeploy a100_fp16.md's
	// rows B002, B004, B007, B009).
	rows := []struct {
		batch, in int
		p50       float64
	}{{1, 128, 0.0097}, {1, 2048, 0.0103}, {16, 128, 0.0107}, {16, 2048, 0.0203}}
	sources := []struct {
		url    string
		factor float64
	}{
		{"https://github.com/example/a/blob/0123abc/bench.md#L10", 1},
		{"https://github.com/example/b/issues/7#issuecomment-1", 1},
		{"https://example.org/c/report/", slow},
	}
	var cs []map[string]any
	for si, s := range sources {
		for ri, r := range rows {
			cs = append(cs, map[string]any{
				"id": "T" + string(rune('A'+si)) + string(rune('0'+ri)), "group": "B", "engine": "LMDeploy TurboMind",
				"model": "meta-llama/Llama-2-7b-hf", "gpu": "NVIDIA A100-80G", "num_gpus": 1, "tensor_parallel_size": 1,
				"batch_size": r.batch, "input_len": r.in, "output_len": 128,
				"scenario": "static inference (fixed batch/ISL/OSL), profile_generation.py",
				"measured": map[string]any{"per_token_latency_s": map[string]any{"p50": r.p50 * s.factor}},
				"source":   map[string]any{"url": s.url},
			})
		}
	}
	b, err := json.Marshal(cs)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "cases.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	out, missing, err := validation.ReadCases(path)
	require.NoError(t, err)
	require.Empty(t, missing)
	return out
}

// TestLeaveOneSourceOutSplit checks the split on three sources, one
// measured 60 % slower than the other two: each source's cases are
// predicted by a fit on the other two only, so the slow source's are
// predicted fast (a fit that never saw it), while the other two's fits,
// which saw it, predict them slower than the fit without it predicts the
// same configurations.
func TestLeaveOneSourceOutSplit(t *testing.T) {
	cs := lmdeployCases(t, 1.6)
	shipped := lookup("lmdeploy").Eff
	figs, fits := holdOut(cs, targets("lmdeploy"), groupKey("source"), "", nil)
	require.Len(t, fits, 3)
	for _, h := range fits {
		assert.True(t, h.refitted, h.group)
		assert.Equal(t, 8, h.train, "%s: fitted on the other two sources' cases", h.group)
		assert.Equal(t, 4, h.test, h.group)
	}
	require.Len(t, figs, 12)
	for i := 0; i < 4; i++ {
		a, c := figs[i], figs[8+i]
		require.Equal(t, "example/a/bench.md", a.r.Source)
		require.Equal(t, "example.org/c/report", c.r.Source)
		// The same configuration, held out from two different fits.
		assert.Greater(t, a.held, c.held*1.05, "case %d: the fit that saw the slow source predicts slower", i)
		assert.Less(t, c.held, c.r.Measured/1.25, "case %d: the fit without the slow source predicts it fast", i)
	}
	// The engine's terms are as they were.
	assert.Equal(t, shipped, lookup("lmdeploy").Eff)
}

// TestHeldOutFitStartsFromShippedTerms checks that a term no case informs
// keeps its shipped value in every held-out fit (decode steps do not
// inform the context phase's latency), not the prior's.
func TestHeldOutFitStartsFromShippedTerms(t *testing.T) {
	e := lookup("lmdeploy")
	saved := e.Eff
	defer func() { e.Eff = saved }()
	e.Eff.ContextOverheadMs = 3.5
	require.NotEqual(t, prior.ContextOverheadMs, e.Eff.ContextOverheadMs)
	_, fits := holdOut(lmdeployCases(t, 1.6), targets("lmdeploy"), groupKey("source"), "", nil)
	require.Len(t, fits, 3)
	for _, h := range fits {
		require.True(t, h.refitted, h.group)
		assert.Equal(t, 3.5, h.terms.ContextOverheadMs, "%s: context_overhead_ms is informed by no case", h.group)
	}
	assert.Equal(t, 3.5, e.Eff.ContextOverheadMs, "the shipped terms are restored")
}
