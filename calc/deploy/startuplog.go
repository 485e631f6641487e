package deploy

import (
	"math"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/units"
	"github.com/modelrefs/throughput/kvcache"
)

// memTerms are one stage's memory terms, in bytes per GPU.
type memTerms struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	requested, weights, activation, nonTorch, cudaGraph, kv units.Bytes
}

// The provenance labels of spec.MemorySources.
const (
	srcMeasured = "measured"
	srcDerived  = "derived"
	srcModelled = "modelled"
)

// logApplies reports whether the request's startup_log calibrates the
// memory budget: a vLLM deployment (the profiled rule), an SGLang one (the
// static rule) or a TensorRT-LLM one (the free-fraction rule) of one
// pipeline stage (the log's lines are one rank's), from a log of the same
// engine, on the tensor-parallel size the log states, if it states one.
func (d *Deployment) logApplies() bool {
	lg := d.startupLog
	vllm := d.Engine.Name == "vllm" && d.Engine.Rule == release.RuleProfiled
	sglang := d.Engine.Name == "sglang" && d.Engine.Rule == release.RuleStatic
	trtllm := d.Engine.Name == "trtllm" && d.Engine.Rule == release.RuleFreeFraction
	if lg == nil || !(vllm || sglang || trtllm) || d.PP != 1 || (lg.Engine != "" && lg.Engine != d.Engine.Name) {
		return false
	}
	tp, ok := lg.Settings["tensor_parallel_size"]
	return !ok || int(tp) == d.TP
}

// ApplyStartupLog replaces stage s's modelled memory terms (budget's) with
// the figures of the request's start-up log when it applies to the
// deployment (logApplies), and moves them from the log's
// settings to the request's as vLLM's profiler would
// (vllm/v1/worker/gpu_worker.py determine_available_memory; V0:
// vllm/worker/worker.py determine_num_available_blocks):
//
//	kv = total*util - weights - activation - non_torch [- cuda_graph_estimate]
//
// A setting the log does not state (spec.StartupLog.Settings) is taken to
// be the request's. Per term, in bytes per GPU:
//   - requested = total * util, total the logged total, or the logged
//     requested memory over the logged utilisation, else the catalog's;
//     another gpu_memory_utilization moves it and nothing else;
//   - weights and non-torch memory do not depend on the settings moved
//     here (the weights are loaded before profiling; non-torch memory is
//     the communicators' and the CUDA context's);
//   - activation: the profile run's peak over T = max_num_batched_tokens
//     tokens and S = min(max_num_seqs, T) sequences (V0 without chunked
//     prefill: T = max(max_model_len, 2048, max_num_seqs), so max_model_len
//     moves it; V1: it does not). The logged peak is scaled by the
//     activation model's ratio at the request's T and S to the log's,
//     which keeps the log's measured level and takes the model's shape;
//     V0's "peak_torch_memory" less the logged weights is the peak;
//   - CUDA-graph estimate (0.21 on): the logged estimate scaled by the
//     captured sizes' ratio, release.CUDAGraphEstimate at the request's
//     max_num_seqs over the log's;
//   - the KV cache: the logged "Available KV cache memory" (or the logged
//     blocks times the bytes of one, or the tokens of a one-group layout)
//     moved by the changes above; without it, requested less the terms.
//
// Another KV dtype changes the bytes per token (the layout), not these.
// When the log states the KV memory, the terms it does not state share
// what the logged ones leave (the runtime terms first, in proportion to
// their modelled sizes; the weights only when every runtime term is
// logged), so the budget adds up.
func ApplyStartupLog(d *Deployment, s *stage, lay kvcache.Layout) {
	if !d.logApplies() {
		return
	}
	lg := d.startupLog
	s.modelled = memTerms{requested: s.requestedBytes, weights: s.weightsBytes, activation: s.activation, nonTorch: s.nonTorch, cudaGraph: s.cudaGraph, kv: s.kvBytes}
	src := &spec.MemorySources{Requested: srcModelled, Weights: srcModelled, Activation: srcModelled, NonTorch: srcModelled, CUDAGraph: srcModelled, KVCache: srcModelled}
	s.sources = src
	fig := func(name string) (units.Bytes, bool) {
		v, ok := lg.Figures[name]
		return units.Bytes(v) * units.GiB, ok
	}
	set := func(name string, def int) int {
		if v, ok := lg.Settings[name]; ok {
			return int(v)
		}
		return def
	}
	switch d.Engine.Rule {
	case release.RuleStatic:
		applyStaticLog(d, s, lay, src)
		return
	case release.RuleFreeFraction:
		applyFreeFractionLog(d, s, lay, src)
		return
	}
	// The logged deployment: the request's but for the settings the log
	// states.
	ld := *d
	ld.MaxModelLen = set("max_model_len", d.MaxModelLen)
	ld.MaxNumSeqs = set("max_num_seqs", d.MaxNumSeqs)
	ld.MaxBatched = set("max_num_batched_tokens", d.MaxBatched)
	if _, ok := lg.Settings["max_num_batched_tokens"]; !ok && d.Version.V0 && !d.batchedGiven {
		ld.MaxBatched, _ = d.Version.V0BatchedTokens(ld.MaxModelLen, ld.MaxNumSeqs, d.schedSteps, d.v0Chunkable) // applyVersionDefaults
	}
	util := loggedUtil(d)

	total := d.Hardware.ReportedMemory()
	totalLogged := false
	if t, ok := fig("total_gib"); ok && t > 0 {
		total, totalLogged = t, true
	} else if r, ok := fig("requested_gib"); ok && r > 0 {
		total, totalLogged = r/units.Bytes(util), true
	}
	reqLog := total * units.Bytes(util)
	if r, ok := fig("requested_gib"); ok {
		reqLog = r
	}
	s.requestedBytes = total * units.Bytes(d.Utilization)
	if totalLogged {
		src.Requested = label(util == d.Utilization)
	}

	w, wOK := fig("weights_gib")
	if !wOK {
		w = s.weightsBytes
	}
	nt, ntOK := fig("non_torch_gib")
	if !ntOK {
		nt = s.nonTorch
	}
	aModLog, aModReq := ld.activationBytes(s.last), s.activation
	a, aOK := fig("activation_gib")
	if pt, ok := fig("peak_torch_gib"); !aOK && ok && wOK && pt >= w {
		a, aOK = pt-w, true
	}
	if !aOK {
		a = aModLog
	}
	var g, gModLog, gModReq units.Bytes
	gOK := false
	if d.Version.CUDAGraphEstimate {
		gModLog, gModReq = release.CUDAGraphEstimate(ld.MaxNumSeqs, s.hi-s.lo), s.cudaGraph
		g, gOK = fig("cuda_graph_estimate_gib")
		if !gOK {
			g = gModLog
		}
	}
	feat := d.feat.bytesOn(s)

	kv, kvOK := fig("available_kv_gib")
	if !kvOK {
		kv, kvOK = loggedBlocksBytes(lg, lay, d.Version.CapacityFromConcurrency)
		kv /= units.Bytes(d.feat.draftShare(lay))
	}
	if kvOK {
		// What the logged figures leave for the terms the log does not
		// state, shared among them.
		rest := reqLog - kv - feat
		var unl units.Bytes
		for _, t := range []struct {
			v  units.Bytes
			ok bool
		}{{w, wOK}, {nt, ntOK}, {a, aOK}, {g, gOK || !d.Version.CUDAGraphEstimate}} {
			rest -= t.v
			if !t.ok {
				unl += t.v
			}
		}
		if runtime := unl - b(!wOK, w); runtime > 0 {
			f := max(rest+runtime, 0) / runtime
			nt, a, g = scaleIf(!ntOK, nt, f), scaleIf(!aOK, a, f), scaleIf(!gOK, g, f)
			src.NonTorch, src.Activation, src.CUDAGraph = derivedIf(!ntOK, src.NonTorch), derivedIf(!aOK, src.Activation), derivedIf(!gOK && g > 0, src.CUDAGraph)
		} else if !wOK && w > 0 {
			w = max(w+rest, 0)
			src.Weights = srcDerived
		}
	}

	// Move the log's terms to the request's settings.
	aReq, gReq := moved(a, aModReq, aModLog), moved(g, gModReq, gModLog)
	if kvOK {
		s.kvBytes = kv + (s.requestedBytes - reqLog) - (aReq - a) - (gReq - g)
		src.KVCache = label(s.kvBytes == kv)
	} else {
		s.kvBytes = s.requestedBytes - w - nt - aReq - gReq - feat
		if wOK || ntOK || aOK || gOK || totalLogged {
			src.KVCache = srcDerived
		}
	}
	if wOK {
		src.Weights = srcMeasured
	}
	if ntOK {
		src.NonTorch = srcMeasured
	}
	if aOK {
		src.Activation = label(aReq == a)
	}
	if gOK {
		src.CUDAGraph = label(gReq == g)
	}
	s.weightsBytes, s.nonTorch, s.activation, s.cudaGraph = w, nt, aReq, gReq
	if s.kvBytes < 0 || !isFinite(float64(s.kvBytes)) {
		s.kvBytes = 0
	}
}

// applyStaticLog calibrates an SGLang stage from its log. SGLang sizes its
// pool once, after loading the weights (python/sglang/srt/model_executor/
// model_runner.py profile_max_num_token at v0.4.3;
// model_runner_kv_cache_mixin.py at v0.5.8):
//
//	kv = available_after_weights - total * (1 - mem_fraction_static)
//
// with total the memory free before the weights ("Load weight begin.
// avail mem=X GB", the log's total_gib), so another mem_fraction_static
// (the request's gpu_memory_utilization) moves the pool by total times the
// difference, and nothing else. The pool is the logged tokens times the
// bytes of one (exact: SGLang allocates max_total_num_tokens cells), else
// the logged K and V GiB; the weights are the logged "mem usage".
func applyStaticLog(d *Deployment, s *stage, lay kvcache.Layout, src *spec.MemorySources) {
	lg := d.startupLog
	util := loggedUtil(d)
	total := d.Hardware.ReportedMemory()
	if t, ok := lg.Figures["total_gib"]; ok && t > 0 {
		total = units.Bytes(t) * units.GiB
	}
	kv, ok := loggedWeightsAndPool(d, s, lay, src)
	if !ok {
		s.kvBytes = s.requestedBytes - s.weightsBytes - d.feat.bytesOn(s)
		src.KVCache = derivedIf(src.Weights == srcMeasured, srcModelled)
	} else {
		s.kvBytes = kv + total*units.Bytes(d.Utilization-util)
		src.KVCache = label(util == d.Utilization)
	}
	if s.kvBytes < 0 || !isFinite(float64(s.kvBytes)) {
		s.kvBytes = 0
	}
}

// applyFreeFractionLog calibrates a TensorRT-LLM stage from its log.
// TensorRT-LLM sizes its pool as a fraction (kv_cache_free_gpu_mem_fraction,
// the request's gpu_memory_utilization) of the memory free once the weights
// and the runtime's buffers are in place:
//
//	kv = fraction * free
//
// the C++ runtime with free what cudaMemGetInfo reports plus the memory
// pool's free bytes (cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp
// BaseKVCacheManager::calculateFreeMemBytes, "Memory usage when calculating
// max tokens in paged kv cache: total: X GiB, available: Y GiB"), the
// PyTorch backend of 1.x with free = total - peak + the small pool it
// profiled with (tensorrt_llm/_torch/pyexecutor/_util.py KvCacheCreator
// _cal_max_tokens, _cal_max_memory from 1.1: "available_kv_mem =
// (total_gpu_memory - peak_memory + allocated_bytes) * fraction"). free
// does not depend on the fraction, so another fraction moves the pool in
// proportion, kv * request's / log's, and nothing else. The logged pool is
// its tokens times the bytes of one (loggedBlocksBytes: the tokens are whole
// blocks of TensorRT-LLM's), else its logged GiB; the weights are the
// logged "Memory used after loading model weights" when it is there.
func applyFreeFractionLog(d *Deployment, s *stage, lay kvcache.Layout, src *spec.MemorySources) {
	util := loggedUtil(d)
	kv, ok := loggedWeightsAndPool(d, s, lay, src)
	switch {
	case ok:
		// The fraction is a float32 in TensorRT-LLM (0.8 logs as
		// 0.800000011920929): one within 1e-6 is the request's.
		if math.Abs(util-d.Utilization) > 1e-6 {
			kv *= units.Bytes(d.Utilization / util)
		}
		s.kvBytes = kv
		src.KVCache = label(math.Abs(util-d.Utilization) <= 1e-6)
	case src.Weights == srcMeasured:
		// No pool logged: the rule's own pool, from the logged weights.
		s.kvBytes = (d.Hardware.FreeMemory() - s.weightsBytes - s.nonTorch - d.feat.bytesOn(s)) * units.Bytes(d.Utilization)
		src.KVCache = srcDerived
	}
	if s.kvBytes < 0 || !isFinite(float64(s.kvBytes)) {
		s.kvBytes = 0
	}
	s.requestedBytes = s.weightsBytes + s.nonTorch + s.kvBytes
}

// loggedUtil is the logged deployment's memory fraction
// (gpu_memory_utilization): the log's when it states one, else the
// request's.
func loggedUtil(d *Deployment) float64 {
	if v, ok := d.startupLog.Settings["gpu_memory_utilization"]; ok {
		return v
	}
	return d.Utilization
}

// loggedWeightsAndPool sets stage s's weights to the logged ones, when the
// log states them, and returns the logged pool, in bytes per GPU, for the
// engines that log it once (SGLang, TensorRT-LLM): its tokens or blocks
// times the bytes of one (loggedBlocksBytes), the target model's share
// where a draft model shares the pool, else the logged GiB; ok is false
// when the log states neither.
func loggedWeightsAndPool(d *Deployment, s *stage, lay kvcache.Layout, src *spec.MemorySources) (units.Bytes, bool) {
	lg := d.startupLog
	if w, ok := lg.Figures["weights_gib"]; ok {
		s.weightsBytes, src.Weights = units.Bytes(w)*units.GiB, srcMeasured
	}
	kv, ok := loggedBlocksBytes(lg, lay, false)
	kv /= units.Bytes(d.feat.draftShare(lay))
	if g, gOK := lg.Figures["available_kv_gib"]; !ok && gOK {
		kv, ok = units.Bytes(g)*units.GiB, true
	}
	return kv, ok
}

// loggedBlocksBytes returns the KV memory of the logged pool from its
// blocks: "# GPU blocks: N", or "GPU KV cache size: N tokens", which up
// to 0.19 is blocks / groups * block_size in integer division
// (kvcache.Layout.CapacityTokens; after 0.19 it is max_concurrency *
// max_model_len and is not read back). The bytes are taken at the middle
// of the range of pools the logged figure stands for: half a block above
// the blocks (vLLM's floor, kvcache.Layout.NumBlocks), and (groups-1)/2
// blocks above tokens / block_size * groups.
func loggedBlocksBytes(lg *spec.StartupLog, lay kvcache.Layout, fromConcurrency bool) (units.Bytes, bool) {
	per := lay.PageBytes * float64(lay.LayersPerBlock)
	if per <= 0 {
		return 0, false
	}
	if n, ok := lg.Figures["num_gpu_blocks"]; ok {
		return units.Bytes((n + 0.5) * per), true
	}
	if n, ok := lg.Figures["kv_cache_tokens"]; ok && len(lay.Groups) > 0 && lay.BlockSize > 0 && !fromConcurrency {
		g := float64(len(lay.Groups))
		return units.Bytes((n/float64(lay.BlockSize)*g + (g-1)/2 + 0.5) * per), true
	}
	return 0, false
}

// moved returns the logged term v at the request's settings: v times the
// model's ratio of the term at the request's settings (req) to the log's
// (log); v itself when the model has no term at the log's.
func moved(v, req, log units.Bytes) units.Bytes {
	if log <= 0 || req == log {
		return v
	}
	return v * req / log
}

// label is "measured" when a logged figure stands unmoved, else "derived".
func label(unmoved bool) string {
	if unmoved {
		return srcMeasured
	}
	return srcDerived
}

// derivedIf is "derived" when c holds, else cur.
func derivedIf(c bool, cur string) string {
	if c {
		return srcDerived
	}
	return cur
}

// scaleIf returns v*f when c holds, else v.
func scaleIf(c bool, v, f units.Bytes) units.Bytes {
	if c {
		return v * f
	}
	return v
}

// b returns v when c holds, else 0.
func b(c bool, v units.Bytes) units.Bytes {
	if c {
		return v
	}
	return 0
}

// modelledMemory is the engine's own memory figures for the tightest stage of a
// deployment whose start-up log replaced them (ApplyStartupLog), with the block
// pool, capacity and concurrency they would give; ok is false when no log
// was applied (the report's figures are the engine's).
type modelledMemory struct {
	Requested, Weights, Activation, NonTorch, CUDAGraph, KV units.Bytes
	Blocks, CapacityTokens                                  int64
	MaxConcurrency                                          float64
}

// ModelledMemory returns the engine's own figures beside a start-up log's
// (modelledMemory).
func (d *Deployment) ModelledMemory() (modelledMemory, bool) {
	st := &d.stages[d.tight]
	if st.sources == nil {
		return modelledMemory{}, false
	}
	m := st.modelled
	lay := st.layout
	n := lay.NumBlocks(float64(m.kv) * d.feat.draftShare(lay))
	out := modelledMemory{Requested: m.requested, Weights: m.weights, Activation: m.activation, NonTorch: m.nonTorch, CUDAGraph: m.cudaGraph, KV: m.kv,
		Blocks: n, CapacityTokens: lay.CapacityTokens(n), MaxConcurrency: lay.MaxConcurrency(n, int64(d.MaxModelLen), int64(d.MaxBatched))}
	if d.Version.CapacityFromConcurrency {
		out.CapacityTokens = int64(out.MaxConcurrency * float64(d.MaxModelLen))
	}
	return out, true
}
