package calc_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelrefs/throughput/calc/bands"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/validation"
	"github.com/modelrefs/throughput/hardware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The 80 % bands hold about 80 % of the published cases, checked honestly:
// each case's band is built from the other cases only (leave-one-out).
// The order-statistics interval covers at least (n+1-2k)/(n+1) = 80 % of
// new cases in expectation, more where floor() rounds k down on a small
// sample, so the tolerance is 75 % to 95 % over all cases, and 65 % to
// 97 % for an engine with at least 20 cases of a family.
func TestBandsCoverAbout80PercentLeaveOneOut(t *testing.T) {
	if _, err := os.Stat(casesPath); errors.Is(err, os.ErrNotExist) {
		t.Skip(casesPath + " not present")
	}
	// The files tools/calibrate -bands reads: the shared cases and the
	// project's own.
	files, _ := filepath.Glob("validation/testdata/cases*.json")
	rs, err := validation.LoadFiles(append([]string{casesPath}, files...))
	require.NoError(t, err)
	for _, r := range rs {
		// A replayed ShareGPT run (validation/sharegpt.go) files no
		// residual: it mixes the step model with an assumed length spread.
		if r.Comparable && !r.Replay {
			assert.NotEmpty(t, r.Key.Family, "%s (%s, %s) has no band regime: set Result.Key in calc/validation", r.ID, r.Engine, r.Metric)
		}
	}
	rows := validation.Coverage(rs)
	require.NotEmpty(t, rows)
	total := rows[len(rows)-1]
	require.Equal(t, "all", total.Engine)
	require.GreaterOrEqual(t, total.N, 80)
	assert.Zero(t, total.NoBand, "every case has a band without it")
	assert.GreaterOrEqual(t, total.Fraction(), 0.75)
	assert.LessOrEqual(t, total.Fraction(), 0.95)
	checked := 0
	for _, r := range rows[:len(rows)-1] {
		if r.N < 20 {
			continue
		}
		checked++
		assert.GreaterOrEqual(t, r.Fraction(), 0.65, r.Engine+" "+r.Family)
		assert.LessOrEqual(t, r.Fraction(), 0.97, r.Engine+" "+r.Family)
	}
	assert.GreaterOrEqual(t, checked, 3)
}

// The interval is the k-th smallest and largest of n, k = floor(0.1(n+1)).
func TestIntervalOrderStatistics(t *testing.T) {
	nine := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5}
	lo, hi, ok := validation.Interval(nine, 0.8)
	require.True(t, ok)
	assert.Equal(t, []float64{1, 9}, []float64{lo, hi}, "n = 9: k = 1, the extremes")
	var nineteen []float64
	for i := 19; i >= 1; i-- {
		nineteen = append(nineteen, float64(i))
	}
	lo, hi, ok = validation.Interval(nineteen, 0.8)
	require.True(t, ok)
	assert.Equal(t, []float64{2, 18}, []float64{lo, hi}, "n = 19: k = 2")
	_, _, ok = validation.Interval(nine[:8], 0.8)
	assert.False(t, ok, "n = 8: k = 0, too few")
}

// The lookup takes the most specific level with 9 or more cases, and
// doubles the width about the middle outside the domain or for every
// engine's cases.
func TestLookupBandLevelsAndWidening(t *testing.T) {
	key := validation.BandKey{Engine: "vllm", Family: bands.Step, Regime: "1", TP: "1", GPU: "hbm"}
	table := []validation.BandEntry{
		{Key: key, N: 8, Lo: -0.5, Hi: 0.5}, // too few: skipped
		{Key: validation.BandKey{Engine: "vllm", Family: bands.Step, Regime: "1"}, N: 12, Lo: -0.1, Hi: 0.2},
		{Key: validation.BandKey{Family: bands.Step}, N: 50, Lo: -0.2, Hi: 0.2},
	}
	dom := []validation.BandDomain{{Engine: "vllm", Family: bands.Step, Regimes: []string{"1"}, TPs: []string{"1"}, GPUs: []string{"hbm"}}}
	f, ok := validation.LookupBand(table, dom, key)
	require.True(t, ok)
	assert.Equal(t, 12, f.N)
	assert.InDelta(t, -0.1, f.Lo, 1e-12)
	assert.InDelta(t, 0.2, f.Hi, 1e-12)
	assert.Zero(t, f.Flags)
	assert.Equal(t, "vllm step_time 1 (12 cases)", f.Basis())

	// Batch 65+ is outside the domain and has no band of its own nor an
	// engine-wide one: the family's over all engines, [-0.2, 0.2], doubled
	// to [-0.4, 0.4].
	far := key
	far.Regime = "65+"
	f, ok = validation.LookupBand(table, dom, far)
	require.True(t, ok)
	assert.Equal(t, byte(bands.Outside|bands.OutsideRegime|bands.OtherEngines), f.Flags)
	assert.InDelta(t, -0.4, f.Lo, 1e-12)
	assert.InDelta(t, 0.4, f.Hi, 1e-12)

	// Another engine, without cases in the table.
	f, ok = validation.LookupBand(table, dom, validation.BandKey{Engine: "sglang", Family: bands.Step, Regime: "1", TP: "1", GPU: "hbm"})
	require.True(t, ok)
	assert.NotZero(t, f.Flags&bands.OutsideEngine)
	assert.InDelta(t, 0.8, f.Hi-f.Lo, 1e-12)

	// A family without cases has no band; Resolve gives TTFT the step
	// time's, [-0.1, 0.2], doubled to [-0.25, 0.35].
	ttft := key
	ttft.Family = bands.TTFT
	_, ok = validation.LookupBand(table, dom, ttft)
	assert.False(t, ok)
	f, ok = validation.Resolve(table, dom, ttft)
	require.True(t, ok)
	assert.NotZero(t, f.Flags&bands.FromStep)
	assert.InDelta(t, -0.25, f.Lo, 1e-12)
	assert.InDelta(t, 0.35, f.Hi, 1e-12)
}

// bandOf returns the report's band of a figure, or nil.
func bandOf(r calc.Report, figure string) *calc.Band {
	for i := range r.Bands {
		if r.Bands[i].Figure == figure {
			return &r.Bands[i]
		}
	}
	return nil
}

// In the report: every headline figure has a range; the rate's is the step
// time's inverted (tokens/s = batch / step); a figure outside the
// validated domain (a custom accelerator) is widened and said so.
func TestReportBands(t *testing.T) {
	req := calc.Request{Model: "llama-3.1-8b", Hardware: calc.HardwareRef{ID: "rtx-4090"}, Engine: "llamacpp",
		Quantization: "q4_k_m", MaxModelLen: calc.Int(4096),
		Workload: &calc.Workload{InputTokens: calc.Int(1), OutputTokens: calc.Int(512), Concurrency: calc.Int(1)}}
	r, err := calc.Evaluate(req)
	require.NoError(t, err)
	// Six figures of the step and the KV cache, four of the steady state
	// (a concurrency is given): serving.tpot_ms, e2e_ms,
	// output_tokens_per_s and ttft_ms, and three of the energy section
	// (the RTX 4090 has a rated power): energy.gpu_power_w,
	// joules_per_output_token and output_tokens_per_s_per_kw.
	require.Len(t, r.Bands, 13)
	require.NotNil(t, r.Serving)
	step := bandOf(r, "decode.step_time_ms")
	require.NotNil(t, step)
	assert.Less(t, step.Low, step.High)
	assert.False(t, step.Widened, "llama.cpp at batch 1 on a GeForce card is the validated regime")
	assert.True(t, strings.HasPrefix(step.Basis, "llamacpp step_time 1 1 gddr ("), step.Basis)
	rate := bandOf(r, "decode.tokens_per_s")
	require.NotNil(t, rate)
	bs := float64(r.Decode.BatchSize)
	assert.InDelta(t, bs*1000/step.High, rate.Low, 1e-6*rate.Low)
	assert.InDelta(t, bs*1000/step.Low, rate.High, 1e-6*rate.High)
	// llama-bench pp512 on GeForce cards (group C) validates its TTFT at
	// batch 1 there; its KV figures are not validated.
	ttft := bandOf(r, "prefill.ttft_ms")
	require.NotNil(t, ttft)
	assert.False(t, ttft.Widened)
	assert.True(t, strings.HasPrefix(ttft.Basis, "llamacpp ttft 1 1 gddr ("), ttft.Basis)
	// The steady state's bands are the step's and the TTFT's, scaled to
	// its figures: the same relative width, the same basis.
	stpot := bandOf(r, "serving.tpot_ms")
	require.NotNil(t, stpot)
	assert.InDelta(t, step.Low/r.Decode.StepTimeMs, stpot.Low/r.Serving.TPOTMs, 1e-9)
	assert.InDelta(t, step.High/r.Decode.StepTimeMs, stpot.High/r.Serving.TPOTMs, 1e-9)
	assert.Equal(t, step.Basis, stpot.Basis)
	srate := bandOf(r, "serving.output_tokens_per_s")
	require.NotNil(t, srate)
	assert.InDelta(t, r.Serving.OutputTokensPerS*r.Decode.StepTimeMs/step.High, srate.Low, 1e-6*srate.Low)
	sttft := bandOf(r, "serving.ttft_ms")
	require.NotNil(t, sttft)
	assert.InDelta(t, ttft.High/r.Prefill.TTFTMs, sttft.High/r.Serving.TTFTMs, 1e-9)
	for _, f := range []string{"kv_cache.capacity_tokens", "batch_ceiling.batch_size", "preemption.onset_concurrency"} {
		b := bandOf(r, f)
		require.NotNil(t, b, f)
		assert.LessOrEqual(t, b.Low, b.High, f)
		assert.True(t, b.Widened, f+": llama.cpp's KV figures are not validated")
	}
	assert.Contains(t, codes(r.Warnings), "band_outside_validation")

	// The same on a custom accelerator: outside the validated GPUs, the
	// step range doubles (in ln units) and the warning names the gpu.
	req.Hardware = calc.HardwareRef{Custom: customOf(t, "rtx-4090")}
	c, err := calc.Evaluate(req)
	require.NoError(t, err)
	cs := bandOf(c, "decode.step_time_ms")
	require.NotNil(t, cs)
	assert.True(t, cs.Widened)
	width := func(b *calc.Band) float64 { return math.Log(b.High / b.Low) }
	// The custom GPU's regime has no cases of its own, so its band comes
	// from a broader level than the RTX 4090's (its basis says which),
	// then doubles: at least twice as wide, to the table's 0.001 rounding.
	assert.GreaterOrEqual(t, width(cs), 2*width(step)-0.003, "at least twice as wide: %s against %s", cs.Basis, step.Basis)
	found := false
	for _, w := range c.Warnings {
		if w.Code == "band_outside_validation" && strings.Contains(w.Message, "step_time") && strings.Contains(w.Message, " gpu") {
			found = true
		}
	}
	assert.True(t, found, "the warning names the dimension outside the domain: %v", c.Warnings)
}

func codes(ws []calc.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

// customOf is a catalog accelerator's figures given as a custom one.
func customOf(t *testing.T, id string) *hardware.Accelerator {
	a, err := hardware.Lookup(id)
	require.NoError(t, err)
	a.ID, a.Aliases = "", nil
	return &a
}
