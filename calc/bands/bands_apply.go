package bands

import (
	"math"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
)

// Input is what the bands' regime reads of a deployment beside its report.
type Input struct {
	// Engine is the serving engine's name (release.EngineOrder).
	Engine string
	// TP is the tensor-parallel size.
	TP int
	// Hardware is the accelerator (GPUClass).
	Hardware *hardware.Accelerator
	// Version is the engine release's profile (the KV family's release
	// class: ReleaseClass).
	Version release.EngineVersion
}

// bandWhy says why a band was doubled.
var bandWhy = [...]string{
	"the request lies outside the published cases that validate it, in",
	"too few published cases of the engine: the range is every engine's",
	"no published measurement of it yet: the range is the step time's",
}

// bandDims name the regime dimensions of the Outside... flags.
var bandDims = [...]string{" release or batch", " tensor_parallel_size", " gpu", " engine"}

// Apply sets r.Bands, the ranges of the report's headline figures, from
// the figures and the regime of in, and warns (r.Warn) once per family
// whose band was doubled. Every engine calls it (calc/deploy's report
// assembly): the light browser engine's reports carry the same bands as
// the API's.
func Apply(in Input, r *spec.Report) {
	e := 0
	for i, n := range release.EngineOrder {
		if n == in.Engine {
			e = i
		}
	}
	tp, g := min(max(in.TP-1, 0), 1), gpuIdx(in.Hardware)
	figs := [...]struct {
		f    int
		name string
		x    float64
	}{
		{0, "kv_cache.capacity_tokens", float64(r.KVCache.CapacityTokens)},
		{0, "preemption.onset_concurrency", float64(r.Preemption.OnsetConcurrency)},
		{0, "batch_ceiling.batch_size", float64(r.Preemption.OnsetConcurrencyLockstep)}, // the KV limit at the final context
		{1, "decode.step_time_ms", r.Decode.StepTimeMs},
		{1, "decode.tokens_per_s", r.Decode.TokensPerS},
		{2, "prefill.ttft_ms", r.Prefill.TTFTMs},
	}
	var step [2]int // the step band's ln range, in thousandths
	warned, ceil := 0, -1
	for n, fg := range figs {
		x := releaseIdx(in.Engine, in.Version)
		if fg.f > 0 {
			x = batchIdx(max(r.Decode.BatchSize*(2-fg.f), 1)) // TTFT: a prompt alone
		}
		i := Index(e, fg.f, x, tp, g) * entryBytes
		if i+entryBytes > len(bandData) || bandData[i+4] == 255 {
			continue
		}
		s := bandData[i:]
		lo, hi := int(int16(uint16(s[0])|uint16(s[1])<<8)), int(int16(uint16(s[2])|uint16(s[3])<<8))
		if n == 3 {
			step = [2]int{lo, hi}
		}
		if n == 4 { // a rate: its residual is its time's inverse
			lo, hi = -hi, -lo
		}
		b := spec.Band{Figure: fg.name, Low: fg.x * bandExp(lo), High: fg.x * bandExp(hi), Basis: bandBasis[s[4]], Widened: s[5]&7 != 0}
		if fg.f == 0 {
			b.Low, b.High = math.Floor(b.Low), math.Floor(b.High)
		}
		if n == 2 {
			// The ceiling is the smaller of the KV limit, which moves with
			// the capacity, and the scheduler's cap, which is exact (where
			// the KV cache binds, max_num_seqs stands for the cap).
			sched := float64(r.Config.MaxNumSeqs)
			if c := r.BatchCeiling; c.LimitedByWithoutBudget != "kv_cache" {
				sched = float64(c.BatchSizeWithoutBudget)
			}
			b.Low, b.High = min(max(b.Low, 1), sched), min(max(b.High, 1), sched)
			ceil = len(r.Bands)
			r.Bands = append(r.Bands, b)
			continue
		}
		if w := s[5] & 7; w != 0 && warned&(1<<fg.f) == 0 {
			warned |= 1 << fg.f
			wi := 1 // the reason shown: no cases of the family, else outside the domain, else other engines'
			if w&Outside != 0 {
				wi = 0
			}
			if w&FromStep != 0 {
				wi = 2
			}
			why := bandWhy[wi]
			for j, dim := range bandDims {
				if s[5]&(OutsideRegime<<j) != 0 {
					why += dim
				}
			}
			r.Warn("band_outside_validation", "the "+Families[fg.f]+" range is doubled: "+why)
		}
		r.Bands = append(r.Bands, b)
	}
	if sv := r.Serving; sv != nil {
		// The steady state's figures move with the step and TTFT bands
		// they are built from (docs/MODEL.md section 5b): its TPOT and
		// E2E as the step time, its rates as the step's inverse, its
		// TTFT as the TTFT band.
		for _, b := range r.Bands {
			switch b.Figure {
			case "decode.step_time_ms":
				lo, hi := b.Low/r.Decode.StepTimeMs, b.High/r.Decode.StepTimeMs
				rate := spec.Band{Figure: "serving.output_tokens_per_s", Low: sv.OutputTokensPerS / hi, High: sv.OutputTokensPerS / lo, Basis: b.Basis, Widened: b.Widened}
				if sv.RequestRate > 0 && !sv.Saturated {
					// An open loop below its capacity completes what
					// arrives: a faster step cannot raise the rate above
					// request_rate x output_tokens, a slower one can only
					// lower it (to the capacity it then has).
					rate.Low, rate.High = min(rate.Low, sv.OutputTokensPerS), sv.OutputTokensPerS
				}
				r.Bands = append(r.Bands,
					spec.Band{Figure: "serving.tpot_ms", Low: sv.TPOTMs * lo, High: sv.TPOTMs * hi, Basis: b.Basis, Widened: b.Widened},
					spec.Band{Figure: "serving.e2e_ms", Low: sv.E2EMs * lo, High: sv.E2EMs * hi, Basis: b.Basis, Widened: b.Widened},
					rate)
			case "prefill.ttft_ms":
				r.Bands = append(r.Bands, spec.Band{Figure: "serving.ttft_ms", Low: sv.TTFTMs * b.Low / r.Prefill.TTFTMs, High: sv.TTFTMs * b.High / r.Prefill.TTFTMs, Basis: b.Basis, Widened: b.Widened})
			}
		}
	}
	if en := r.Energy; en != nil {
		energyBands(r, en)
	}
	if c := r.BatchCeiling; ceil >= 0 && c.LimitedBy == "latency_budget" {
		// Under a TPOT budget the ceiling is the largest batch whose step
		// meets it; to first order (a step time proportional to the batch)
		// it moves as the inverse of the step time's error: ceiling /
		// exp(hi) to ceiling / exp(lo), within the KV and scheduler range.
		b := &r.Bands[ceil]
		x := float64(c.BatchSize)
		b.Low, b.High = min(b.Low, max(math.Floor(x*bandExp(-step[1])), 1)), min(b.High, max(math.Floor(x*bandExp(-step[0])), 1))
	}
}

// bandExp is exp(m/1000) by arithmetic alone: a Taylor series of
// exp(x/1024) (9 terms, Horner), squared ten times; relative error about
// 1e-13. math.Exp is assembly on amd64 and Go elsewhere: this gives the
// same bits in native Go and WebAssembly, so the golden reports hold under
// both. The conversions stop the compiler fusing a multiply and an add.
func bandExp(m int) float64 {
	y := float64(m) / 1000 / 1024
	s := 1.0
	for k := 9; k >= 1; k-- {
		s = 1 + float64(y*s)/float64(k)
	}
	for i := 0; i < 10; i++ {
		s = float64(s * s)
	}
	return s
}

// PowerBand is the power model's range, ln(measured / predicted) of one
// GPU's power in thousandths: the order-statistics band of the published
// power cases (calc/validation/testdata/energy.json; n = 11, so
// k = floor(0.1 (n + 1)) = 1 residual is left off each end, as section 7
// of docs/MODEL.md does). TestPowerBandMatchesEnergyCases recomputes it
// from the cases.
var PowerBand = [2]int{-226, 281}

// energyBands adds the energy figures' ranges: the GPU power's is the
// power model's band (PowerBand), at most the rated power; the joules per
// output token and the tokens/s per kW combine it with the output rate's
// band (the steady state's, else the decode rate's; the rate's error
// divides the energy).
// The basis names both; a range is marked widened when the rate's is.
func energyBands(r *spec.Report, en *spec.EnergyReport) {
	basis := "power: 11 published GPU power measurements (2 sources)"
	// A GPU draws no more than its rated power (its power limit).
	plo, phi := bandExp(PowerBand[0]), min(bandExp(PowerBand[1]), en.RatedPowerW/en.GPUPowerW)
	r.Bands = append(r.Bands, spec.Band{Figure: "energy.gpu_power_w", Low: en.GPUPowerW * plo, High: en.GPUPowerW * phi, Basis: basis})
	rlo, rhi, wid := 1.0, 1.0, false
	for _, b := range r.Bands {
		if b.Figure == "serving.output_tokens_per_s" || (r.Serving == nil && b.Figure == "decode.tokens_per_s") {
			x := r.Decode.TokensPerS
			if r.Serving != nil {
				x = r.Serving.OutputTokensPerS
			}
			if x > 0 {
				rlo, rhi, wid = b.Low/x, b.High/x, b.Widened
				basis += "; rate: " + b.Basis
			}
		}
	}
	r.Bands = append(r.Bands,
		spec.Band{Figure: "energy.joules_per_output_token", Low: en.JoulesPerOutputToken * plo / rhi, High: en.JoulesPerOutputToken * phi / rlo, Basis: basis, Widened: wid},
		spec.Band{Figure: "energy.output_tokens_per_s_per_kw", Low: en.OutputTokensPerSPerKW * rlo / phi, High: en.OutputTokensPerSPerKW * rhi / plo, Basis: basis, Widened: wid})
}
