package planner

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/evaluate"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"

	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
	"github.com/modelrefs/throughput/models"
	"github.com/modelrefs/throughput/sched"
)

// planDefaults is the default search grid.
var (
	planGPUs = []int{1, 2, 4, 8}
	// rackGPUs are the replica sizes beyond one node the default grid adds
	// on a part whose NVLink domain holds them (hardware.Accelerator.
	// NVLinkDomainGPUs: an NVL72 rack), each an MoE model's experts spread
	// over data-parallel attention ranks (shapes).
	rackGPUs    = []int{16, 32, 64}
	maxRackGPUs = 64
	planSeqs    = []int{128, 512}
	planBatched = []int{spec.DefaultMaxNumBatchedTokens}
	planEngines = []string{"vllm", "sglang"}
)

// planSpec is a validated PlanRequest.
type planSpec struct {
	req             spec.PlanRequest
	specMethod      string // the speculative config's method, resolved ("" without one)
	model           *models.Model
	in, out         int // mean lengths the analytic search uses
	inDist, outDist sched.Dist
	rate            float64 // requests/s, 0 when users are given
	users           int
	ttftS, tpotS    float64
	ttftStat        string
	tpotStat        string
	accels          []hardware.Accelerator
	engines         []string
	maxGPUs         int
	numGPUs         int // constraints.num_gpus: every deployment exactly this many (0: sized to the load)
	// rackGrid: search.gpus_per_replica was not given, so the default grid
	// adds rackGPUs on rack-scale parts (gpusFor).
	rackGrid         bool
	maxKW            float64 // 0 = no power cap
	prices           map[string]float64
	gpus, seqs, btok []int
	precisions, kvs  []string
	disagg           bool
	burst            bool   // workload.burst: users sent at once, judged by the first wave
	splits           []xpyd // search.disaggregated_splits; none: free
	ep               bool   // search EP/DP shapes (an MoE model)
	limit            int
	verifyTop        int
	verifyN          int
	verifySeed       int64
	wholeCatalog     bool // no constraints.accelerators: rented parts only (searchPrice)
	verifyAuto       bool // verify by default: shrink verifyN to the work budget
	maxModelLen      int
}

// listOr returns xs, or def when xs is empty.
func listOr[T any](xs, def []T) []T {
	if len(xs) == 0 {
		return def
	}
	return xs
}

// resolvePlanRequest validates a plan request, naming every bad field.
func resolvePlanRequest(req spec.PlanRequest) (*planSpec, error) {
	var e spec.Errs
	s := &planSpec{req: req}
	s.model = deploy.ResolveModel(&e, spec.Request{Model: req.Model, ModelConfig: req.ModelConfig})
	w := req.Workload
	in := e.IntAt("workload.input_tokens", "PlanWorkload.input_tokens", w.InputTokens, spec.DefaultInputTokens)
	out := e.IntAt("workload.output_tokens", "PlanWorkload.output_tokens", w.OutputTokens, spec.DefaultOutputTokens)
	switch n := boolInt(w.RequestRate != nil) + boolInt(w.Concurrency != nil) + boolInt(w.Burst != nil); {
	case n > 1 && w.Burst == nil:
		e.Add("workload.request_rate", "give either request_rate or concurrency, not both")
	case n > 1:
		e.Add("workload.burst", "give one of request_rate, concurrency or burst")
	case n == 0:
		e.Add("workload", "give request_rate (requests/s) or concurrency (users)")
	}
	s.rate = e.FloatAt("workload.request_rate", "PlanWorkload.request_rate", w.RequestRate, 0)
	s.users = e.IntAt("workload.concurrency", "PlanWorkload.concurrency", w.Concurrency, 0)
	if w.Burst != nil {
		// A burst is its N users' first wave (aggregated; Steady's
		// first_wave_ttft_ms judges its TTFT).
		s.users = e.IntAt("workload.burst", "PlanWorkload.burst", w.Burst, 0)
		s.burst = true
	}
	hi := spec.MaxModelLen
	if s.model != nil {
		hi = s.model.MaxContext
	}
	s.inDist = deploy.LengthDist(&e, "workload.input_distribution", w.InputDistribution, in, hi-1)
	s.outDist = deploy.LengthDist(&e, "workload.output_distribution", w.OutputDistribution, out, hi-1)
	s.in, s.out = distMean(s.inDist), distMean(s.outDist)

	s.ttftS = e.FloatAt("slo.ttft_ms", "PlanSLO.ttft_ms", req.SLO.TTFTMs, 0) / 1000
	s.tpotS = e.FloatAt("slo.tpot_ms", "PlanSLO.tpot_ms", req.SLO.TPOTMs, 0) / 1000
	if req.SLO.TTFTMs == nil && req.SLO.TPOTMs == nil {
		e.Add("slo", "give ttft_ms or tpot_ms (or both): the budget every deployment must meet")
	}
	s.ttftStat = enumAt(&e, "slo.ttft_stat", req.SLO.TTFTStat, spec.PlanStats)
	s.tpotStat = enumAt(&e, "slo.tpot_stat", req.SLO.TPOTStat, spec.PlanStats)

	c := spec.PlanConstraints{}
	if req.Constraints != nil {
		c = *req.Constraints
	}
	s.accels = planAccelerators(&e, c.Accelerators)
	s.wholeCatalog = len(c.Accelerators) == 0
	for i, name := range c.Engines {
		if _, ok := release.LookupEngine(strings.ToLower(strings.TrimSpace(name))); !ok || name == "" {
			e.Add("constraints.engines["+itoa(i)+"]", "unknown engine "+fielderr.Quote(name)+"; one of "+strings.Join(release.EngineNames(), ", "))
		}
		s.engines = append(s.engines, strings.ToLower(strings.TrimSpace(name)))
	}
	s.engines = listOr(s.engines, planEngines)
	s.maxGPUs = e.IntAt("constraints.max_gpus", "PlanConstraints.max_gpus", c.MaxGPUs, spec.MaxParallel)
	s.numGPUs = e.IntAt("constraints.num_gpus", "PlanConstraints.num_gpus", c.NumGPUs, 0)
	if s.numGPUs > s.maxGPUs {
		e.Add("constraints.num_gpus", "must be at most constraints.max_gpus ("+itoa(s.maxGPUs)+"), got "+itoa(s.numGPUs))
	}
	s.maxKW = e.FloatAt("constraints.max_power_kw", "PlanConstraints.max_power_kw", c.MaxPowerKW, 0)
	s.prices = map[string]float64{}
	for id, usd := range c.Prices {
		a, err := hardware.Lookup(id)
		field := "constraints.prices." + id
		switch {
		case err != nil:
			e.Add(field, err.Error())
		case math.IsNaN(usd) || math.IsInf(usd, 0) || usd < 0 || usd > spec.MaxPriceUSD:
			e.Add(field, "must be a price in [0, "+fielderr.Number(spec.MaxPriceUSD)+"] USD per GPU-hour, got "+fielderr.Number(usd))
		default:
			s.prices[a.ID] = usd
		}
	}

	g := spec.PlanSearch{}
	if req.Search != nil {
		g = *req.Search
	}
	s.gpus = intList(&e, "search.gpus_per_replica", g.GPUsPerReplica, planGPUs, 1, maxRackGPUs)
	for i, n := range s.gpus {
		if n&(n-1) != 0 {
			e.Add("search.gpus_per_replica["+itoa(i)+"]", "must be 1, 2, 4 or 8 (GPUs within one node), or 16, 32 or 64 (one rack-scale NVLink domain's), got "+itoa(n))
		}
	}
	s.rackGrid = g.GPUsPerReplica == nil
	s.seqs = intList(&e, "search.max_num_seqs", g.MaxNumSeqs, planSeqs, 1, spec.MaxSeqs)
	s.btok = intList(&e, "search.max_num_batched_tokens", g.MaxNumBatchedTokens, planBatched, 1, spec.MaxTokens)
	s.precisions = enumList(&e, "search.precisions", g.Precisions, spec.PlanPrecisions)
	s.kvs = enumList(&e, "search.kv_cache_dtypes", g.KVCacheDtypes, spec.PlanKVDtypes)
	s.disagg = g.Disaggregated == nil || *g.Disaggregated
	if len(g.DisaggregatedSplits) > maxSplits {
		e.Add("search.disaggregated_splits", "at most "+itoa(maxSplits)+" splits, got "+itoa(len(g.DisaggregatedSplits)))
	}
	if len(g.DisaggregatedSplits) > 0 && !s.disagg {
		e.Add("search.disaggregated_splits", "needs disaggregated serving; search.disaggregated is false")
	}
	for i, v := range g.DisaggregatedSplits {
		sl, ok := parseSplit(v)
		switch {
		case !ok:
			e.Add("search.disaggregated_splits["+itoa(i)+"]", "must be \"xPyD\", x prefill and y decode instances a unit, each 1 to "+itoa(maxSplitSide)+" (e.g. \"2P1D\"), got "+fielderr.Quote(v))
		case i < maxSplits && !slices.Contains(s.splits, sl):
			s.splits = append(s.splits, sl)
		}
	}
	s.ep = s.model != nil && s.model.IsMoE() && (g.ExpertParallel == nil || *g.ExpertParallel)
	s.limit = e.IntAt("limit", "PlanRequest.limit", req.Limit, spec.DefaultPlanLimit)
	// Verified by default; verify given sets the check, and refuses a
	// check over the work budget rather than shrinking it.
	s.verifyTop, s.verifyN, s.verifyAuto = spec.DefaultVerifyTop, spec.DefaultVerifyRequests, true
	if v := req.Verify; v != nil {
		s.verifyAuto = false
		s.verifyTop = e.IntAt("verify.top", "PlanVerify.top", v.Top, spec.DefaultVerifyTop)
		s.verifyN = e.IntAt("verify.num_requests", "PlanVerify.num_requests", v.NumRequests, spec.DefaultVerifyRequests)
		if v.Seed != nil {
			if *v.Seed < 0 || *v.Seed > spec.MaxSeed {
				e.Add("verify.seed", "must be in [0, 2^53], got "+strconv.FormatInt(*v.Seed, 10))
			}
			s.verifySeed = *v.Seed
		}
	}
	if s.model != nil {
		need := s.in + s.out
		if w.InputDistribution != nil || w.OutputDistribution != nil {
			need = s.inDist.Max + s.outDist.Max
		}
		s.maxModelLen = min(s.model.MaxContext, (need+1023)/1024*1024)
		if s.in+s.out > s.model.MaxContext {
			e.Add("workload.output_tokens", "input_tokens + output_tokens ("+itoa(s.in+s.out)+") exceeds the model's max_position_embeddings ("+itoa(s.model.MaxContext)+")")
		}
		s.checkFeatures(&e)
	}
	if err := e.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// checkFeatures validates the workload's shared prefix and the
// speculative config as Evaluate does (the errors name the same paths in
// the plan request), so that no candidate fails on them later.
func (s *planSpec) checkFeatures(e *spec.Errs) {
	probe := &deploy.Deployment{Model: s.model, TP: 1}
	deploy.ResolvePrefix(e, spec.Request{Workload: s.workload()}, probe, &deploy.Ask{In: s.in})
	if sc := s.req.SpeculativeConfig; sc != nil {
		deploy.ResolveSpec(e, sc, probe)
		s.specMethod = probe.SpecMethod() // ResolveSpec names an unknown draft model
	}
}

// workload is a candidate's evaluate workload: the mean lengths and the
// shared prefix.
func (s *planSpec) workload() *spec.Workload {
	w := s.req.Workload
	return &spec.Workload{InputTokens: spec.Int(s.in), OutputTokens: spec.Int(s.out),
		SharedPrefixTokens: w.SharedPrefixTokens, PrefixHitRate: w.PrefixHitRate, NumPrefixes: w.NumPrefixes}
}

// distMean is a length distribution's mean in whole tokens (uniform: the
// midpoint of min and max).
func distMean(d sched.Dist) int {
	m := d.Mean
	if d.Kind == sched.Uniform {
		m = float64(d.Min+d.Max) / 2
	}
	return max(1, int(math.Round(m)))
}

func enumAt(e *spec.Errs, field, v string, values []string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return values[0]
	}
	if !slices.Contains(values, v) {
		e.Add(field, "unknown value "+fielderr.Quote(v)+"; one of "+strings.Join(values, ", "))
	}
	return v
}

func enumList(e *spec.Errs, field string, xs, def []string) []string {
	for i, x := range xs {
		xs[i] = enumAt(e, field+"["+itoa(i)+"]", x, def)
	}
	return listOr(xs, def)
}

func intList(e *spec.Errs, field string, xs, def []int, lo, hi int) []int {
	for i, x := range xs {
		if x < lo || x > hi {
			e.Add(field+"["+itoa(i)+"]", "must be in ["+itoa(lo)+", "+itoa(hi)+"], got "+itoa(x))
		}
	}
	return listOr(xs, def)
}

// planAccelerators looks up the allowed accelerators (default the whole
// catalog), in catalog order.
func planAccelerators(e *spec.Errs, ids []string) []hardware.Accelerator {
	if len(ids) == 0 {
		return hardware.Catalog()
	}
	var out []hardware.Accelerator
	for i, id := range ids {
		a, err := hardware.Lookup(id)
		if err != nil {
			e.Add("constraints.accelerators["+itoa(i)+"]", err.Error())
			continue
		}
		if !slices.ContainsFunc(out, func(b hardware.Accelerator) bool { return b.ID == a.ID }) {
			out = append(out, a)
		}
	}
	return out
}

// enginesFor returns the engines of s that run on a: vLLM and llama.cpp
// on every GPU family vLLM supports; SGLang, LMDeploy and TensorRT-LLM on
// NVIDIA (SGLang also on AMD); on Apple silicon only llama.cpp (vLLM's
// supported platforms: CUDA, ROCm, Gaudi, TPU; docs/getting_started
// installation pages of vLLM 0.19).
func enginesFor(a hardware.Accelerator, names []string) []string {
	var out []string
	for _, n := range names {
		ok := false
		switch a.Vendor {
		case "NVIDIA":
			ok = true
		case "AMD":
			ok = n == "vllm" || n == "sglang" || n == "llamacpp"
		case "Intel", "Google":
			ok = n == "vllm"
		case "Apple":
			ok = n == "llamacpp"
		}
		if ok {
			out = append(out, n)
		}
	}
	return out
}

// quantFor maps a plan precision to the request's quantization on an
// engine and chip: "" for the checkpoint's own; false when the chip or
// the engine cannot run it (fp8 needs fp8 tensor cores, int8 W8A8 int8
// ones; llama.cpp runs GGUF q8_0 and q4_k_m instead; a pre-quantized
// checkpoint runs only as published).
//
// The 4-bit floating-point formats run where the engines have kernels
// for them:
//   - nvfp4 (ModelOpt NVFP4: FP4 E2M1 weights and activations, an FP8
//     scale per 16 values) needs FP4 tensor cores, NVIDIA Blackwell's
//     (hardware.PeakFLOPS.FP4 > 0 on an NVIDIA part): vLLM's
//     ModelOptNvFp4Config (vllm/model_executor/layers/quantization/
//     modelopt.py, v0.11.0) requires compute capability 10.0 or above for
//     its CUTLASS/FlashInfer FP4 GEMMs, SGLang's modelopt_fp4 the same
//     kernels, TensorRT-LLM its own.
//   - mxfp4 (OCP MXFP4 expert weights, as gpt-oss ships them; the other
//     modules stay bf16) is an MoE format: vLLM's Mxfp4MoEMethod
//     (vllm/model_executor/layers/quantization/mxfp4.py, v0.11.0) runs it
//     through FlashInfer on Blackwell, triton_kernels on Hopper, Marlin's
//     weight-only kernel from Ampere on (bf16 tensor cores) and its ROCm
//     path on CDNA3 and later (MI300-class: fp8 tensor cores); SGLang and
//     TensorRT-LLM serve gpt-oss the same way on NVIDIA.
//
// Like int4 and int8 they need a checkpoint published in the format (the
// launch command's notes say so): no engine quantizes to them at load.
func quantFor(prec, engine string, a hardware.Accelerator, m *models.Model) (string, bool) {
	if prec == "published" {
		return "", true
	}
	if m.Quant.Quantized() {
		return "", false
	}
	if engine == "llamacpp" {
		switch prec {
		case "int8":
			return "q8_0", true
		case "int4":
			return "q4_k_m", true
		}
		return "", false
	}
	switch prec {
	case "fp8":
		return "fp8", a.PeakFLOPS.FP8 > 0
	case "int8":
		return "int8", a.PeakFLOPS.INT8 > 0 && engine != "lmdeploy"
	case "int4":
		return "awq", a.Vendor == "NVIDIA" || a.Vendor == "AMD"
	case "nvfp4":
		return "nvfp4", fp4Engine(engine, a) && a.Vendor == "NVIDIA" && a.PeakFLOPS.FP4 > 0
	case "mxfp4":
		chip := (a.Vendor == "NVIDIA" && a.PeakFLOPS.BF16 > 0) || (a.Vendor == "AMD" && a.PeakFLOPS.FP8 > 0 && engine != "trtllm")
		return "mxfp4", m.IsMoE() && fp4Engine(engine, a) && chip
	}
	return "", false
}

// fp4Engine reports whether the engine has 4-bit floating-point kernels
// (quantFor): vLLM, SGLang and, on NVIDIA, TensorRT-LLM; not LMDeploy.
func fp4Engine(engine string, a hardware.Accelerator) bool {
	switch engine {
	case "vllm", "sglang":
		return true
	case "trtllm":
		return a.Vendor == "NVIDIA"
	}
	return false
}

// shape is how one replica's GPUs split the model: tensor-parallel
// ranks, pipeline stages, and data-parallel attention ranks with the
// routed experts spread whole over all of them (expert parallelism).
type shape struct {
	tp, pp, dp int
	ep         bool
}

// gpus is the replica's GPU count: tp x pp x dp.
func (sh shape) gpus() int { return sh.tp * sh.pp * sh.dp }

// nodeGPUs is the most GPUs one node's interconnect joins: a replica of
// more spans a rack-scale NVLink domain (hardware.Accelerator.
// NVLinkDomainGPUs) or is not searched (multi-node replicas over the
// scale-out network are not modelled).
const nodeGPUs = 8

// gpusFor returns the replica sizes searched on a: the grid's (the
// request's search.gpus_per_replica, else 1, 2, 4, 8 and, on a part with
// an NVLink domain beyond one node, 16, 32 and 64 within it).
//
// Under constraints.num_gpus only the sizes that divide it.
func (s *planSpec) gpusFor(a hardware.Accelerator) []int {
	out := s.gpus
	if s.rackGrid && a.NVLinkDomainGPUs > nodeGPUs {
		out = slices.Clone(s.gpus)
		for _, g := range rackGPUs {
			if g <= a.NVLinkDomainGPUs {
				out = append(out, g)
			}
		}
	}
	if s.numGPUs > 0 {
		out = slices.DeleteFunc(slices.Clone(out), func(g int) bool { return s.numGPUs%g != 0 })
	}
	return out
}

// beyondDomain reports whether a replica of g GPUs spans more than a's
// scale-up domain (one node of 8, or its NVLink domain).
func beyondDomain(g int, a hardware.Accelerator) bool {
	return g > max(nodeGPUs, a.NVLinkDomainGPUs)
}

// shapes are the splits of g GPUs the planner tries under eng: all tensor
// parallel, and for g >= 2 also two pipeline stages; for an MoE model
// under vLLM, SGLang or TensorRT-LLM (when search.expert_parallel allows)
// also g data-parallel attention ranks with expert parallelism over the g
// GPUs (vLLM --data-parallel-size g --enable-expert-parallel; SGLang
// --dp-size g --enable-dp-attention --ep-size g; TensorRT-LLM's "DEP",
// tensor_parallel_size g, moe_expert_parallel_size g and
// enable_attention_dp: docs/source/torch/features/parallel-strategy.md:
// the DP-attention layout the engines recommend for DeepSeek-style MoE).
//
// Beyond one node (a rack-scale NVLink domain) only the last: a tensor-
// parallel group stays within the 8 GPUs the engines' all-reduce kernels
// serve, and a dense model's larger replicas are more replicas.
func (s *planSpec) shapes(g int, eng string) []shape {
	if g == 1 {
		return []shape{{1, 1, 1, false}}
	}
	if g > nodeGPUs {
		if s.ep && depEngine(eng) {
			return []shape{{1, 1, g, true}}
		}
		return nil
	}
	out := []shape{{g, 1, 1, false}, {g / 2, 2, 1, false}}
	if s.ep && depEngine(eng) {
		out = append(out, shape{1, 1, g, true})
	}
	return out
}

// depEngine reports whether an engine runs data-parallel attention with
// expert-parallel MoE (shapes).
func depEngine(eng string) bool { return eng == "vllm" || eng == "sglang" || eng == "trtllm" }

// shapeModes is how many serving modes a shape is searched in: EP/DP
// shapes aggregated only (a data-parallel group is one instance).
func (s *planSpec) shapeModes(sh shape) int {
	if sh.dp > 1 {
		return 1
	}
	return s.modes()
}

// countCandidates is the size of the search, before any is evaluated.
func (s *planSpec) countCandidates() int {
	n := 0
	for _, a := range s.accels {
		if _, why := s.searchPrice(a.ID); why != "" {
			continue
		}
		for _, eng := range enginesFor(a, s.engines) {
			per := 0
			for _, p := range s.precisions {
				if _, ok := quantFor(p, eng, a, s.model); ok {
					per++
				}
			}
			kv := len(s.kvs)
			if eng == "llamacpp" || eng == "lmdeploy" {
				kv = 1
			}
			for _, g := range s.gpusFor(a) {
				if g > 1 && a.Interconnect.BandwidthBytesPerS <= 0 || beyondDomain(g, a) {
					continue
				}
				for _, sh := range s.shapes(g, eng) {
					n += per * kv * len(s.seqs) * len(s.btok) * s.shapeModes(sh)
				}
			}
		}
	}
	return n
}

// modes is how many serving modes a layout is searched in: aggregated,
// and for a rate or a closed loop also disaggregated, once free or once
// per xPyD split of search.disaggregated_splits.
func (s *planSpec) modes() int {
	if !s.disagg || s.burst {
		return 1
	}
	return 1 + len(s.splitsOrFree())
}

// xpyd is a disaggregated split held to x prefill and y decode instances
// a unit (search.disaggregated_splits); p == 0: free.
type xpyd struct {
	name string
	p, d int
}

// splitsOrFree are the disaggregated splits searched: the request's, or
// one free split.
func (s *planSpec) splitsOrFree() []xpyd {
	if len(s.splits) > 0 {
		return s.splits
	}
	return []xpyd{{}}
}

// parseSplit reads "xPyD" (x, y in 1..maxSplitSide), case-insensitive.
func parseSplit(v string) (xpyd, bool) {
	u := strings.ToUpper(strings.TrimSpace(v))
	i := strings.IndexByte(u, 'P')
	if i <= 0 || !strings.HasSuffix(u, "D") {
		return xpyd{}, false
	}
	x, err1 := strconv.Atoi(u[:i])
	y, err2 := strconv.Atoi(u[i+1 : len(u)-1])
	if err1 != nil || err2 != nil || x < 1 || y < 1 || x > maxSplitSide || y > maxSplitSide {
		return xpyd{}, false
	}
	return xpyd{name: itoa(x) + "P" + itoa(y) + "D", p: x, d: y}, true
}

// maxSplitSide bounds x and y of an xPyD split, and maxSplits the splits
// a request names.
const (
	maxSplitSide = 16
	maxSplits    = 8
)

// price is the GPU-hour price of an accelerator: the request's
// (constraints.prices, kind "user"), else the default table's
// (hardware.DefaultPrice), as the calculator's cost section reads them.
func (s *planSpec) price(id string) (hardware.Price, bool) {
	if p, ok := s.prices[id]; ok {
		return hardware.Price{USDPerHour: p, Kind: hardware.PriceUser}, true
	}
	return hardware.DefaultPrice(id)
}

// searchPrice is the price an accelerator is searched at, or why it is
// not searched: "no_price" (no price at all), or "purchase_priced" (a
// whole-catalog search leaves out the parts the table prices only by
// purchase: an amortised card carries no host, margin or operations, so
// it would rank below every rented part on an unlike price;
// docs/MODEL.md section 12).
func (s *planSpec) searchPrice(id string) (hardware.Price, string) {
	p, ok := s.price(id)
	switch {
	case !ok:
		return p, "no_price"
	case s.wholeCatalog && p.Kind == hardware.PricePurchase:
		return p, "purchase_priced"
	}
	return p, ""
}

// ParseRequest decodes a JSON plan request as strictly as
// calc.ParseRequest, and as it lists every bad field beside an unknown
// key.
func ParseRequest(data []byte) (spec.PlanRequest, error) {
	// prices is a map[string]float64, which the codec decodes with
	// reflect.Value.SetMapIndex once enabled (internal/jsonx/set.go): here,
	// where a plan is read, so that every build that reads one has it and
	// the light engine, which reads none, does not.
	jsonx.EnableReflectSet()
	return evaluate.ParseStrict(data, func(r spec.PlanRequest) error {
		_, err := resolvePlanRequest(r)
		return err
	})
}
