package deploy

import (
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"

	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/units"
	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/models"
)

// Ask is what a request asks beyond the deployment itself.
type Ask struct {
	In, Out     int
	concurrency int     // 0 when not given
	rate        float64 // requests/s, 0 when not given
	TTFTS       float64 // 0 = no budget
	TPOTS       float64 // 0 = no budget
	priceUSD    float64 // per GPU-hour; <0 = not given
	powerW      float64 // rated W per GPU; <0 = not given
	usdPerKWh   float64 // electricity price
	noPrice     bool    // no default price and no warning (a planner's ask)
	custom      bool    // a custom accelerator: no default price
	sweepPoints int
	sweepMax    int
	startupLog  *spec.StartupLog        // the parsed startup_log, nil without one
	cal         []spec.CalPoint         // the calibration's measured steps
	calReport   *spec.CalibrationReport // their fit, nil without a calibration
	sessions    *sessionAsk             // workload.sessions, nil without
}

// Resolve validates a request and builds its deployment. Every problem is
// reported as a FieldError naming the field; a model whose weights do not
// fit is not an error (the deployment has no blocks).
func Resolve(req spec.Request) (*Deployment, error) {
	d, _, err := resolve(req)
	return d, err
}

// resolve validates every section of the request, collecting all problems
// before it gives up, then builds the deployment.
func resolve(req spec.Request) (*Deployment, Ask, error) { return ResolveWith(req, nil, nil, nil) }

// ResolveWith is resolve with the model and the accelerator already
// resolved (the planner resolves them once for thousands of candidates);
// nil resolves them from the request. into, when not nil, is a
// deployment the planner owns, built again in place: its KV layout cache
// (layouts) is kept, and its stage and cost-model slices are reused.
func ResolveWith(req spec.Request, m *models.Model, hw *hardware.Accelerator, into *Deployment) (*Deployment, Ask, error) {
	var e spec.Errs
	d := into
	if d == nil {
		d = &Deployment{}
	} else {
		*d = Deployment{layouts: d.layouts, stages: d.stages[:0],
			cost: costModel{windows: d.cost.windows[:0], kvPerTok: d.cost.kvPerTok[:0], kvQueryPerTok: d.cost.kvQueryPerTok[:0], attnFLOPsPerTok: d.cost.attnFLOPsPerTok[:0]}}
	}
	if m != nil {
		d.Model = m
	} else {
		d.Model = ResolveModel(&e, req)
	}
	if hw != nil {
		d.Hardware = *hw
	} else {
		resolveHardware(&e, req.Hardware, d)
	}
	resolveScheduler(&e, req, d)
	p := resolvePlan(&e, req)
	p.custom = req.Hardware.Custom != nil && hw == nil
	if req.StartupLog != "" {
		lg, err := ParseStartupLog(req.StartupLog)
		e.AddErr("", err)
		p.startupLog = &lg
	}
	p.cal = calibrationPoints(&e, req.Calibration, float64(p.In)+float64(p.Out)/2)
	resolveDtypes(&e, req, d)
	if d.Model != nil {
		checkAgainstModel(&e, req, d, p)
		d.applyVersionDefaults(req)
		resolveFeatures(&e, req, d, &p)
	}
	if d.Hardware.ID != "" && (d.TP > 1 || d.PP > 1 || (d.feat.dp > 1 && d.Model != nil && d.Model.IsMoE())) && d.Hardware.Interconnect.BandwidthBytesPerS <= 0 {
		e.Add("tensor_parallel_size", d.Hardware.Name+" has no multi-GPU interconnect in the catalog; use 1 or give hardware.interconnect figures")
	}
	resolveP2P(&e, req, d)
	if err := e.Err(); err != nil {
		return nil, p, err
	}

	d.Precision = computePrecision(d.Quant, d.Dtype)
	d.PeakFLOPS = d.Hardware.PeakFLOPS.For(d.Precision)
	if d.PeakFLOPS <= 0 {
		return nil, p, fielderr.New("hardware.peak_flops", "has no figure for "+string(d.Precision)+" or a wider format")
	}
	d.shard = sharding{model: d.Model, quant: d.Quant, tp: d.TP, actBytes: d.ActBytes, kvBytes: d.KVBytes, dp: d.feat.dp, redundant: d.feat.redundant}
	if err := d.feat.build(req, &d.shard, d.MaxModelLen, d.Version.MoELoRA); err != nil {
		return nil, p, err
	}
	d.startupLog, d.batchedGiven = p.startupLog, req.MaxNumBatchedTokens != nil
	if err := d.build(); err != nil {
		return nil, p, err
	}
	if d.Engine.Name == "sglang" && req.MaxNumSeqs == nil {
		// Within max_num_batched_tokens, the simulator's step budget,
		// which a decode batch must fit.
		d.MaxNumSeqs = min(release.SGLangMaxRunningRequests(d.NumBlocks*int64(d.BlockSize), d.MaxModelLen), d.MaxBatched)
	}
	d.cost = d.buildCost()
	if prof := calibrationProfile(req.Calibration); len(p.cal) > 0 || prof != nil {
		var err error
		if p.calReport, err = Calibrator.Fit(d, p.cal, prof); err != nil {
			return nil, p, err
		}
	}
	d.feat.cachedTokens = d.Pool().cachedFor(p.In)
	return d, p, nil
}

// ResolveModel looks up model or imports model_config (exactly one).
func ResolveModel(e *spec.Errs, req spec.Request) *models.Model {
	switch {
	case req.Model != "" && req.ModelConfig != nil:
		e.Add("model", "give either model or model_config, not both")
	case req.Model != "":
		m, err := models.Lookup(req.Model)
		if err != nil {
			e.Add("model", err.Error())
		}
		return m
	case req.ModelConfig != nil:
		m, err := models.FromConfig(req.ModelConfig)
		e.AddErr("model_config", err)
		return m
	default:
		e.Add("model", "is required: a catalog id such as \"meta-llama/Llama-3.1-8B-Instruct\", or model_config")
	}
	return nil
}

// resolveHardware looks up the catalog id or checks the custom figures.
func resolveHardware(e *spec.Errs, ref spec.HardwareRef, d *Deployment) {
	switch {
	case ref.Custom != nil:
		a := *ref.Custom
		if a.ID == "" {
			a.ID = hardware.CustomID
		}
		if a.Name == "" {
			a.Name = "Custom accelerator"
		}
		probs := a.Problems()
		e.AddErr("hardware", probs.Err())
		if len(probs) == 0 {
			d.Hardware = a
		}
	case strings.TrimSpace(ref.ID) == "":
		e.Add("hardware", "is required: a catalog id such as \"h100-sxm\", or an object of figures")
	default:
		a, err := hardware.Lookup(ref.ID)
		if err != nil {
			e.Add("hardware", err.Error())
		} else {
			d.Hardware = a
		}
	}
}

// resolveScheduler reads the engine profile, the parallel layout and the
// scheduler's settings, each defaulting as the engine does.
func resolveScheduler(e *spec.Errs, req spec.Request, d *Deployment) {
	eng, ok := release.LookupEngine(strings.ToLower(strings.TrimSpace(req.Engine)))
	if !ok {
		e.Add("engine", "unknown engine "+fielderr.Quote(req.Engine)+"; one of "+strings.Join(release.EngineNames(), ", "))
		eng, _ = release.LookupEngine(release.DefaultEngine)
	}
	d.Engine, d.Eff = eng, eng.Eff
	resolveVersion(e, req, d) // the release's terms (V0's own)
	if b := eng.ReleaseVendorEff(d.Hardware.Vendor, d.Version.Name); b != nil {
		// The accelerator vendor's back end (Metal on Apple, ROCm/HIP on
		// AMD) has its own fitted terms, under every release but vLLM
		// 0.6 on ROCm, which has its own (engine.go, engine_rocm.go).
		d.Eff = *b
	}
	d.TP = e.IntAt("tensor_parallel_size", "Request.tensor_parallel_size", req.TensorParallelSize, 1)
	d.PP = e.IntAt("pipeline_parallel_size", "Request.pipeline_parallel_size", req.PipelineParallelSize, 1)
	def := eng.Defaults()
	if u := d.Version.GPUMemoryUtilization; u > 0 {
		def.GPUMemoryUtilization = u // the release's own default (versions.go)
	}
	// The release's block and running-request cap (TensorRT-LLM 1.x's LLM
	// API, versions.go); Defaults gives the default release's.
	def.BlockSize, def.MaxNumSeqs = release.DefaultBlockSize, release.DefaultMaxNumSeqs
	if d.Version.LLMAPI {
		def.BlockSize, def.MaxNumSeqs = release.TRTLLMTokensPerBlock, release.TRTLLMMaxBatchSize
	}
	if eng.Name == "vllm" && !d.Version.V0 && d.Hardware.ID != "" {
		def.MaxNumSeqs, def.MaxNumBatchedTokens = release.VLLMBatchDefaults(&d.Hardware, &d.Version)
	}
	if eng.Name == "sglang" && d.Hardware.ID != "" {
		def.GPUMemoryUtilization, def.MaxNumBatchedTokens, d.graphMaxBatch = release.SGLangDefaults(d.Version.GraphMaxByMemory, d.Hardware.ReportedMemory(), d.TP, d.PP)
	}
	d.Utilization = e.FloatAt("gpu_memory_utilization", "Request.gpu_memory_utilization", req.GPUMemoryUtilization, def.GPUMemoryUtilization)
	d.BlockSize = e.IntAt("block_size", "Request.block_size", req.BlockSize, def.BlockSize)
	d.MaxNumSeqs = e.IntAt("max_num_seqs", "Request.max_num_seqs", req.MaxNumSeqs, def.MaxNumSeqs)
	d.MaxBatched = e.IntAt("max_num_batched_tokens", "Request.max_num_batched_tokens", req.MaxNumBatchedTokens, def.MaxNumBatchedTokens)
	if req.MaxNumBatchedTokens != nil && req.MaxNumSeqs != nil && d.MaxBatched < d.MaxNumSeqs && d.MaxBatched > 0 {
		e.Add("max_num_batched_tokens", "("+strconv.Itoa(d.MaxBatched)+") must be at least max_num_seqs ("+strconv.Itoa(d.MaxNumSeqs)+"): every running sequence needs one token of the step budget")
	}
	if req.MaxNumBatchedTokens == nil && req.MaxNumSeqs != nil && d.MaxNumSeqs > d.MaxBatched {
		d.MaxBatched = d.MaxNumSeqs
	}
}

// resolvePlan reads the workload, the latency budget, the price and the
// sweep.
func resolvePlan(e *spec.Errs, req spec.Request) Ask {
	var p Ask
	w := req.Workload
	if w == nil {
		w = &spec.Workload{}
	}
	p.In = e.IntAt("workload.input_tokens", "Workload.input_tokens", w.InputTokens, spec.DefaultInputTokens)
	p.Out = e.IntAt("workload.output_tokens", "Workload.output_tokens", w.OutputTokens, spec.DefaultOutputTokens)
	if w.Concurrency != nil && w.RequestRate != nil {
		e.Add("workload.request_rate", "give either concurrency or request_rate, not both")
	}
	p.concurrency = e.IntAt("workload.concurrency", "Workload.concurrency", w.Concurrency, 0)
	p.rate = e.FloatAt("workload.request_rate", "Workload.request_rate", w.RequestRate, 0)
	p.sessions = sessionsAsk(e, w)
	if req.SLO != nil {
		p.TTFTS = e.FloatAt("slo.ttft_ms", "SLO.ttft_ms", req.SLO.TTFTMs, 0) / 1000
		p.TPOTS = e.FloatAt("slo.tpot_ms", "SLO.tpot_ms", req.SLO.TPOTMs, 0) / 1000
	}
	p.priceUSD = e.FloatAt("gpu_hour_usd", "Request.gpu_hour_usd", req.GPUHourUSD, -1)
	p.powerW = e.FloatAt("gpu_power_w", "Request.gpu_power_w", req.GPUPowerW, -1)
	p.usdPerKWh = e.FloatAt("usd_per_kwh", "Request.usd_per_kwh", req.USDPerKWh, hardware.USDPerKWh)
	var sw spec.SweepOptions
	if req.Sweep != nil {
		sw = *req.Sweep
	}
	p.sweepPoints = e.IntAt("sweep.points", "SweepOptions.points", sw.Points, spec.DefaultSweepPoints)
	p.sweepMax = e.IntAt("sweep.max_batch_size", "SweepOptions.max_batch_size", sw.MaxBatchSize, 0)
	return p
}

// resolveDtypes reads the activation dtype, the weight quantization (which
// needs the model) and the KV cache dtype.
func resolveDtypes(e *spec.Errs, req spec.Request, d *Deployment) {
	d.Dtype = "bfloat16"
	switch dt := strings.ToLower(strings.TrimSpace(req.Dtype)); dt {
	case "", "auto":
		if d.Model != nil && d.Model.Dtype == "float16" {
			d.Dtype = "float16"
		}
	case "bfloat16", "bf16":
		d.Dtype = "bfloat16"
	case "float16", "fp16", "half":
		d.Dtype = "float16"
	case "float32", "fp32", "float":
		d.Dtype = "float32"
	default:
		e.Add("dtype", "unknown dtype "+fielderr.Quote(req.Dtype)+"; one of "+strings.Join(spec.Dtypes, ", "))
	}
	d.ActBytes = dtypeBytes(d.Dtype)
	if d.Model != nil {
		d.Quant = d.Model.Quant
		if q := strings.TrimSpace(req.Quantization); q != "" {
			named, ok := models.NamedQuantization(q)
			switch {
			case !ok:
				e.Add("quantization", "unknown quantization "+fielderr.Quote(q)+"; one of "+strings.Join(models.QuantizationNames(), ", "))
			case d.Model.Checkpoint != "" && !strings.EqualFold(q, "auto"):
				// The request's quantization wins over the one a
				// checkpoint id gave (models/checkpoint.go).
				d.Quant = named
			case d.Model.Quant.Quantized() && named.Quantized() && !sameQuant(d.Model.Quant, named):
				e.Add("quantization", "the checkpoint is already quantized ("+d.Model.Quant.Method+"); "+fielderr.Quote(q)+" cannot be applied on top")
			case !d.Model.Quant.Quantized():
				d.Quant = named
			}
		}
	}
	d.KVDtype = "auto"
	d.KVBytes = d.ActBytes
	switch kv := strings.ToLower(strings.TrimSpace(req.KVCacheDtype)); kv {
	case "", "auto":
		if d.Engine != nil && d.Engine.Name == "trtllm" && d.Quant.KVCacheFP8 {
			// TensorRT-LLM keeps the cache in the format the checkpoint
			// quantized it to (models.Quantization.KVCacheFP8).
			d.KVDtype, d.KVBytes, d.kvFromCheckpoint = "fp8", 1, true
		}
	case "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc", "fp8_ds_mla":
		d.KVDtype, d.KVBytes = kv, 1
	case "bfloat16", "float16", "half", "bf16", "fp16":
		d.KVDtype, d.KVBytes = kv, 2
	case "float32", "fp32", "float":
		d.KVDtype, d.KVBytes = kv, 4
	default:
		e.Add("kv_cache_dtype", "unknown kv_cache_dtype "+fielderr.Quote(req.KVCacheDtype)+"; one of "+strings.Join(spec.KVCacheDtypes, ", "))
	}
}

// checkAgainstModel checks what needs the model: max_model_len against
// its context, the parallel layout against its heads and layers, and the
// workload against max_model_len.
func checkAgainstModel(e *spec.Errs, req spec.Request, d *Deployment, p Ask) {
	m := d.Model
	d.MaxModelLen = e.IntAt("max_model_len", "Request.max_model_len", req.MaxModelLen, m.MaxContext)
	if req.MaxModelLen != nil && *req.MaxModelLen > m.MaxContext {
		e.Add("max_model_len", "("+strconv.Itoa(*req.MaxModelLen)+") exceeds the model's max_position_embeddings ("+strconv.Itoa(m.MaxContext)+")")
	}
	if d.TP > 0 && m.Heads%d.TP != 0 {
		e.Add("tensor_parallel_size", strconv.Itoa(d.TP)+" does not divide the model's "+strconv.Itoa(m.Heads)+" attention heads")
	} else if d.TP > 0 && m.KVLoraRank == 0 && m.KVHeads%d.TP != 0 && d.TP%m.KVHeads != 0 {
		e.Add("tensor_parallel_size", strconv.Itoa(d.TP)+" and the model's "+strconv.Itoa(m.KVHeads)+" KV heads must divide one another")
	}
	if d.PP > m.NumLayers {
		e.Add("pipeline_parallel_size", strconv.Itoa(d.PP)+" exceeds the model's "+strconv.Itoa(m.NumLayers)+" layers")
	}
	if p.In > 0 && p.Out > 0 && d.MaxModelLen > 0 && p.In+p.Out > d.MaxModelLen {
		e.Add("workload.output_tokens", "input_tokens + output_tokens ("+strconv.Itoa(p.In+p.Out)+") exceeds max_model_len ("+strconv.Itoa(d.MaxModelLen)+")")
	}
}

// sameQuant reports whether a requested quantization names the
// checkpoint's own (e.g. "fp8" on an fp8 checkpoint).
func sameQuant(have, want models.Quantization) bool {
	return have.Format == want.Format || have.Method == want.Method
}

// computePrecision returns the format the matmuls run in: the activation
// format of W8A8/W4A4 quantization, else the model dtype (weight-only
// quantization dequantizes to it).
func computePrecision(q models.Quantization, dtype string) hardware.Precision {
	switch q.Activations {
	case "fp8":
		return hardware.FP8
	case "int8":
		return hardware.INT8
	case "fp4":
		return hardware.FP4
	}
	if dtype == "float32" {
		return hardware.FP32
	}
	return hardware.BF16
}

// build splits the model into pipeline stages and sizes each stage's
// weights, memory budget and block pool.
func (d *Deployment) build() error {
	m := d.Model
	split := layerSplit(m.NumLayers, d.PP)
	if cap(d.stages) >= d.PP {
		d.stages = d.stages[:d.PP] // a planner's deployment, built again
		clear(d.stages)
	} else {
		d.stages = make([]stage, d.PP)
	}
	d.NumBlocks = -1
	lays, err := d.stageLayouts(split)
	if err != nil {
		return fielderr.Under("", err)
	}
	for s := range d.stages {
		st := &d.stages[s]
		st.lo, st.hi = split[s], split[s+1]
		st.first, st.last = s == 0, s == d.PP-1
		st.weightsBytes = units.Bytes(d.shard.stageWeights(st.lo, st.hi, st.first, st.last))
		d.budget(st)
		if d.startupLog != nil && StartupLogs.Apply != nil {
			StartupLogs.Apply(d, st, lays[s])
		}
		if lays[s].LayersPerBlock == 0 {
			// A stage of MLP-only blocks (a run of Llama-Nemotron's no-op
			// attention layers) keeps no cache and does not bound the pool.
			continue
		}
		st.layout = lays[s]
		st.blocks = st.layout.NumBlocks(float64(st.kvBytes) * d.feat.draftShare(st.layout))
		if d.NumBlocks < 0 || st.blocks < d.NumBlocks {
			d.NumBlocks, d.tight = st.blocks, s
		}
	}
	if d.NumBlocks < 0 {
		return fielderr.New("model", "has no attention or state layers, so no KV cache to size")
	}
	return nil
}

// LayoutKey is what a model's stage layouts depend on besides the model:
// the pipeline and tensor-parallel sizes, the element sizes, the block
// size and the release's grouping rules (not the accelerator or the
// scheduler).
type LayoutKey struct {
	pp, tp, block int
	kv, act       float64
	rules         kvcache.Rules
}

// stageLayouts returns the KV layout of every pipeline stage (split),
// from d.layouts when the planner shares them across its candidates (they
// are read-only once built); all empty when no layer holds a cache.
func (d *Deployment) stageLayouts(split []int) ([]kvcache.Layout, error) {
	r := d.Version.KVRules
	k := LayoutKey{d.PP, d.TP, d.BlockSize, d.KVBytes, d.ActBytes, r}
	if l, ok := d.layouts[k]; ok {
		return l, nil
	}
	stages := make([][]kvcache.Layer, d.PP)
	n := 0
	for s := range stages {
		stages[s] = d.shard.kvLayers(split[s], split[s+1])
		n += len(stages[s])
	}
	if n == 0 {
		return make([]kvcache.Layout, d.PP), nil
	}
	lays, err := kvcache.NewStageLayouts(stages, kvcache.Options{TP: d.TP, ElemBytes: d.KVBytes, StateElemBytes: d.ActBytes, BlockSize: d.BlockSize, Rules: &r})
	if err == nil && d.layouts != nil {
		d.layouts[k] = lays
	}
	return lays, err
}

// intField validates an optional integer: nil gives def; otherwise it must
// lie in [lo, hi].
func intField(e *spec.Errs, name string, v *int, def, lo, hi int) int {
	if v == nil {
		return def
	}
	switch {
	case *v < lo:
		e.Add(name, "must be at least "+strconv.Itoa(lo)+", got "+strconv.Itoa(*v))
	case *v > hi:
		e.Add(name, "must be at most "+strconv.Itoa(hi)+", got "+strconv.Itoa(*v))
	default:
		return *v
	}
	return def
}

// floatField validates an optional number: nil gives def; otherwise it
// must be finite and lie in (lo, hi] (or [lo, hi] when allowLo).
func floatField(e *spec.Errs, name string, v *float64, def, lo, hi float64, allowLo bool) float64 {
	if v == nil {
		return def
	}
	x := *v
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		e.Add(name, "must be a finite number")
	case allowLo && x < lo:
		e.Add(name, "must be at least "+fielderr.Number(lo)+", got "+fielderr.Number(x))
	case !allowLo && x <= lo:
		e.Add(name, "must be greater than "+fielderr.Number(lo)+", got "+fielderr.Number(x))
	case x > hi:
		e.Add(name, "must be at most "+fielderr.Number(hi)+", got "+fielderr.Number(x))
	default:
		return x
	}
	return def
}

// resolveP2P reads p2p: false, which only a PCIe link can honour (the
// host-memory staging of hardware.Interconnect.WithoutP2P crosses the
// GPUs' PCIe links; an NVLink machine's PCIe generation is not in the
// catalog).
func resolveP2P(e *spec.Errs, req spec.Request, d *Deployment) {
	if req.P2P == nil || *req.P2P {
		return
	}
	d.noP2P = true
	if d.Hardware.Interconnect.BandwidthBytesPerS <= 0 {
		return // no link: tensor_parallel_size > 1 is refused above; nothing to stage
	}
	if _, ok := d.Hardware.Interconnect.WithoutP2P(); !ok {
		e.Add("p2p", "false applies to GPUs joined by PCIe only; "+d.Hardware.Name+"'s link is "+fielderr.Quote(d.Hardware.Interconnect.Name))
	}
}
