package planner

import (
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/evaluate"

	"github.com/modelrefs/throughput/calc/spec"

	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/numtext"
)

// launchCommand writes one replica's command line for the deployment's
// engine, with the flags each engine's CLI names for the settings the
// planner chose (vLLM 0.19 `vllm serve --help`; SGLang
// python/sglang/srt/server_args.py; LMDeploy `lmdeploy serve api_server`;
// TensorRT-LLM `trtllm-serve`; llama.cpp tools/server README), and the
// notes it needs besides.
//
// Every value it writes is the one the deployment was costed with: the
// memory fraction is the resolved gpu_memory_utilization (the release's
// own under vLLM, 0.92 from 0.21; SGLang's mem_fraction_static by GPU
// memory and TP, engine_sglang.go), not the engine table's constant, and
// the speculative config is the plan request's. The settings it leaves
// out (dtype, block size) were costed at the engine's own defaults, which
// the engine then picks itself.
func launchCommand(s *planSpec, dep *planned) (string, []string) {
	model := "<path-to-model>"
	if s.req.Model != "" {
		model = s.model.ID
	}
	util := fielderr.Number(dep.util)
	tp, pp, L := itoa(dep.TensorParallelSize), itoa(dep.PipelineParallelSize), itoa(dep.MaxModelLen)
	seqs, bt := itoa(dep.MaxNumSeqs), itoa(dep.MaxNumBatchedTokens)
	q := dep.Evaluate.Quantization
	fp8KV := dep.KVCacheDtype != "auto"
	notes := []string{}
	var cmd string
	switch dep.Engine {
	case "sglang":
		if dep.DataParallelSize > 1 {
			// SGLang's --tp-size counts every GPU of the group; with DP
			// attention each of --dp-size ranks runs tp-size/dp-size of
			// the attention (docs/advanced_features/dp_dpa_smg_guide.md,
			// docs/basic_usage/deepseek_v32.md).
			tp = itoa(dep.TensorParallelSize * dep.DataParallelSize)
		}
		cmd = "python -m sglang.launch_server --model-path " + model + " --tp-size " + tp
		if dep.PipelineParallelSize > 1 {
			cmd += " --pp-size " + pp
		}
		if dep.DataParallelSize > 1 {
			cmd += " --dp-size " + itoa(dep.DataParallelSize) + " --enable-dp-attention"
		}
		if dep.ExpertParallel {
			cmd += " --ep-size " + tp
		}
		cmd += " --context-length " + L + " --mem-fraction-static " + util + " --max-running-requests " + seqs + " --chunked-prefill-size " + bt
		if fp8KV {
			cmd += " --kv-cache-dtype fp8_e4m3"
		}
		if q != "" {
			cmd += " --quantization " + sglangQuant(q)
		}
		cmd += sglangSpecFlags(s.req.SpeculativeConfig, s.specMethod)
		if dep.Mode == "disaggregated" {
			cmd += " --disaggregation-mode decode"
			notes = append(notes, "the "+itoa(dep.PrefillReplicas)+" prefill instances run the same command with --disaggregation-mode prefill, behind SGLang's mini load balancer")
		}
	case "lmdeploy":
		cmd = "lmdeploy serve api_server " + model + " --tp " + tp + " --session-len " + L + " --cache-max-entry-count " + util + " --max-batch-size " + seqs
		if q == "awq" {
			cmd += " --model-format awq"
		}
	case "trtllm":
		if dep.DataParallelSize > 1 {
			// TensorRT-LLM's DEP: the world is tensor_parallel_size,
			// attention runs data parallel over it and the experts are
			// spread over moe_expert_parallel_size ranks
			// (docs/source/torch/features/parallel-strategy.md).
			tp = itoa(dep.TensorParallelSize * dep.DataParallelSize)
		}
		cmd = "trtllm-serve " + model + " --tp_size " + tp + " --pp_size " + pp + " --max_seq_len " + L + " --max_batch_size " + seqs +
			" --max_num_tokens " + bt + " --kv_cache_free_gpu_memory_fraction " + util
		if dep.ExpertParallel {
			cmd += " --ep_size " + tp
		}
		if dep.DataParallelSize > 1 {
			cmd += " --extra_llm_api_options extra_llm_api_options.yaml"
			notes = append(notes, "extra_llm_api_options.yaml holds enable_attention_dp: true (attention data parallel over the "+tp+" ranks)")
		}
	case "llamacpp":
		cmd = "llama-server -m " + model + ".gguf -c " + itoa(dep.MaxModelLen*dep.MaxNumSeqs) + " --parallel " + seqs + " -ngl 999"
		if q != "" {
			notes = append(notes, "needs a GGUF file of the model quantized to "+q)
		}
	default:
		cmd = "vllm serve " + model + " --tensor-parallel-size " + tp
		if dep.PipelineParallelSize > 1 {
			cmd += " --pipeline-parallel-size " + pp
		}
		// Data-parallel attention ranks, experts spread over tp x dp GPUs
		// (vLLM docs/serving/data_parallel_deployment.md and
		// expert_parallel_deployment.md).
		if dep.DataParallelSize > 1 {
			cmd += " --data-parallel-size " + itoa(dep.DataParallelSize)
		}
		if dep.ExpertParallel {
			cmd += " --enable-expert-parallel"
		}
		cmd += " --max-model-len " + L + " --gpu-memory-utilization " + util + " --max-num-seqs " + seqs + " --max-num-batched-tokens " + bt
		if fp8KV {
			cmd += " --kv-cache-dtype fp8"
		}
		if q != "" && q != "nvfp4" && q != "mxfp4" {
			// vLLM reads the 4-bit float formats from the checkpoint's
			// quantization_config (modelopt_fp4, mxfp4), with no flag.
			cmd += " --quantization " + q
		}
		cmd += vllmSpecFlags(s.req.SpeculativeConfig, s.specMethod)
		if dep.Mode == "disaggregated" {
			cmd += ` --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'`
			notes = append(notes, "the "+itoa(dep.PrefillReplicas)+" prefill and "+itoa(dep.DecodeReplicas)+" decode instances run the same command, behind vLLM's disaggregated-serving proxy")
		}
	}
	if sc := s.req.SpeculativeConfig; sc != nil && dep.Engine != "vllm" && dep.Engine != "sglang" {
		notes = append(notes, "speculative decoding ("+s.specMethod+", "+itoa(*sc.NumSpeculativeTokens)+" drafted tokens) was costed: enable it with "+dep.Engine+"'s own option")
	}
	switch q {
	case "awq":
		notes = append(notes, "int4 needs an AWQ checkpoint of the model: replace the model id with one")
	case "int8":
		notes = append(notes, "int8 (W8A8) needs an int8 compressed-tensors checkpoint of the model: replace the model id with one")
	case "nvfp4":
		notes = append(notes, "nvfp4 needs an NVFP4 checkpoint of the model (NVIDIA Model Optimizer's, as nvidia/ publishes them): replace the model id with one")
	case "mxfp4":
		notes = append(notes, "mxfp4 needs a checkpoint of the model with MXFP4 expert weights: replace the model id with one")
	}
	if dep.Mode == "aggregated" && dep.Replicas > 1 {
		notes = append(notes, "run "+itoa(dep.Replicas)+" replicas behind a load balancer")
	}
	return cmd, notes
}

// vllmSpecFlags is the speculative config the deployment was costed
// with as vLLM's --speculative-config JSON (vllm/config/speculative.py
// spec.SpeculativeConfig: method, model, num_speculative_tokens). An EAGLE head
// is a checkpoint of its own, named by a placeholder; "mtp" and "ngram"
// need none (vLLM takes the model's own MTP layers, or the prompt).
// m is its method as resolved (planSpec.specMethod).
func vllmSpecFlags(sc *spec.SpeculativeConfig, m string) string {
	if sc == nil {
		return ""
	}
	j := `{"method":"` + m + `"`
	switch m {
	case "draft_model":
		j += `,"model":"` + sc.Model + `"`
	case "eagle", "eagle3":
		j += `,"model":"<` + m + `-head>"`
	}
	return " --speculative-config '" + j + `,"num_speculative_tokens":` + itoa(*sc.NumSpeculativeTokens) + "}'"
}

// sglangSpecFlags is the speculative config as SGLang's flags
// (python/sglang/srt/server_args.py; docs/advanced_features/
// speculative_decoding.md): a chain of k drafts is --speculative-num-steps
// k with --speculative-eagle-topk 1 and k+1 tokens to verify. The model's
// own MTP layers run under SGLang's EAGLE algorithm (its DeepSeek MTP
// recipe); a draft model is STANDALONE.
func sglangSpecFlags(sc *spec.SpeculativeConfig, m string) string {
	if sc == nil {
		return ""
	}
	k := *sc.NumSpeculativeTokens
	var f string
	switch m {
	case "ngram":
		return " --speculative-algorithm NGRAM --speculative-num-draft-tokens " + itoa(k+1)
	case "draft_model":
		f = " --speculative-algorithm STANDALONE --speculative-draft-model-path " + sc.Model
	case "mtp":
		f = " --speculative-algorithm EAGLE"
	default:
		f = " --speculative-algorithm " + strings.ToUpper(m) + " --speculative-draft-model-path <" + m + "-head>"
	}
	return f + " --speculative-num-steps " + itoa(k) + " --speculative-eagle-topk 1 --speculative-num-draft-tokens " + itoa(k+1)
}

// verify replays the top deployments (aggregated ones; the simulator
// models one aggregated instance) in the simulator at one replica's share
// of the load, through Evaluate's simulate section, records their latency
// percentiles beside the analytic figures, and re-ranks (rerank) so that
// no deployment the simulator finds to miss the budget heads the plan.
// The runs together must fit DefaultWorkBudget: a verify the request
// gave is refused naming verify.num_requests; the default one simulates
// fewer requests, or none (warning verify_skipped) below minVerifyN.
func (s *planSpec) verify(r *spec.PlanReport) error {
	var reqs []spec.Request
	var at []int
	for i := range r.Deployments {
		if len(reqs) == s.verifyTop {
			break
		}
		d := &r.Deployments[i]
		if d.Mode != "aggregated" {
			continue
		}
		req := d.Evaluate
		req.Sweep = &spec.SweepOptions{Points: spec.Int(2)}
		req.Simulate = &spec.SimulateOptions{Seed: &s.verifySeed, TimelinePoints: spec.Int(0)}
		if s.req.Workload.InputDistribution != nil {
			req.Simulate.InputTokens = s.req.Workload.InputDistribution
		}
		if s.req.Workload.OutputDistribution != nil {
			req.Simulate.OutputTokens = s.req.Workload.OutputDistribution
		}
		if s.burst && req.Workload != nil && req.Workload.Concurrency != nil {
			// A burst is replayed as one: a replica's share of it sent
			// at once (the simulator's burst arrival), whatever
			// verify.num_requests says.
			req.Simulate.Arrival = "burst"
			req.Simulate.NumRequests = spec.Int(*req.Workload.Concurrency)
		}
		reqs = append(reqs, req)
		at = append(at, i)
	}
	if len(reqs) == 0 {
		return nil
	}
	n := s.verifyN
	total, err := s.verifyWork(reqs, n)
	if err != nil {
		return err
	}
	if total > evaluate.DefaultWorkBudget {
		fit := int(float64(n) * evaluate.DefaultWorkBudget / total)
		if s.burst {
			fit = 0 // a burst replays whole or not at all
		}
		if !s.verifyAuto {
			return spec.Errors{{Field: "verify.num_requests", Message: "verifying " + itoa(len(reqs)) + " deployments needs about " + numtext.Sci(total) + " sequence-steps, above the work budget of " + numtext.Sci(evaluate.DefaultWorkBudget) + "; lower verify.num_requests to about " + numtext.Fit(s.verifyN, evaluate.DefaultWorkBudget/total) + " or verify.top"}}
		}
		if fit < minVerifyN {
			r.Warnings = append(r.Warnings, spec.Warning{Code: "verify_skipped", Message: "the simulator check of the top " + itoa(len(reqs)) + " deployments would need about " + numtext.Sci(total) + " sequence-steps for " + itoa(n) + " requests each, above the work budget of " + numtext.Sci(evaluate.DefaultWorkBudget) + " even at " + itoa(minVerifyN) + " requests; the ranking is the analytic one (verify.top and verify.num_requests ask for a smaller check)"})
			return nil
		}
		n = fit
	}
	for k, req := range reqs {
		if req.Simulate.Arrival != "burst" {
			req.Simulate.NumRequests = spec.Int(n)
		}
		rep, err := evaluate.EvaluateWithBudget(req, math.Inf(1))
		if err != nil || rep.Simulation == nil {
			continue
		}
		sim := rep.Simulation
		v := &spec.PlanSimulated{NumRequests: sim.NumRequests, TTFTMs: sim.TTFTMs, TPOTMs: sim.TPOTMs, Preemptions: sim.Preemptions}
		v.MeetsBudget = (s.ttftS == 0 || stat(sim.TTFTMs, s.ttftStat) <= s.ttftS*1000) &&
			(s.tpotS == 0 || stat(sim.TPOTMs, s.tpotStat) <= s.tpotS*1000)
		r.Deployments[at[k]].Simulated = v
	}
	s.rerank(r)
	return nil
}

// minVerifyN is the fewest requests a default simulator check runs per
// deployment: below it a replay's percentiles say little.
const minVerifyN = 50

// verifyWork is the simulator work (sequence-steps, EstimateWork) of
// running reqs with n requests each.
func (s *planSpec) verifyWork(reqs []spec.Request, n int) (float64, error) {
	var total float64
	for _, req := range reqs {
		m := n
		if req.Simulate.Arrival == "burst" {
			m = *req.Simulate.NumRequests
		}
		req.Simulate = &spec.SimulateOptions{NumRequests: spec.Int(m), Seed: req.Simulate.Seed, TimelinePoints: spec.Int(0),
			InputTokens: req.Simulate.InputTokens, OutputTokens: req.Simulate.OutputTokens, Arrival: req.Simulate.Arrival}
		est, err := evaluate.EstimateWork(req)
		if err != nil {
			return 0, err
		}
		total += est.Simulation
	}
	return total, nil
}

// refuted reports whether the simulator replayed d and found it to miss
// the budget.
func refuted(d *spec.PlanDeployment) bool { return d.Simulated != nil && !d.Simulated.MeetsBudget }

// rerank moves the deployments the simulator refuted after the others
// (each group in its cost order), renumbers the ranks, remaps the picks'
// and the frontier's indices, rewrites the answer for the new headline
// with its simulated figures beside the analytic ones, and warns
// (verify_reranked) naming what moved. When every verified deployment is
// refuted and nothing else is listed, the order stays and the answer and
// a warning (verify_misses_budget) say that the simulator finds the pick
// misses the budget.
func (s *planSpec) rerank(r *spec.PlanReport) {
	deps := r.Deployments
	var moved []string
	order := make([]int, 0, len(deps))
	for i := range deps {
		if !refuted(&deps[i]) {
			order = append(order, i)
		}
	}
	kept := len(order)
	for i := range deps {
		if refuted(&deps[i]) {
			order = append(order, i)
			moved = append(moved, label(&deps[i]))
		}
	}
	if len(moved) > 0 && kept > 0 && order[0] != 0 {
		pos := make([]int, len(deps))
		out := make([]spec.PlanDeployment, len(deps))
		for k, i := range order {
			pos[i] = k
			out[k] = deps[i]
			out[k].Rank = k + 1
		}
		r.Deployments = out
		remap := func(i int) int {
			if i < 0 {
				return i
			}
			return pos[i]
		}
		r.Cheapest, r.FewestGPUs, r.LowestLatency = 0, remap(r.FewestGPUs), remap(r.LowestLatency)
		// A pick the simulator refuted gives way to the best listed row
		// it does not refute, by the pick's own order.
		if r.FewestGPUs >= 0 && refuted(&out[r.FewestGPUs]) {
			r.FewestGPUs = pickAmong(out[:kept], func(a, b *spec.PlanDeployment) bool { return a.GPUs < b.GPUs })
		}
		if r.LowestLatency >= 0 && refuted(&out[r.LowestLatency]) {
			r.LowestLatency = pickAmong(out[:kept], func(a, b *spec.PlanDeployment) bool {
				return a.TPOTMs < b.TPOTMs || (a.TPOTMs == b.TPOTMs && a.TTFTMs < b.TTFTMs)
			})
		}
		for k := range r.Frontier {
			r.Frontier[k].Index = remap(r.Frontier[k].Index)
		}
		r.Warnings = append(r.Warnings, spec.Warning{Code: "verify_reranked", Message: "the simulator finds " + strings.Join(moved, "; ") + " to miss the budget at " + s.statText() + "; ranked after the deployments it does not refute"})
	}
	if len(r.Deployments) == 0 {
		return
	}
	head := &r.Deployments[0]
	r.Answer = headline(head)
	if v := head.Simulated; v != nil {
		r.Answer += " (simulated: TTFT " + s.ttftStat + " " + strconv.FormatFloat(stat(v.TTFTMs, s.ttftStat), 'f', 1, 64) + " ms, TPOT " + s.tpotStat + " " + strconv.FormatFloat(stat(v.TPOTMs, s.tpotStat), 'f', 1, 64) + " ms)"
		if !v.MeetsBudget {
			r.Answer += "; the simulator finds it misses the budget"
			r.Warnings = append(r.Warnings, spec.Warning{Code: "verify_misses_budget", Message: "every deployment the simulator replayed misses the budget at " + s.statText() + " (" + label(head) + ": TTFT " + s.ttftStat + " " + strconv.FormatFloat(stat(v.TTFTMs, s.ttftStat), 'f', 1, 64) + " ms, TPOT " + s.tpotStat + " " + strconv.FormatFloat(stat(v.TPOTMs, s.tpotStat), 'f', 1, 64) + " ms); loosen the budget, or ask for more capacity (constraints)"})
		}
	}
}

// pickAmong returns the index of the first row of deps that no later row
// is less than.
func pickAmong(deps []spec.PlanDeployment, less func(a, b *spec.PlanDeployment) bool) int {
	best := 0
	for i := range deps {
		if less(&deps[i], &deps[best]) {
			best = i
		}
	}
	return best
}

// statText names the budget the simulator checks, e.g. "TTFT p50 <= 1000
// ms, TPOT p50 <= 50 ms".
func (s *planSpec) statText() string {
	var parts []string
	if s.ttftS > 0 {
		parts = append(parts, "TTFT "+s.ttftStat+" <= "+msText(s.ttftS))
	}
	if s.tpotS > 0 {
		parts = append(parts, "TPOT "+s.tpotStat+" <= "+msText(s.tpotS))
	}
	if len(parts) == 0 {
		return "no latency budget"
	}
	return strings.Join(parts, ", ")
}

// stat picks a statistic of a latency summary.
func stat(l spec.LatencySummary, name string) float64 {
	switch name {
	case "p50":
		return l.P50
	case "p90":
		return l.P90
	case "p99":
		return l.P99
	}
	return l.Mean
}

// sglangQuant is SGLang's --quantization name for a request's
// quantization: ModelOpt's NVFP4 is "modelopt_fp4"
// (python/sglang/srt/server_args.py QUANTIZATION_CHOICES, v0.5.5), the
// others keep their names.
func sglangQuant(q string) string {
	if q == "nvfp4" {
		return "modelopt_fp4"
	}
	return q
}
