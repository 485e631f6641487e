package deploy

import (
	"math"

	"github.com/modelrefs/throughput/calc/release"

	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/units"
)

// vLLM v1 profile-run activation model, fitted on the 21 single-stage
// start-up logs of vLLM 0.19 in ../shared/validation/cases.json (group A;
// least squares, median residual 0.05 GiB, largest 0.27 GiB;
// `go run ./tools/calibrate -fit-memory` refits it). vLLM measures the torch peak of a dummy forward over
// max_num_batched_tokens tokens followed by a dummy sampler run over
// min(max_num_seqs, max_num_batched_tokens) sequences
// (vllm/v1/worker/gpu_model_runner.py profile_run):
//
//	activation = a_h * T * hidden * b + a_i * T * (intermediate/tp) * b
//	           + MoE workspace + a_s * S * vocab * 4
//
// with T = max_num_batched_tokens, S = min(max_num_seqs, T), b = bytes of
// the activation dtype. a_h is the number of hidden-sized tensors live at
// the peak, a_i the fraction of one MLP intermediate, a_s the number of
// float32 [S, vocab] tensors the sampler holds (logits, probabilities,
// log-probabilities, sorted copies for top-k/top-p). The logs ran 1024
// sequences, vLLM's default on a GPU of 70 GiB or more that is not an A100
// (vllm/engine/arg_utils.py get_batch_defaults, release.VLLMBatchDefaults), which
// is the default the fit resolves them with.
const (
	actHiddenTensors       = 1.031
	actIntermediateTensors = 0.540
	samplerLogitTensors    = 3.601
)

// The releases whose dummy sampler sorts the vocabulary
// (EngineVersion.SamplerSort: V1 before PR #33538's Triton top-k/top-p,
// and V0) hold samplerSortTensors float32 [S, vocab] tensors at the
// sampler's peak instead of samplerLogitTensors. Counted from the code:
// the bfloat16 logits (0.5), their float32 copy (1), sort's values (1)
// and int64 indices (2), its int64 iota input (2) and the radix sort's
// alternate key and value buffers (3), 9.5 in all; fitted by
// tools/calibrate -fit-memory on the logs of such releases with an
// activation figure whose peak is the sampler's (A063, vLLM v0.11.0;
// A068 and A069, V0 of December 2024).
const samplerSortTensors = 9.40

// vLLM V0's profile run (eager, unfused; vllm/worker/worker.py
// determine_num_available_blocks at v0.6) over max_num_batched_tokens
// tokens (its default max(max_model_len, 2048), or above a 32K
// max_model_len the chunked-prefill budget: EngineVersion.V0BatchedTokens).
// Its forward frees each layer's tensors before the sampler runs,
// so the peak is the larger of the forward's (hidden-sized tensors per
// profiled token, which do not shrink with tensor parallelism: PR
// #10511's log shows 1.26 GiB at tp 1 and 2) and the sampler's (the
// forward's output [T, hidden], still held, plus samplerSortTensors
// float32 [S, vocab] tensors):
//
//	activation_v0 = max(v0HiddenTensors * T*h*b, T*h*b + samplerSortTensors * S*vocab*4)
//
// v0HiddenTensors is fitted by tools/calibrate -fit-memory on the V0 logs
// whose peak is the forward's (A074, A075: issue #10517 at max_model_len
// 20000 and 29000).
const v0HiddenTensors = 13.537

// samplerTensors returns release v's float32 [S, vocab] tensors at the
// dummy sampler's peak.
func samplerTensors(v *release.EngineVersion) float64 {
	if v.SamplerSort {
		return samplerSortTensors
	}
	return samplerLogitTensors
}

// activationBytes returns the activation peak of one rank of a stage in
// bytes. Only the last stage runs the sampler. MoE layers add the fused
// MoE kernel's workspace: T*top_k*(max(2*I_moe/tp, hidden) + I_moe/tp)
// elements (vllm/model_executor/layers/fused_moe: intermediate caches 1-3),
// not fitted. Under EngineVersion.NCCLRecordStream the forward also holds
// its all-reduce outputs (ActivationTerms.AllReduceHeld).
func (d *Deployment) activationBytes(last bool) units.Bytes {
	x := d.ActivationTerms(last)
	if d.Version.V0 {
		forward := v0HiddenTensors*x.Hidden + x.AllReduceHeld
		sampler := 0.0
		if last {
			sampler = x.Hidden + samplerSortTensors*x.Sampler
		}
		return units.Bytes(max(forward, sampler) + x.MoEWorkspace)
	}
	return units.Bytes(actHiddenTensors*x.Hidden + actIntermediateTensors*x.Intermediate + samplerTensors(&d.Version)*x.Sampler + x.MoEWorkspace)
}

// ActivationTerms are the regressors of the activation model, in bytes:
// one hidden-sized tensor over the profiled tokens (T * hidden * b), one
// dense MLP intermediate per rank (T * intermediate/tp * b), one float32
// [S, vocab] sampler tensor (0 off the last stage), and the fused MoE
// workspace, which is not fitted. tools/calibrate -fit-memory fits the
// coefficients on them. AllReduceHeld is what a release with
// EngineVersion.NCCLRecordStream holds of the forward's all-reduce
// outputs under tensor parallelism: two [T, hidden] tensors per layer of
// the stage (0 otherwise; not fitted).
type ActivationTerms struct {
	Hidden, Intermediate, Sampler, MoEWorkspace, AllReduceHeld float64
}

// ActivationTerms returns the activation model's regressors for one rank
// of a stage.
func (d *Deployment) ActivationTerms(last bool) ActivationTerms {
	m := d.Model
	t := float64(d.MaxBatched)
	b := d.ActBytes
	tp := float64(d.TP)
	var x ActivationTerms
	x.Hidden = t * float64(m.Hidden) * b
	if d.Version.NCCLRecordStream && d.TP > 1 {
		x.AllReduceHeld = 2 * float64(m.NumLayers) / float64(max(d.PP, 1)) * x.Hidden
	}
	dense := m.Intermediate
	if m.IsMoE() {
		dense = 0
		if m.MoELayers() < m.NumLayers {
			dense = m.DenseIntermediate
		}
		im := float64(m.MoEIntermediate) / tp
		x.MoEWorkspace = t * float64(m.TopK) * (max(2*im, float64(m.Hidden)) + im) * b
	}
	x.Intermediate = t * float64(dense) / tp * b
	if last {
		x.Sampler = float64(min(d.MaxNumSeqs, d.MaxBatched)) * float64(m.Vocab) * 4
	}
	return x
}

// Non-torch memory (CUDA context residue, cuBLAS and NCCL buffers) that
// vLLM 0.19 measured during its profile run, per GPU. Fitted on group A:
// an engine running in the API server's process (tp = pp = 1) shows
// 0.25 GiB; worker processes (tp or pp > 1) 0.07 GiB; tensor parallelism
// adds the communicators' buffers, 1.92 GiB + 0.045 GiB per rank (2.07 GiB
// at tp=2, 2.13-2.21 GiB at tp=4 in the logs).
const (
	nonTorchInProcess = 0.25 * units.GiB
	nonTorchWorker    = 0.07 * units.GiB
	nonTorchTPBase    = 1.92 * units.GiB
	nonTorchTPPerRank = 0.045 * units.GiB
)

// nonTorchBytes returns the non-torch memory of one rank of tp x pp in
// bytes. The
// tensor-parallel term is the communicators' device buffers (NCCL's P2P
// transport keeps its per-channel FIFOs in GPU memory, and vLLM's custom
// all-reduce its IPC buffers); GPUs without peer-to-peer access (p2p:
// false) have neither: NCCL's SHM transport puts its FIFOs in host shared
// memory (nccl src/transport/shm.cc, segments under /dev/shm mapped into
// both processes), and vLLM's custom all-reduce disables itself
// (hardware.Interconnect.WithoutP2P). The vLLM 0.10.1.1 TP 2 start-up log
// of such a machine (dennislee22/vLLM-benchmarking
// log/vllm-7B-2gpuA10080GB-0.5GRAM-same-node.log at e514a58: 39.60 GiB
// requested, 7.12 GiB of weights, 31.83 GiB of KV cache) leaves 0.65 GiB
// for the activation peak and non-torch memory together, against 2.08
// GiB for the TP term alone; the worker's 0.07 GiB stays.
func nonTorchBytes(tp, pp int, noP2P bool) units.Bytes {
	if tp == 1 && pp == 1 {
		return nonTorchInProcess
	}
	nt := nonTorchWorker
	if tp > 1 && !noP2P {
		nt += nonTorchTPBase + nonTorchTPPerRank*units.Bytes(tp)
	}
	return nt
}

// budget fills a stage's memory terms and KV pool under the engine's rule:
//
//	profiled (vLLM):   kv = total*util - weights - activation - non_torch
//	static (SGLang):   kv = total*util - weights
//	free fraction:     kv = util * (free - weights - runtime)
//
// free is the memory free when the engine starts (hardware FreeMemory):
// the total on a discrete GPU, less what the OS holds on a unified-memory
// machine; LMDeploy and TensorRT-LLM take their fraction of the free
// memory cudaMemGetInfo reports after loading the weights. A negative pool
// is reported as 0 (the weights do not fit).
func (d *Deployment) budget(s *stage) {
	total := d.Hardware.ReportedMemory()
	util := units.Bytes(d.Utilization)
	switch d.Engine.Rule {
	case release.RuleProfiled:
		s.requestedBytes = total * util
		s.activation = d.activationBytes(s.last)
		s.nonTorch = nonTorchBytes(d.TP, d.PP, d.noP2P)
		if d.Version.CUDAGraphEstimate {
			s.cudaGraph = release.CUDAGraphEstimate(d.MaxNumSeqs, s.hi-s.lo)
		}
		s.kvBytes = s.requestedBytes - s.weightsBytes - s.activation - s.nonTorch - s.cudaGraph - d.feat.bytesOn(s)
	case release.RuleStatic:
		s.requestedBytes = total * util
		s.kvBytes = s.requestedBytes - s.weightsBytes - d.feat.bytesOn(s)
	default:
		s.nonTorch = d.Engine.RuntimeBytes
		free := d.Hardware.FreeMemory() - s.weightsBytes - s.nonTorch - d.feat.bytesOn(s)
		s.requestedBytes = s.weightsBytes + s.nonTorch + free*util
		s.kvBytes = free * util
	}
	if s.kvBytes < 0 || !isFinite(float64(s.kvBytes)) {
		s.kvBytes = 0
	}
}

// freeMemoryWarnings adds the notes on free memory and applies vLLM's
// start-up check; it reports whether the engine starts.
//
// vLLM compares the memory free when it starts with what it will request,
// total x gpu_memory_utilization, and refuses to start when less is free
// ("Free memory on device ... on startup is less than desired GPU memory
// utilization": vllm/v1/worker/gpu_worker.py init_device; on unified-memory
// devices free is the OS's available memory, vllm/utils/mem_utils.py
// MemorySnapshot.measure; hardware.Accelerator.FreeMemory says more). The
// largest utilization that starts is then free / total, rounded down to a
// hundredth. On a DGX Spark at rest (121.69 GiB total, 101.3 GiB free)
// that is 0.83, as its users report.
func (a *reporter) freeMemoryWarnings() bool {
	d, r, st := a.d, a.r, a.st
	hw := &d.Hardware
	total, free := hw.ReportedMemory(), hw.FreeMemory()
	if hw.UnifiedMemory {
		msg := hw.Name + " shares its memory with the operating system: the engine sees " + gib(total) + " GiB in all"
		if hw.MemoryFreeBytes > 0 {
			msg += " and about " + gib(free) + " GiB free when it starts on a machine at rest; every other process takes from the same memory"
		} else {
			msg += "; how much is free when it starts is not known for this machine (give memory_free_bytes), and every other process takes from it"
		}
		r.Warn("unified_memory", msg)
	}
	if d.Engine.Rule != release.RuleProfiled || st.requestedBytes <= free {
		return true
	}
	most := math.Floor(float64(free)/float64(total)*100) / 100
	r.Warn("free_memory_below_requested", "vLLM refuses to start: gpu_memory_utilization "+fielderr.Number(d.Utilization)+" of "+gib(total)+" GiB requests "+gib(st.requestedBytes)+" GiB, more than the "+gib(free)+" GiB free at start-up; the largest gpu_memory_utilization that starts is "+fielderr.Number(most))
	return false
}

// V1ForwardBytes is the V1 activation model less its sampler term: the
// forward's share of the peak for regressors x (tools/calibrate
// -fit-memory subtracts it from a log's peak to fit the sampler's).
func V1ForwardBytes(x ActivationTerms) float64 {
	return actHiddenTensors*x.Hidden + actIntermediateTensors*x.Intermediate + x.MoEWorkspace
}
