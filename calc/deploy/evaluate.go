package deploy

import (
	"math"
	"strconv"

	"github.com/modelrefs/throughput/calc/bands"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/units"
	"github.com/modelrefs/throughput/models"
)

// Version is the engine's version, reported with every result.
const Version = "0.1.0"

// reporter assembles one report: the deployment, what the request asks of
// it, and the report being written, with the tightest stage and the block
// pool its sections read.
type reporter struct {
	d    *Deployment
	p    Ask
	r    *spec.Report
	st   *stage
	pool Pool
	sv   Serving
}

// Assemble writes the analytic report of d under p: every section but the
// nearest fixes and the simulation.
func Assemble(d *Deployment, p Ask) spec.Report {
	a := reporter{d: d, p: p, st: &d.stages[d.tight], pool: d.Pool(), sv: Serving{d: d}}
	return a.report()
}

// report assembles every section of the answer.
func (a *reporter) report() spec.Report {
	d, p, st, sv := a.d, a.p, a.st, a.sv
	m := d.Model
	r := spec.Report{Version: Version, Warnings: []spec.Warning{}}
	a.r = &r
	// A pasted or fetched config that omits a field gets transformers'
	// default for its model_type (models.withDefaults), named here.
	for _, u := range m.Defaults {
		r.Warn("config_default", u.Message())
	}
	r.Model = DescribeModel(m, d.Quant)
	if c := m.Checkpoint; c != "" {
		// A checkpoint id the catalog resolved (models/checkpoint.go);
		// the request's quantization wins over the one it gave.
		if d.Quant.Method != m.Quant.Method {
			c += "; the request's quantization " + r.Model.Quantization + " applies instead"
		}
		r.Warn("checkpoint_resolved", c)
	}
	r.Hardware = spec.HardwareInfo{
		ID: d.Hardware.ID, Name: d.Hardware.Name,
		MemoryBytes:              d.Hardware.MemoryBytes.Int64(),
		MemoryReportedBytes:      d.Hardware.ReportedMemory().Int64(),
		UnifiedMemory:            d.Hardware.UnifiedMemory,
		MemoryBandwidthBytesPerS: d.Hardware.MemoryBandwidthBytesPerS,
		PeakFLOPSPerS:            d.PeakFLOPS, Precision: string(d.Precision),
	}
	r.Config = spec.Config{
		Engine: d.Engine.Name, EngineVersion: d.Version.Name, TensorParallelSize: d.TP, PipelineParallelSize: d.PP, GPUs: d.TP * d.PP,
		Dtype: d.Dtype, KVCacheDtype: d.KVDtype, GPUMemoryUtilization: d.Utilization,
		BlockSize: st.layout.BlockSize, MaxModelLen: d.MaxModelLen, MaxNumSeqs: d.MaxNumSeqs,
		MaxNumBatchedTokens: d.MaxBatched, InputTokens: p.In, OutputTokens: p.Out,
		Concurrency: p.concurrency, RequestRate: p.rate, Efficiencies: d.Eff,
		TTFTBudgetMs: ms(p.TTFTS), TPOTBudgetMs: ms(p.TPOTS),
	}
	if d.noP2P {
		r.Config.P2P = new(bool)
	}
	if d.flashInferSampler {
		t := true
		r.Config.FlashInferSampler = &t
	}
	r.Memory = spec.MemoryReport{
		TotalBytes: d.Hardware.ReportedMemory().Int64(), FreeAtStartBytes: d.Hardware.FreeMemory().Int64(),
		RequestedBytes: st.requestedBytes.Int64(),
		WeightsBytes:   st.weightsBytes.Int64(), ActivationBytes: st.activation.Int64(), NonTorchBytes: st.nonTorch.Int64(),
		CUDAGraphBytes: st.cudaGraph.Int64(),
		KVCacheBytes:   st.kvBytes.Int64(), FeatureBytes: d.feat.bytesOn(st).Int64(),
		Sources: st.sources,
	}
	r.KVCache = a.kvReport()
	r.Calibration = p.calReport
	if p.startupLog != nil && StartupLogs.Compare != nil {
		r.StartupLog = StartupLogs.Compare(d, &r, *p.startupLog)
	}
	startable := a.freeMemoryWarnings()
	if d.BlockSize != st.layout.BlockSize && d.Model.IsDeepSeekV4() {
		r.Warn("block_size_adjusted", "block_size is "+itoa(st.layout.BlockSize)+" tokens, not "+itoa(d.BlockSize)+": DeepSeek-V4's compressed and indexer caches use 256-token blocks, its sliding-window cache 64 and its compressor states 4 and 8 (as vLLM does)")
	} else if d.BlockSize != st.layout.BlockSize {
		r.Warn("block_size_adjusted", "block_size raised from "+itoa(d.BlockSize)+" to "+itoa(st.layout.BlockSize)+" tokens so one attention page holds a Mamba/linear-attention state (as vLLM does)")
	}

	in, out := p.In, p.Out
	final := float64(in + out)
	mean := float64(in) + float64(out)/2
	if d.NumBlocks <= 0 {
		r.Fits = false
		r.BatchCeiling = spec.BatchCeiling{ContextTokens: in + out, LimitedBy: "weights_do_not_fit"}
		need := st.weightsBytes + st.activation + st.nonTorch
		if st.cudaGraph > 0 && (need <= st.requestedBytes || st.cudaGraph >= st.weightsBytes) {
			// The profiler's CUDA-graph estimate binds: it is the largest
			// term, or the weights and runtime memory alone would fit.
			all := need + st.cudaGraph + d.feat.bytesOn(st)
			r.Warn("weights_do_not_fit", "the CUDA-graph memory estimate, "+gib(st.cudaGraph)+" GiB ("+itoa(st.hi-st.lo)+" layers per GPU at max_num_seqs "+itoa(d.MaxNumSeqs)+"), with weights and runtime memory needs "+gib(all)+" GiB per GPU but only "+gib(st.requestedBytes)+" GiB is available at gpu_memory_utilization "+fielderr.Number(d.Utilization)+"; lower max_num_seqs (fewer graphs captured) or split the layers over pipeline stages (pipeline_parallel_size)")
			return r
		}
		// The need is every term the KV cache comes after (the memory
		// report's weights, activation, non-torch, CUDA-graph and feature
		// bytes), so the page's verdict and memory bar, which add the same
		// fields, state the same figure and the same shortfall.
		all := need + st.cudaGraph + d.feat.bytesOn(st)
		r.Warn("weights_do_not_fit", "weights and runtime memory need "+gib(all)+" GiB per GPU but only "+gib(st.requestedBytes)+" GiB is available at gpu_memory_utilization "+fielderr.Number(d.Utilization)+", "+gib(all-st.requestedBytes)+" GiB short; add GPUs (tensor_parallel_size), quantize, or pick a larger accelerator")
		return r
	}
	r.Fits = r.KVCache.MaxConcurrency >= 1 && startable
	if msg, ok := d.Engine.SingleSourceWarning(d.Hardware.Vendor, d.Version); ok {
		// The speed figures' step terms rest on one source document
		// (calc/release EffSources).
		r.Warn("single_source_terms", msg)
	}
	if !r.Fits {
		r.Warn("max_model_len_too_large", "the KV cache holds "+strconv.FormatInt(r.KVCache.CapacityTokens, 10)+" tokens, fewer than one max_model_len sequence ("+itoa(d.MaxModelLen)+"); vLLM refuses to start: lower max_model_len")
	} else if st.layout.CheckBytesPerBlock > 0 {
		// DeepSeek-V4: vLLM's start-up check prices blocks above their
		// packed width (kvcache Layout.CheckBytesPerBlock).
		if need := st.layout.RequestCheckBytes(int64(d.MaxModelLen), int64(d.MaxBatched)); need > float64(st.kvBytes) {
			r.Fits = false
			r.Warn("max_model_len_too_large", "one max_model_len ("+itoa(d.MaxModelLen)+") request needs "+gib(units.Bytes(need))+" GiB of KV cache by vLLM's start-up check, more than the "+gib(st.kvBytes)+" GiB available; vLLM refuses to start: lower max_model_len or max_num_batched_tokens")
		}
	}
	if a.pool.BlocksPerSeq(final) > d.NumBlocks {
		r.BatchCeiling = spec.BatchCeiling{ContextTokens: in + out, LimitedBy: "kv_cache"}
		r.Warn("workload_does_not_fit", "one sequence of "+itoa(in+out)+" tokens needs more KV cache than the pool holds")
		return r
	}

	// Batch ceiling at the final context.
	kvCap := a.pool.KVCapacity(final)
	schedCap, schedWhy := d.SchedulerCap()
	ceil, why := kvCap, "kv_cache"
	if schedCap < ceil {
		ceil, why = schedCap, schedWhy
	}
	unbudgeted, unbudgetedWhy := ceil, why
	if p.TPOTS > 0 {
		lat := LargestBatch(ceil, func(b int) bool { return sv.TPOT(b, mean) <= p.TPOTS })
		if lat < ceil {
			ceil, why = max(lat, 1), "latency_budget"
		}
	}
	cs := d.DecodeStep(ceil, mean)
	r.BatchCeiling = spec.BatchCeiling{
		BatchSize: ceil, ContextTokens: in + out, LimitedBy: why, StepTimeMs: ms(cs.TimeS),
		TokensPerS: batchRate(ceil, cs), TokensPerSPerSequence: decodeRate(cs),
		BatchSizeWithoutBudget: unbudgeted, LimitedByWithoutBudget: unbudgetedWhy,
	}

	// Preemption onset (steady-state continuous batching).
	meanBlocks := a.pool.MeanStaggered(in, out)
	onset := a.pool.Onset(meanBlocks)
	pre := &spec.PreemptionReport{
		OnsetConcurrency: onset, OnsetConcurrencyLockstep: kvCap, ContextTokens: in + out,
		Reachable: onset < schedCap,
	}
	if onset >= 1 {
		// The server completes requests fastest at the largest batch it
		// runs: the onset, or the scheduler's cap when that binds first.
		pre.SaturationRequestRate, _ = sv.ServingRate(min(onset, schedCap), in, out)
		pre.OnsetRequestRate = sv.RateForConcurrency(MeanInFlightForPeak(float64(onset)), in, out)
	}

	// The decode point: the workload's concurrency, or the concurrency a
	// request rate sustains (Little's law), or the ceiling.
	batch := ceil
	switch {
	case p.concurrency > 0:
		batch = p.concurrency
	case p.rate > 0:
		batch = sv.ConcurrencyForRate(p.rate, in, out, schedCap)
	}
	pre.Concurrency = batch
	pre.RecomputeOverhead, pre.WorkPerOutputToken = a.recompute(batch, onset, in, out, schedCap)
	r.Preemption = pre
	// A request-rate workload is told in its own terms: the rate, not the
	// concurrency Little's law turned it into.
	load := "concurrency " + itoa(batch)
	if p.rate > 0 {
		pre.Utilization = ratio(p.rate, pre.SaturationRequestRate)
		load = fielderr.Number(round3(p.rate)) + " req/s (about " + itoa(batch) + " requests in flight)"
		if pre.Utilization > 1 {
			r.Warn("overloaded", fielderr.Number(round3(p.rate))+" req/s is "+fielderr.Number(round3(pre.Utilization))+"x the "+fielderr.Number(round3(pre.SaturationRequestRate))+" req/s this server completes at "+itoa(in)+"+"+itoa(out)+" tokens: requests queue and their time to first token grows without bound")
		}
	}
	running := min(batch, schedCap)
	if batch > onset && pre.Reachable {
		r.Warn("preemption", load+" exceeds the preemption onset ("+itoa(onset)+" sequences at "+itoa(in)+"+"+itoa(out)+" tokens): the scheduler preempts and recomputes, "+fielderr.Number(round3(pre.RecomputeOverhead))+" extra prefill tokens per output token")
		running = min(running, onset)
	}
	if batch > schedCap {
		r.Warn("scheduler_cap", "concurrency "+itoa(batch)+" exceeds "+schedWhy+" ("+itoa(schedCap)+"); the rest wait in the queue")
	}
	running = max(running, 1)
	ds := d.DecodeStep(running, mean)
	r.Decode = a.decodeReport(running, mean, ds)

	// The TTFT holds the front end (FrontEndS); the prefill's own time
	// and rate do not.
	pt, chunks, pbound := sv.prefillTime(in, 0, 0)
	pc := pt - d.Eff.FrontEndS(in)
	r.Prefill = &spec.PrefillReport{
		InputTokens: in, TimeMs: ms(pc), TTFTMs: ms(pt), TokensPerS: ratio(float64(in), pc),
		Bound: boundName(pbound), Chunks: chunks,
	}
	runCap, runWhy := schedCap, schedWhy
	if onset < runCap {
		runCap, runWhy = max(onset, 1), "kv_cache"
	}
	if p.concurrency > 0 || p.rate > 0 {
		r.Serving = sv.Steady(in, out, p.concurrency, p.rate, runCap, runWhy)
	}
	if p.sessions != nil {
		r.Sessions = Sessions.Report(sv, p, runCap, runWhy)
	}
	r.Features = a.featuresReport(kvCap, onset, meanBlocks)

	if p.TTFTS > 0 || p.TPOTS > 0 {
		r.Best = sv.Best(p, in, out, mean, kvCap, schedCap, schedWhy)
	}
	r.Sweep = a.sweep(ceil, mean)

	// The operating point of the cost and energy sections: the workload's
	// steady state (the tokens the server delivers at that load, prompts
	// admitted beside the decodes), else the best batch under the SLO or
	// the ceiling at the serving rate.
	b := ceil
	if r.Best != nil && r.Best.Feasible {
		b = r.Best.BatchSize
	}
	_, tps := sv.ServingRate(b, in, out)
	dp := max(d.feat.dp, 1)
	tps *= float64(dp) // every data-parallel replica serves
	bf, x := float64(b), float64(b)*float64(in)/float64(out)
	if r.Serving != nil {
		bf, x, tps = r.Serving.DecodeBatch, r.Serving.PrefillTokensPerStep, r.Serving.OutputTokensPerS
		b = int(math.Round(bf))
	}
	gpus := d.TP * d.PP * dp
	if r.Energy = a.energy(bf, x, tps, gpus); r.Energy == nil && !p.noPrice {
		r.Warn("no_power", "no energy section: "+d.Hardware.Name+" has no rated power in the table (docs/MODEL.md section 5c); give gpu_power_w")
	}
	if pr, ok := a.price(); ok {
		r.Cost = &spec.CostReport{
			GPUHourUSD: pr.USDPerHour, PriceKind: pr.Kind, PriceSource: pr.Source, PriceDate: pr.Date,
			GPUs: gpus, BatchSize: b, ContextTokens: int(mean), TokensPerS: tps,
			UsdPerMillionOutputTokens: ratio(pr.USDPerHour*float64(gpus)/3600, tps) * 1e6,
		}
		if en := r.Energy; en != nil {
			// J/token x 10^6 tokens / 3.6e6 J/kWh x USD/kWh.
			r.Cost.USDPerKWh = p.usdPerKWh
			r.Cost.PowerUSDPerMillionOutputTokens = en.JoulesPerOutputToken / 3.6 * p.usdPerKWh
		}
	} else if !p.noPrice {
		r.Warn("no_price", "no cost section: "+d.Hardware.Name+" has no default price (docs/MODEL.md section 12); give gpu_hour_usd")
	}
	a.noteQuantization()
	bands.Apply(bands.Input{Engine: d.Engine.Name, TP: d.TP, Hardware: &d.Hardware, Version: d.Version}, &r)
	return r
}

// price is the GPU-hour price the cost section uses: the request's
// gpu_hour_usd (kind "user"), else the accelerator's default
// (hardware.DefaultPrice, docs/MODEL.md section 12); none for a custom
// accelerator, an accelerator the table does not price, or a planner's
// ask (which prices its candidates itself).
func (a *reporter) price() (hardware.Price, bool) {
	switch p := a.p; {
	case p.priceUSD >= 0:
		return hardware.Price{USDPerHour: p.priceUSD, Kind: hardware.PriceUser}, true
	case p.noPrice || p.custom:
		return hardware.Price{}, false
	}
	return hardware.DefaultPrice(a.d.Hardware.ID)
}

func (a *reporter) kvReport() spec.KVCacheReport {
	d := a.d
	lay := a.st.layout
	k := spec.KVCacheReport{
		BytesPerTokenPerGPU: lay.BytesPerToken,
		BlockSize:           lay.BlockSize, NumBlocks: d.NumBlocks, MaxModelLen: d.MaxModelLen,
		CapacityTokens: lay.CapacityTokens(d.NumBlocks),
		MaxConcurrency: lay.MaxConcurrency(d.NumBlocks, int64(d.MaxModelLen), int64(d.MaxBatched)),
	}
	if d.Version.CapacityFromConcurrency {
		// After 0.19 vLLM logs int(max_concurrency x max_model_len).
		k.CapacityTokens = int64(k.MaxConcurrency * float64(d.MaxModelLen))
	}
	for i := range d.stages {
		k.BytesPerToken += d.stages[i].layout.BytesPerToken * float64(d.TP)
		k.StateBytesPerSequence += d.stages[i].layout.StateBytes * float64(d.TP)
	}
	k.Groups = make([]spec.KVGroup, len(lay.Groups))
	for i, g := range lay.Groups {
		k.Groups[i] = spec.KVGroup{Kind: g.Kind.String(), Layers: g.Layers, Window: g.Window}
	}
	return k
}

func (a *reporter) decodeReport(b int, ctx float64, s StepCost) *spec.DecodeReport {
	return &spec.DecodeReport{
		BatchSize: b, ContextTokens: int(math.Round(ctx)), StepTimeMs: ms(s.TimeS),
		TokensPerS: batchRate(b, s), TokensPerSPerSequence: decodeRate(s),
		Bound: boundName(s.ComputeBound), MemoryTimeMs: ms(s.MemoryS), ComputeTimeMs: ms(s.ComputeS),
		CommunicationTimeMs: ms(s.CommunicationS), OverheadMs: ms(s.OverheadS),
		WeightsReadBytes: units.Bytes(s.WeightsReadBytes).Int64(), KVReadBytes: units.Bytes(s.KVReadBytes).Int64(), FLOPs: s.FLOPs,
		KVCacheUsage: a.pool.usage(b, ctx),
	}
}

// ConcurrencyForRate solves Little's law c = rate * latency(c) for the
// mean number of requests in flight, where latency(c) = prefill + out
// steps at batch c; it returns the smallest c whose serving rate reaches
// the arrival rate, capped at the scheduler's limit when the server cannot
// keep up.
func (sv Serving) ConcurrencyForRate(rate float64, in, out, capc int) int {
	c := LargestBatch(capc, func(b int) bool {
		r, _ := sv.ServingRate(b, in, out)
		return r < rate
	})
	return min(c+1, capc)
}

// recompute estimates, for c sequences in flight against an onset of
// `onset`, the recomputed prefill tokens per delivered output token and the
// total work per output token. Below the onset nothing is preempted.
// Above it the scheduler admits as many prompts as fit (admission cap:
// pool / blocks of one prompt, and the scheduler's cap) and must preempt
// the excess over the onset once each; a preempted sequence is, on
// average, half-way through its output, so it recomputes in + out/2
// tokens. First-order estimate; the simulator measures it.
func (a *reporter) recompute(c, onset, in, out, schedCap int) (overhead, work float64) {
	// The last sampled token is never fed back: in + out - 1 tokens are
	// computed per request without preemption.
	base := float64(in+out-1) / float64(out)
	if c <= onset || onset <= 0 {
		return 0, base
	}
	admit := min(c, schedCap)
	if per := a.pool.BlocksPerSeq(float64(in + 1)); per > 0 {
		admit = min(admit, int(min(a.pool.fitting(float64(per)), spec.MaxSeqs)))
	}
	if admit <= onset {
		return 0, base
	}
	frac := 1 - float64(onset)/float64(admit)
	overhead = frac * (float64(in) + float64(out)/2) / float64(out)
	return overhead, base + overhead
}

// Best finds the largest batch within the latency budget: TPOT is one
// decode step at the mean context; TTFT is a prompt's chunked prefill
// while the batch decodes alongside it.
func (sv Serving) Best(p Ask, in, out int, mean float64, kvCap, schedCap int, schedWhy string) *spec.BestReport {
	d := sv.d
	hi, why := kvCap, "kv_cache"
	if schedCap < hi {
		hi, why = schedCap, schedWhy
	}
	ok := func(b int) bool {
		if p.TPOTS > 0 && sv.TPOT(b, mean) > p.TPOTS {
			return false
		}
		if p.TTFTS > 0 {
			t, _, _ := sv.prefillTime(in, b, mean)
			if t > p.TTFTS {
				return false
			}
		}
		return true
	}
	b := LargestBatch(hi, ok)
	res := &spec.BestReport{ContextTokens: int(math.Round(mean)), Feasible: b > 0, LimitedBy: why}
	if b == 0 {
		b = 1
		res.LimitedBy = "latency_budget"
	} else if b < hi {
		res.LimitedBy = "tpot"
		if p.TPOTS <= 0 || sv.TPOT(b+1, mean) <= p.TPOTS {
			res.LimitedBy = "ttft"
		}
	}
	s := d.DecodeStep(b, mean)
	ttft, _, _ := sv.prefillTime(in, b, mean)
	res.BatchSize, res.StepTimeMs, res.TTFTMs = b, ms(s.TimeS), ms(ttft)
	res.TokensPerS, res.TokensPerSPerSequence = float64(b)*s.TokensPerSeq/s.TimeS, s.TokensPerSeq/s.TimeS
	return res
}

// sweep evaluates decode steps over batch sizes up to 1.25x the ceiling
// (or sweep.max_batch_size), at the workload's mean context.
func (a *reporter) sweep(ceil int, mean float64) []spec.SweepPoint {
	d, p := a.d, a.p
	hi := p.sweepMax
	if hi == 0 {
		hi = max(8, int(math.Ceil(1.25*float64(ceil))))
	}
	bs := sweepBatches(p.sweepPoints, hi)
	out := make([]spec.SweepPoint, len(bs))
	ctx := int(math.Round(mean))
	pool := a.pool
	perBlocks := pool.BlocksPerSeq(mean)
	per := float64(perBlocks) / float64(d.NumBlocks)
	var plain *Deployment // the deployment without speculation, copied once
	if d.feat.specK > 0 {
		plain = a.without(true, false)
	}
	for i, b := range bs {
		s := d.DecodeStep(b, mean)
		out[i] = spec.SweepPoint{
			BatchSize: b, ContextTokens: ctx, StepTimeMs: ms(s.TimeS),
			TokensPerS: batchRate(b, s), TokensPerSPerSequence: decodeRate(s),
			KVCacheUsage: float64(b) * per, Bound: boundName(s.ComputeBound),
		}
		if pool.shared() > 0 {
			out[i].KVCacheUsage = pool.share(b, perBlocks)
		}
		if plain != nil {
			out[i].TokensPerSWithoutSpeculation = batchRate(b, plain.DecodeStep(b, mean))
		}
	}
	return out
}

func (a *reporter) noteQuantization() {
	d, r := a.d, a.r
	if d.Quant.ExpertsOnly && d.Quant.RestBitsPerWeight > 0 {
		// DeepSeek-V4: MXFP4/NVFP4 experts, block-fp8 linear layers.
		r.Warn("experts_only_quantization", "the MoE experts are stored in "+d.Quant.Format+" ("+fielderr.Number(d.Quant.BitsPerWeight)+" bits) and the other linear layers in "+fielderr.Number(d.Quant.RestBitsPerWeight)+"-bit "+d.Quant.Method+"; embeddings stay in "+d.Dtype)
	} else if d.Quant.ExpertsOnly {
		r.Warn("experts_only_quantization", "only the MoE experts are quantized ("+d.Quant.Method+"); attention and embeddings stay in "+d.Dtype)
	}
	if g := d.shard.keptGroups(); g != "" {
		r.Warn("unquantized_modules", "the checkpoint leaves "+g+" unquantized (its exclusion list): they are counted in "+d.Dtype)
	}
	if d.kvFromCheckpoint {
		r.Warn("kv_cache_dtype_from_checkpoint", "the checkpoint quantizes the KV cache to fp8 (kv_cache_quant_algo FP8) and TensorRT-LLM keeps it so: the cache is fp8; give kv_cache_dtype to choose another")
	}
	if d.Precision == "fp8" && d.Hardware.PeakFLOPS.FP8 == 0 {
		r.Warn("no_native_fp8", d.Hardware.Name+" has no fp8 tensor cores: fp8 weights are upcast and compute runs at the "+d.Dtype+" rate")
	}
}

func DescribeModel(m *models.Model, q models.Quantization) spec.ModelInfo {
	arch := "dense"
	switch {
	case m.SSM.DInner > 0 || m.SSM.ValueHeads > 0 || m.SSM.ConvDim > 0:
		// Recurrent layers first: Kimi-Linear's MLA layers sit between
		// its KDA layers.
		arch = "hybrid"
		if m.IsMoE() {
			arch = "hybrid+moe"
		}
	case (m.KVLoraRank > 0 || m.IsDeepSeekV4()) && m.IsMoE():
		arch = "moe+mla"
	case m.KVLoraRank > 0:
		arch = "mla"
	case m.IsMoE():
		arch = "moe"
	}
	for _, l := range m.Layers {
		if l.Kind == models.SlidingAttention {
			arch += "+sliding_window"
			break
		}
	}
	format := q.Format
	if format == "" {
		format = m.Dtype
	}
	method := q.Method
	if method == "" {
		method = "none"
	}
	return spec.ModelInfo{
		ID: m.ID, Name: m.Name, Architecture: arch, Layers: m.NumLayers,
		ParamsTotal: m.Params.Total, ParamsActive: m.Params.Active,
		WeightFormat: format, Quantization: method, WeightBits: q.BitsPerWeight, MaxContext: m.MaxContext,
	}
}

func boundName(compute bool) string {
	if compute {
		return "compute"
	}
	return "memory"
}

func ms(s float64) float64 { return s * 1000 }

func gib(b units.Bytes) string { return strconv.FormatFloat(b.GiB(), 'f', 2, 64) }

func itoa(n int) string { return strconv.Itoa(n) }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
