package release

import (
	"math"

	"github.com/modelrefs/throughput/internal/units"
)

// SGLang's defaults that depend on the deployment (ServerArgs, whose GPU
// memory is the device's capacity in MiB): the static memory fraction,
// the chunked-prefill size (the simulator's step budget), the largest
// decode CUDA graph, and the running-request cap, which it derives from
// the KV pool once that is sized.

// SGLangDefaults returns SGLang's mem_fraction_static, chunked_prefill_size
// and cuda_graph_max_bs on a GPU of mem bytes at tensor parallelism tp,
// with pipeline parallelism pp, under a release that sizes them by memory
// (byMemory: EngineVersion.GraphMaxByMemory) or not:
//
//   - 0.3 and 0.4 (ServerArgs.__post_init__ of those releases):
//     mem_fraction_static 0.88 at TP 1, 0.87 at TP 2-3, 0.85 at TP 4-7,
//     0.81 at TP 8-15, 0.79 from TP 16 (the other processes' NCCL and
//     CUDA-graph buffers grow with TP); chunked_prefill_size 2048 under
//     25,000 MiB, else 8192; cuda_graph_max_bs 8 under 25,000 MiB at TP
//     below 4 and 80 at TP 4 or more, else 160.
//   - 0.5 (ServerArgs._handle_gpu_memory_settings, python/sglang/srt/
//     server_args.py, read in a 2026 tree), by memory tier: under 20 GiB
//     2048 and 8; under 35 GiB 2048 and 24 (80 at TP 4 or more); under
//     60 GiB 4096 and 32 (160); under 160 GiB (H100, A100 80GB, H20, H200)
//     8192 and 256 (512); else (B200, MI300X) 16384 and 512. The fraction
//     leaves reserved_mem MiB for activations and graphs: 512 + 1.5 x
//     max(chunked_prefill_size, 2048) + 2 x cuda_graph_max_bs + 1024 x tp
//     x pp / 8, at least 10 GiB on a GPU of more than 60 GiB, so
//     mem_fraction_static = (mem - reserved_mem) / mem, rounded to 0.001
//     (H100 80GB, 81,090 MiB reported, at TP 1: (81,090 - 13,440) / 81,090
//     = 0.834). Not modelled: with piecewise CUDA graphs on, a default
//     of 2026 (sgl-project/sglang PR #16331), that tree's reserve adds 8
//     MiB per piecewise capture size (58 up to 8192 tokens: 0.829 on the
//     H100; issue #29092 reports 0.828; docs/MODEL.md section 11).
//     The fraction is kept at 0.05 at least, a valid
//     gpu_memory_utilization, on a GPU smaller than the reserve, whose pool
//     then cannot hold the weights (the report says so).
func SGLangDefaults(byMemory bool, mem units.Bytes, tp, pp int) (fraction float64, chunked, graphMax int) {
	mib := int64(mem / (1 << 20))
	large := 0 // the tier's column: TP below 4, or 4 and more
	if tp >= 4 {
		large = 1
	}
	if !byMemory {
		fraction = 0.88
		for _, f := range sglangOldFractions {
			if tp >= f.tp {
				fraction = f.fraction
				break
			}
		}
		if mib < 25000 {
			return fraction, 2048, int([2]int32{8, 80}[large])
		}
		return fraction, 8192, 160
	}
	t := sglangTiers[len(sglangTiers)-1]
	for _, x := range sglangTiers {
		if mib < x.belowMiB {
			t = x
			break
		}
	}
	chunked, graphMax = int(t.chunked), int(t.graphs[large])
	reserved := 512 + 3*int64(max(chunked, 2048))/2 + 2*int64(graphMax) + 128*int64(tp*pp)
	if mib > 60<<10 {
		reserved = max(reserved, 10<<10)
	}
	fraction = math.Round(float64(mib-reserved)/float64(mib)*1000) / 1000
	return max(fraction, 0.05), chunked, graphMax
}

// sglangOldFractions are 0.3's and 0.4's mem_fraction_static by TP size
// (the first whose tp the deployment reaches; 0.88 below 2).
var sglangOldFractions = [...]struct {
	tp       int
	fraction float64
}{{16, 0.79}, {8, 0.81}, {4, 0.85}, {2, 0.87}}

// sglangTiers are 0.5's chunked_prefill_size and cuda_graph_max_bs (at TP
// below 4 and at 4 or more) for GPUs under belowMiB of memory.
var sglangTiers = [...]struct {
	belowMiB int64
	chunked  int32
	graphs   [2]int32
}{{20 << 10, 2048, [2]int32{8, 8}}, {35 << 10, 2048, [2]int32{24, 80}}, {60 << 10, 4096, [2]int32{32, 160}}, {160 << 10, 8192, [2]int32{256, 512}}, {1 << 40, 16384, [2]int32{512, 512}}}

// SGLangMaxRunningRequests is SGLang's default cap on running requests
// (--max-running-requests unset), for a KV pool of poolTokens tokens and
// a context length of contextLen: the request-to-token pool holds
// min(max(poolTokens / contextLen * 512, 2048), 4096) requests
// (ModelRunner.init_memory_pool, python/sglang/srt/model_executor/
// model_runner.py, read at sgl-project/sglang@01cc04e2 with a 5120 cap,
// 4096 in later trees), and the scheduler admits at most
// min(poolTokens / 2, that) (TpModelWorker.__init__, python/sglang/srt/
// managers/tp_worker.py at 4f34e24: max_total_num_tokens // 2 unless
// given). So SGLang, unlike vLLM's 256 or 1024, is bound by its KV pool,
// not by a sequence count, on any pool of more than 4,096 tokens.
func SGLangMaxRunningRequests(poolTokens int64, contextLen int) int {
	reqs := int64(4096)
	if contextLen > 0 {
		reqs = min(max(poolTokens*512/int64(contextLen), 2048), 4096)
	}
	return int(max(min(poolTokens/2, reqs), 1))
}
