package deploy

import (
	"strconv"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/models"
)

// resolveVersion reads engine_version for the resolved engine.
func resolveVersion(e *spec.Errs, req spec.Request, d *Deployment) {
	v, ok := release.LookupVersion(d.Engine.Name, req.EngineVersion)
	if !ok {
		e.Add("engine_version", release.UnknownVersion(d.Engine.Name, req.EngineVersion))
		v, _ = release.LookupVersion(d.Engine.Name, "")
	}
	d.Version = v
	// Multi-step scheduling (vLLM v0.6.0 vllm/engine/arg_utils.py
	// EngineArgs.num_scheduler_steps, default 1): V0's alone; V1 never
	// had it.
	d.schedSteps = e.IntAt("num_scheduler_steps", "Request.num_scheduler_steps", req.NumSchedulerSteps, 1)
	if d.schedSteps > 1 && !v.V0 {
		e.Add("num_scheduler_steps", "multi-step scheduling is vLLM's V0 engine's (engine: vllm, engine_version: "+release.VLLMV0+"); "+d.Engine.Name+" "+v.Name+" schedules every step")
		d.schedSteps = 1
	}
	if fs := req.FlashInferSampler; fs != nil && *fs {
		switch {
		case d.Engine.Name != "vllm":
			e.Add("flashinfer_sampler", "is a vLLM V1 setting (engine: vllm, engine_version 0."+strconv.Itoa(release.VLLMFirstV1)+" or later), not "+d.Engine.Name+"'s")
		case v.V0:
			e.Add("flashinfer_sampler", "is a vLLM V1 setting (engine_version 0."+strconv.Itoa(release.VLLMFirstV1)+" or later); "+v.Name+" runs the V0 engine")
		default:
			// FlashInfer's top-k/top-p kernels sort nothing
			// (Request.flashinfer_sampler).
			d.flashInferSampler = true
			v.SamplerSort = false
			d.Version = v
		}
	}
	if v.V0 && d.Engine.EffV0 != nil {
		// The V0 engine's step terms (engine.go: its CPU-side scheduling,
		// input preparation and sampling per step and per sequence).
		d.Eff = *d.Engine.EffV0
	}
	if e := d.Engine.SyncEff(v); e != nil {
		// The CPU's step work between the GPU's steps (EffSync).
		d.Eff = *e
	}
}

// applyVersionDefaults sets what a release defaults differently once
// max_model_len is known: V0 profiles (and batches) max(max_model_len,
// 2048) tokens when max_num_batched_tokens is left out, or above a 32K
// max_model_len prefills in chunks of a fixed budget
// (release.EngineVersion.V0BatchedTokens).
func (d *Deployment) applyVersionDefaults(req spec.Request) {
	if !d.Version.V0 {
		return
	}
	vendor := d.Hardware.Vendor // a CUDA device (release.EngineVersion.V0BatchedTokens)
	d.v0Chunkable = (vendor == "" || vendor == "NVIDIA" || vendor == "AMD" && d.Version.Name == release.VLLMV0) &&
		req.SpeculativeConfig == nil && req.LoRA == nil && d.Model.CountKind(models.SlidingAttention) == 0
	tokens, chunked := d.Version.V0BatchedTokens(d.MaxModelLen, d.MaxNumSeqs, d.schedSteps, d.v0Chunkable)
	d.v0Chunked = chunked
	if req.MaxNumBatchedTokens == nil {
		d.MaxBatched = tokens
	}
}
