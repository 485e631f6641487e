package deploy

import (
	"math"

	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
)

// The power model's two fractions of a GPU's rated power
// (docs/MODEL.md section 5c). A GPU's power while it serves is
//
//	P = rated x min(powerIdle + (powerMemory - powerIdle) x m + (1 - powerIdle) x c, 1)
//
// where m and c are the shares of the step's time that its memory
// traffic and its arithmetic take at the model's rates (StepCost.MemoryS
// and ComputeS over TimeS, each at most 1): a step that only waits (the
// fixed overheads, communication) draws powerIdle, one that only streams
// memory powerMemory, one whose arithmetic runs the whole step the rated
// power. Linear in the utilisations, as the component power models of
// GPUs are (Hong and Kim, "An integrated GPU power and performance
// model", ISCA 2010: power = idle + the units' access rates x their
// power), with three operating points read from measurements:
//
//   - powerIdle: an H100 SXM idles at 73 W of its 700 W in P0 with no
//     process (nvidia-smi listing in digitalocean/do-dcgm-exporter
//     docs/install.md at 20a95868302e2c50624932674c168d4b08712a48), an
//     H200 holding a loaded model at 0 % utilisation draws 115 W (the
//     nvidia-smi listing in sgl-project/sglang issue #3196, 2025-01-30),
//     and a CUDA context holding a model adds 26-50 W on HBM parts
//     (Vadari, "The Model Parking Tax", arXiv:2605.23918, abstract): 73 to
//     123 W, 0.10 to 0.18 of the rated power; 0.15.
//   - powerMemory: decode on full batches draws 180-200 W per V100 SXM2
//     (300 W) under vLLM at TP 2 (1CatAI/1Cat-vLLM issue #535, comment of
//     2026-09-07): 0.63; memory-bound decode on an H200 draws 137-300 W of
//     700 W (Ma et al., "The Illusion of Power Capping in LLM Decode",
//     arXiv:2605.11999, abstract), 0.2-0.43, and an FP8 MoE's decode at
//     256 sequences on an H200 456 W, 0.65 (fergusfinn/mps-embedding-inference
//     results/dmon_sweep_results.md at 41859c8722757939d96962adcd671e6d178358ba,
//     a validation case): 0.65.
//   - compute-bound prefill reaches the rated power (270-300 W of the
//     V100's 300 W on full prefill batches, the same issue #535 comment):
//     the compute share's coefficient, 1 - powerIdle, makes c = 1 the
//     rated power, and the minimum keeps a step that is busy on both at it.
//
// The published cases (calc/validation/testdata/energy.json) and how far
// the model is from them are in docs/MODEL.md section 5c; the power's
// band is their order-statistics band (calc/bands PowerBand).
const (
	powerIdle   = 0.15
	powerMemory = 0.65
)

// GPUPower is one GPU's mean power in watts under a step s, at rated
// watts (the formula above), with the step's memory and compute shares.
func GPUPower(s StepCost, rated float64) (w, m, c float64) {
	if s.TimeS > 0 {
		m, c = math.Min(s.MemoryS/s.TimeS, 1), math.Min(s.ComputeS/s.TimeS, 1)
	}
	return rated * math.Min(powerIdle+(powerMemory-powerIdle)*m+(1-powerIdle)*c, 1), m, c
}

// boardPower is the rated watts the energy section uses: the request's
// gpu_power_w, else the catalog's (none for a custom accelerator).
func (a *reporter) boardPower() (hardware.BoardPower, bool) {
	switch p := a.p; {
	case p.powerW > 0:
		return hardware.BoardPower{Watts: p.powerW, Source: "user"}, true
	case p.custom:
		return hardware.BoardPower{}, false
	}
	return hardware.DefaultBoardPower(a.d.Hardware.ID)
}

// OperatingStep is the step a server runs at decode batch b with x prompt
// tokens a step at the workload's mean context: the step the power
// model reads.
func (d *Deployment) OperatingStep(b, x float64, in, out int) StepCost {
	ctx := float64(in) + float64(out)/2
	bi := max(int(math.Round(b)), 1)
	l := StepLoad{DecodeSeqs: bi, DecodeContext: float64(bi) * ctx}
	if n := math.Min(math.Round(x), float64(max(d.MaxBatched-bi, 0))); n >= 1 {
		l.PrefillTokens = int(n)
		l.PrefillSpan = n * (float64(in) + 1) / 2
		l.PrefillSeqs = max(int(math.Round(n/float64(in))), 1)
	}
	return d.Step(l)
}

// energy is the report's energy section at decode batch b, x prompt
// tokens a step and tps output tokens/s over gpus GPUs.
func (a *reporter) energy(b, x, tps float64, gpus int) *spec.EnergyReport {
	bp, ok := a.boardPower()
	if !ok {
		return nil
	}
	w, m, c := GPUPower(a.d.OperatingStep(b, x, a.p.In, a.p.Out), bp.Watts)
	kw := w * float64(gpus) / 1000
	return &spec.EnergyReport{
		RatedPowerW: bp.Watts, PowerSource: bp.Source, MemoryShare: round3(m), ComputeShare: round3(c),
		GPUPowerW: w, GPUs: gpus, DeploymentKW: kw,
		JoulesPerOutputToken:  ratio(kw*1000, tps),
		OutputTokensPerSPerKW: ratio(tps, kw),
		BatchSize:             int(math.Round(b)), TokensPerS: tps,
	}
}
