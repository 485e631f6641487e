package calibrate

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"

	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/numtext"
	"github.com/modelrefs/throughput/internal/units"
)

// The figures a start-up log may state, in report order, each with the
// phrases vLLM logs it under (V1: gpu_model_runner.py, gpu_worker.py,
// kv_cache_utils.py; V0: worker.py "Memory profiling ...") and SGLang's
// (python/sglang/srt/model_executor/model_runner.py at v0.4.3: "Load
// weight begin. avail mem=X GB", the free memory profile_max_num_token
// takes as its total; "Load weight end. ..., mem usage=X GB", the
// weights; mem_cache/memory_pool.py: "KV Cache is allocated. #tokens: N,
// K size: X GB, V size: Y GB", the pool, "KV size" under MLA; SGLang's
// GB is 2^30 bytes), and TensorRT-LLM's (trtllmPool for the pool; the
// PyTorch backend's "Memory used after loading model weights (inside
// torch) in memory usage profiling: X GiB" and "device total memory X
// GiB", tensorrt_llm/_torch/pyexecutor/_util.py KvCacheCreator; the C++
// runtime's "Memory usage when calculating max tokens in paged kv cache:
// total: X GiB", cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp). The
// number is read after the phrase.
var logTerms = []struct {
	name    string
	phrases []string
}{
	{"weights_gib", []string{"Model loading took ", "Loading model weights took ", "model weights take ", "weights memory: ", "Load weight end. ", "Memory used after loading model weights (inside torch) in memory usage profiling: "}},
	{"total_gib", []string{"total_gpu_memory (", "total_gpu_memory=", "Load weight begin. avail mem=", "paged kv cache: total: ", "device total memory "}},
	{"requested_gib", []string{"x gpu_memory_utilization (", "Requested memory"}},
	{"peak_torch_gib", []string{"peak_torch_memory="}},
	{"activation_gib", []string{"PyTorch activation peak memory takes ", "torch peak memory increase: "}},
	{"non_torch_gib", []string{"non_torch_memory takes ", "non_torch_memory=", "non-torch forward increase memory: "}},
	{"cuda_graph_estimate_gib", []string{"Estimated CUDA graph memory: "}},
	{"cuda_graph_gib", []string{"CUDA graph pool memory: ", "Graph capturing finished in "}},
	{"available_kv_gib", []string{"Available KV cache memory: ", "the rest of the memory reserved for KV Cache is ", "kv_cache_size=", "KV Cache is allocated. "}},
	{"kv_cache_tokens", []string{"GPU KV cache size: ", "KV Cache is allocated. #tokens: "}},
	{"num_gpu_blocks", []string{"# GPU blocks: ", "# cuda blocks: ", "num_gpu_blocks is: "}},
	{"max_concurrency", []string{"Maximum concurrency for "}},
}

// The settings of the logged deployment a start-up log may state, by the
// request field's name, each with the phrases it is logged under; the
// number follows the phrase. "Requested memory: 0.90 (util)" and V0's
// "x gpu_memory_utilization (0.90)" and "gpu_memory_utilization=0.90"
// (vllm/worker/worker.py determine_num_available_blocks, v0.6.4-v0.8),
// the 0.21+ note "The current --gpu-memory-utilization=0.8200 is
// equivalent ..." (v1/worker/gpu_worker.py); "Maximum concurrency for N
// tokens per request" (kv_cache_utils.py, N = max_model_len) and the
// engine config's "max_seq_len=N"; "Chunked prefill is enabled with
// max_num_batched_tokens=N." (config/scheduler.py); the API server's
// "non-default args: {...}" dictionary ('max_num_seqs': N,
// 'tensor_parallel_size': N) and the config's tensor_parallel_size=N;
// SGLang's ServerArgs line (mem_fraction_static=, chunked_prefill_size=,
// tp_size=) and its "max_total_num_tokens=N, ..., context_len=N" line;
// TensorRT-LLM's kv_cache_free_gpu_mem_fraction (the request's
// gpu_memory_utilization): the PyTorch backend's "fraction is set F"
// (_util.py), the warning "Both free_gpu_memory_fraction and max_tokens are
// set (to F and N, ...)" (C++ and Python alike), a printed KvCacheConfig's
// free_gpu_memory_fraction=F; and the executor's "max_seq_len=N,
// max_num_requests=N, max_num_tokens=N" line (max_model_len, max_num_seqs,
// max_num_batched_tokens), and its KV cache manager's tokens per block
// (block_size: "Number of tokens per block: N.", "tokens per block=N").
var logSettings = []struct {
	name    string
	phrases []string
}{
	{"gpu_memory_utilization", []string{"x gpu_memory_utilization (", "Requested memory: ", "gpu_memory_utilization=", "--gpu-memory-utilization=", "'gpu_memory_utilization': ", "mem_fraction_static=", "fraction is set ", "and max_tokens are set (to ", "free_gpu_memory_fraction="}},
	{"max_model_len", []string{"Maximum concurrency for ", "max_seq_len=", "'max_model_len': ", "context_len="}},
	{"max_num_batched_tokens", []string{"max_num_batched_tokens=", "'max_num_batched_tokens': ", "chunked_prefill_size=", "max_num_tokens="}},
	{"max_num_seqs", []string{"max_num_seqs=", "'max_num_seqs': ", "max_num_requests="}},
	{"tensor_parallel_size", []string{"tensor_parallel_size=", "'tensor_parallel_size': ", "tp_size="}},
	{"block_size", []string{"Number of tokens per block: ", "tokens per block="}},
}

// trtllmPool is the line TensorRT-LLM's KV cache manager logs once it has
// allocated its pool (cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp
// KVCacheManager::allocatePools, 0.1x and 1.x: "[MemUsageChange] Allocated
// %0.2f GiB for max tokens in paged KV cache (%d).", the tokens being the
// primary blocks times the tokens per block). The PyTorch backend logs it
// twice, for the small pool it profiles with and for the pool it sizes
// from the profile (_util.py KvCacheCreator), so the last one is read: the
// pool's GiB as available_kv_gib, its tokens as kv_cache_tokens.
const (
	trtllmAllocated = "Allocated "
	trtllmPool      = " GiB for max tokens in paged KV cache"
)

// trtllmPoolLine reads a TensorRT-LLM pool line's GiB and tokens (the
// tokens may be absent: ok reports the GiB).
func trtllmPoolLine(line string) (gib float64, gibText string, tokens float64, tokText string, hasTokens, ok bool) {
	j := strings.Index(line, trtllmPool)
	i := strings.LastIndex(line[:max(j, 0)], trtllmAllocated)
	if j < 0 || i < 0 {
		return
	}
	gib, gibText, ok = leadingNumber(line[i+len(trtllmAllocated) : j])
	if !ok || strings.TrimSpace(line[i+len(trtllmAllocated):j]) != gibText {
		return 0, "", 0, "", false, false
	}
	rest := strings.TrimLeft(line[j+len(trtllmPool):], " ")
	if strings.HasPrefix(rest, "(") {
		tokens, tokText, hasTokens = leadingNumber(rest[1:])
	}
	return
}

// settingProblem says what is wrong with a setting read for name, or "":
// a utilisation lies in (0, 1], the others are whole numbers of at least 1.
func settingProblem(name string, v float64) string {
	if name == "gpu_memory_utilization" {
		if !(v > 0 && v <= 1) {
			return "is out of range; a utilisation lies in (0, 1]"
		}
		return ""
	}
	if !(v >= 1 && v <= maxLogCount) || v != math.Trunc(v) {
		return "is out of range; a whole number from 1 to " + numtext.Thousands(int64(maxLogCount))
	}
	return ""
}

// parseStartupLog reads the memory and capacity figures of a vLLM (V0 or
// V1; several releases' wordings), SGLang or TensorRT-LLM start-up log. A
// log in which none of the capacity lines ("Available KV cache memory",
// "GPU KV cache size", "# GPU blocks"; SGLang's "KV Cache is allocated";
// TensorRT-LLM's trtllmPool) appears is an error naming them: it is not a
// start-up log, or it was cut before the KV cache was sized. Every rank
// logs the same lines; the first is read (TensorRT-LLM's pool line: the
// last, trtllmPool).
func parseStartupLog(text string) (spec.StartupLog, error) {
	out := spec.StartupLog{Figures: map[string]float64{}, Settings: map[string]float64{}}
	if len(text) > spec.MaxStartupLogBytes {
		return out, fielderr.New("startup_log", "is "+strconv.Itoa(len(text))+" bytes; at most "+strconv.Itoa(spec.MaxStartupLogBytes))
	}
	var bad fielderr.List
	trtllm := false // a TensorRT-LLM pool line was read
	for ln, line := range strings.Split(text, "\n") {
		if out.Release == "" {
			out.Release = releaseIn(line)
		}
		out.FlashInferSampler = out.FlashInferSampler || strings.Contains(line, "Using FlashInfer for top-p & top-k sampling")
		out.NoP2P = out.NoP2P || strings.Contains(line, "Custom allreduce is disabled because your platform lacks GPU")
		for _, t := range logTerms {
			if _, done := out.Figures[t.name]; done {
				continue
			}
			for _, p := range t.phrases {
				i := strings.Index(line, p)
				if i < 0 {
					continue
				}
				if v, figure, ok := logFigure(t.name, line[i+len(p):]); ok {
					if msg := figureProblem(t.name, v); msg != "" {
						bad.Add("startup_log", "line "+strconv.Itoa(ln+1)+": "+t.name+" "+fielderr.Quote(figure)+" "+msg)
					}
					out.Figures[t.name] = v
					break
				}
			}
		}
		if gib, gt, tok, tt, hasTok, ok := trtllmPoolLine(line); ok {
			trtllm = true
			// The last pool line stands (trtllmPool): a later one replaces
			// the figures of an earlier one.
			delete(out.Figures, "kv_cache_tokens")
			for _, f := range []struct {
				name, text string
				v          float64
				ok         bool
			}{{"available_kv_gib", gt, gib, true}, {"kv_cache_tokens", tt, tok, hasTok}} {
				if !f.ok {
					continue
				}
				if msg := figureProblem(f.name, f.v); msg != "" {
					bad.Add("startup_log", "line "+strconv.Itoa(ln+1)+": "+f.name+" "+fielderr.Quote(f.text)+" "+msg)
				}
				out.Figures[f.name] = f.v
			}
		}
		for _, t := range logSettings {
			if _, done := out.Settings[t.name]; done {
				continue
			}
			for _, p := range t.phrases {
				if i := strings.Index(line, p); i >= 0 {
					if v, figure, ok := leadingNumber(line[i+len(p):]); ok {
						if msg := settingProblem(t.name, v); msg != "" {
							bad.Add("startup_log", "line "+strconv.Itoa(ln+1)+": "+t.name+" "+fielderr.Quote(figure)+" "+msg)
						}
						out.Settings[t.name] = v
						break
					}
				}
			}
		}
	}
	if err := bad.Err(); err != nil {
		return spec.StartupLog{Figures: map[string]float64{}, Settings: map[string]float64{}}, err
	}
	out.Engine = "vllm"
	switch {
	case strings.Contains(text, "KV Cache is allocated") || strings.Contains(text, "ServerArgs("):
		out.Engine = "sglang"
	case trtllm || strings.Contains(text, "[TensorRT-LLM]") || strings.Contains(text, "[TRT-LLM]"):
		out.Engine = "trtllm"
	}
	_, kv := out.Figures["available_kv_gib"]
	_, tok := out.Figures["kv_cache_tokens"]
	_, blk := out.Figures["num_gpu_blocks"]
	if !kv && !tok && !blk {
		if out.Engine == "trtllm" {
			return out, fielderr.New("startup_log", "has no \"[MemUsageChange] Allocated X GiB for max tokens in paged KV cache (N)\" line: it looks like a TensorRT-LLM log cut before its KV cache was allocated; paste the log up to that line")
		}
		msg := "has none of vLLM's KV cache lines (\"Available KV cache memory: X GiB\", \"GPU KV cache size: N tokens\", \"# GPU blocks: N\")"
		switch {
		case strings.Contains(text, "sglang") || strings.Contains(text, "ServerArgs("):
			msg += "; it looks like an SGLang log cut before its \"KV Cache is allocated. #tokens: N\" line"
		default:
			msg += "; paste the log of a vLLM start-up up to the KV cache lines"
		}
		return out, fielderr.New("startup_log", msg)
	}
	return out, nil
}

// releaseIn returns the engine version a line names ("V1 LLM engine
// (v0.22.0)", "vLLM API server version 0.13.0", "[TensorRT-LLM]
// TensorRT-LLM version: 1.0.0"), or "".
func releaseIn(line string) string {
	for _, p := range []string{"LLM engine (v", "vLLM API server version ", "vLLM Version: ", "vLLM Version                 : ", "TensorRT-LLM version: "} {
		if i := strings.Index(line, p); i >= 0 {
			s := line[i+len(p):]
			n := 0
			for n < len(s) && (s[n] == '.' || (s[n] >= '0' && s[n] <= '9')) {
				n++
			}
			if n > 0 && strings.Count(s[:n], ".") >= 1 {
				return strings.Trim(s[:n], ".")
			}
		}
	}
	return ""
}

// The largest figures a start-up log may state: a memory figure in GiB at
// most 1 PiB (1,048,576 GiB, far past any accelerator's memory), a count
// (tokens, blocks, concurrency) at most 10^12. Past them, or below 0, the
// log is refused with a field error naming the line and its figure: such a
// figure is a typo or a forgery, and would make every comparison with it
// meaningless (or infinite).
const (
	maxLogGiB   = 1 << 20
	maxLogCount = 1e12
)

// figureProblem says what is wrong with a figure read for name, or "".
func figureProblem(name string, v float64) string {
	limit, unit := float64(maxLogCount), "a count"
	if strings.HasSuffix(name, "_gib") {
		limit, unit = maxLogGiB, "a figure in GiB"
	}
	switch {
	case v < 0:
		return "is negative; a logged figure is 0 or more"
	case math.IsNaN(v) || v > limit:
		return "is out of range; " + unit + " is at most " + numtext.Thousands(int64(limit))
	}
	return ""
}

// logFigure reads a figure's number from the text after its phrase,
// answering it and its text as written. Memory figures are in GiB (vLLM
// logs GiB, labelled "GB" in early V1 and V0's "took" lines); "Graph
// capturing finished in N secs, took X GiB" holds its figure after "took";
// "Maximum concurrency for N tokens per request: Xx" after the colon.
func logFigure(name, s string) (float64, string, bool) {
	switch name {
	case "requested_gib":
		// V0: "x gpu_memory_utilization (0.90) = 71.29GiB"; V1:
		// "Requested memory: 0.95 (util), 75.23 GiB".
		for _, sep := range []string{") = ", "(util), "} {
			if i := strings.Index(s, sep); i >= 0 {
				return leadingNumber(s[i+len(sep):])
			}
		}
		return 0, "", false
	case "cuda_graph_gib":
		if i := strings.Index(s, "took "); i >= 0 && strings.Contains(s[:i], "sec") {
			s = s[i+len("took "):]
		}
	case "max_concurrency":
		i := strings.Index(s, "per request: ")
		if i < 0 {
			return 0, "", false
		}
		s = s[i+len("per request: "):]
	case "available_kv_gib":
		// SGLang: "#tokens: N, K size: X GB, V size: Y GB" (K plus V), or
		// "KV size: X GB" under MLA.
		if strings.HasPrefix(s, "#tokens") {
			k, kf, kok := numberAfter(s, "K size: ")
			v, _, vok := numberAfter(s, "V size: ")
			if kok && vok {
				return k + v, kf, true
			}
			return numberAfter(s, "KV size: ")
		}
	case "weights_gib":
		// "Model loading took 14.29 GiB memory and 4.66 seconds"; a time
		// alone ("... took 4.18 seconds") is not memory. SGLang: "Load
		// weight end. type=..., avail mem=X GB, mem usage=Y GB."
		if i := strings.Index(s, "mem usage="); i >= 0 && strings.HasPrefix(s, "type=") {
			s = s[i+len("mem usage="):]
		}
		if v, figure, ok := leadingNumber(s); ok {
			rest := strings.TrimSpace(s[len(figure):])
			if strings.HasPrefix(rest, "GiB") || strings.HasPrefix(rest, "GB") {
				return v, figure, true
			}
		}
		return 0, "", false
	}
	return leadingNumber(s)
}

// numberAfter parses the number that follows sep in s.
func numberAfter(s, sep string) (float64, string, bool) {
	i := strings.Index(s, sep)
	if i < 0 {
		return 0, "", false
	}
	return leadingNumber(s[i+len(sep):])
}

// leadingNumber parses the number s starts with (numberLen's), answering
// it and its text. A number too large for a float64 ("1e400") is +Inf, and
// ok: figureProblem refuses it.
func leadingNumber(s string) (float64, string, bool) {
	n := numberLen(s)
	if n == 0 {
		return 0, "", false
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(s[:n], ",", ""), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, "", false
	}
	return v, s[:n], true
}

// numberLen is the length of the number s starts with: a leading minus,
// digits with thousands commas and one point, and an exponent ("5.5e1",
// "1E-3": e or E, a sign, digits) when digits follow the e. A trailing
// point or comma is not the number's ("took 4.18."). It is 0 when s starts
// with no digit.
func numberLen(s string) int {
	n := 0
	if n < len(s) && s[n] == '-' {
		n++
	}
	digits, point := 0, false
mantissa:
	for n < len(s) {
		c := s[n]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == ',' && !point:
		case c == '.' && !point:
			point = true
		default:
			break mantissa
		}
		n++
	}
	for n > 0 && (s[n-1] == '.' || s[n-1] == ',') {
		n--
	}
	if digits == 0 {
		return 0
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		e := n + 1
		if e < len(s) && (s[e] == '+' || s[e] == '-') {
			e++
		}
		d := e
		for d < len(s) && s[d] >= '0' && s[d] <= '9' {
			d++
		}
		if d > e {
			n = d
		}
	}
	return n
}

// compareStartupLog compares the parsed log with the report's figures.
func compareStartupLog(d *deploy.Deployment, r *spec.Report, lg spec.StartupLog) *spec.StartupLogReport {
	gib := func(b int64) float64 { return float64(b) / float64(units.GiB) }
	est := gib(release.CUDAGraphEstimate(d.MaxNumSeqs, d.TightStageLayers()).Int64())
	mem, kv := r.Memory, r.KVCache
	m, applied := d.ModelledMemory()
	if applied {
		// The log's figures replaced the engine's in the report: set the
		// engine's own beside them.
		mem.RequestedBytes, mem.WeightsBytes, mem.ActivationBytes, mem.NonTorchBytes, mem.KVCacheBytes = m.Requested.Int64(), m.Weights.Int64(), m.Activation.Int64(), m.NonTorch.Int64(), m.KV.Int64()
		kv.CapacityTokens, kv.NumBlocks, kv.MaxConcurrency = m.CapacityTokens, m.Blocks, m.MaxConcurrency
	}
	pred := map[string]float64{
		"weights_gib":             gib(mem.WeightsBytes),
		"total_gib":               gib(mem.TotalBytes),
		"requested_gib":           gib(mem.RequestedBytes),
		"peak_torch_gib":          gib(mem.WeightsBytes + mem.ActivationBytes),
		"activation_gib":          gib(mem.ActivationBytes),
		"non_torch_gib":           gib(mem.NonTorchBytes),
		"cuda_graph_estimate_gib": est,
		"cuda_graph_gib":          est,
		"available_kv_gib":        gib(mem.KVCacheBytes),
		"kv_cache_tokens":         float64(kv.CapacityTokens),
		"num_gpu_blocks":          float64(kv.NumBlocks),
		"max_concurrency":         kv.MaxConcurrency,
	}
	out := &spec.StartupLogReport{Release: lg.Release, Terms: []spec.LoggedTerm{}}
	for _, t := range logTerms {
		v, ok := lg.Figures[t.name]
		if !ok {
			out.Missing = append(out.Missing, t.name)
			continue
		}
		p := pred[t.name]
		e := 0.0
		if v > 0 {
			e = p/v - 1
		}
		out.Terms = append(out.Terms, spec.LoggedTerm{Name: t.name, Logged: v, Predicted: p, Error: e})
	}
	if !applied {
		why := "the figures are the engine's own: it applies a vLLM, SGLang or TensorRT-LLM start-up log to a deployment of the same engine and one pipeline stage"
		if tp, ok := lg.Settings["tensor_parallel_size"]; ok && int(tp) != d.TP {
			why = "the log is of tensor_parallel_size " + strconv.Itoa(int(tp)) + ", the request of " + strconv.Itoa(d.TP) + ": its memory figures are another deployment's, and the figures are the engine's own"
		}
		r.Warn("startup_log_not_applied", why)
	}
	if lg.Release != "" && d.Engine.Name == "vllm" {
		if v, ok := release.LookupVersion("vllm", lg.Release); ok && v.Name != d.Version.Name {
			r.Warn("startup_log_release", "the log is from vLLM "+lg.Release+" but the figures model "+d.Version.Name+"; set engine_version to "+v.Name+" to compare like with like")
		}
	}
	if lg.FlashInferSampler && d.Engine.Name == "vllm" && !d.Version.V0 && d.Version.SamplerSort {
		r.Warn("startup_log_sampler", "the log samples with FlashInfer (\"Using FlashInfer for top-p & top-k sampling.\"), whose profile run sorts no vocabulary; set flashinfer_sampler: true to model it")
	}
	if bs, ok := lg.Settings["block_size"]; ok && int(bs) != d.BlockSize {
		r.Warn("startup_log_block_size", "the log's KV cache holds "+strconv.Itoa(int(bs))+" tokens a block (its \"tokens per block\"), the request "+strconv.Itoa(d.BlockSize)+"; set block_size: "+strconv.Itoa(int(bs))+" to model its blocks (the logged pool's tokens are read either way)")
	}
	if lg.NoP2P && d.TP > 1 && !d.NoP2P() {
		r.Warn("startup_log_p2p", "the log's GPUs lack peer-to-peer access (\"Custom allreduce is disabled because your platform lacks GPU P2P capability\"); set p2p: false to model their all-reduces through host memory")
	}
	return out
}
