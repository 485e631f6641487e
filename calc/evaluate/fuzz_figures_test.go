package evaluate

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelrefs/throughput/calc/finite"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
)

// FuzzEvaluateFigures drives the numbers the issue-16 probe found unsafe
// straight into a request: custom accelerator figures, model_config
// integers, request and simulation rates, parallelism, lengths and price.
// The property: every answer is an error whose every problem names a
// field, or a report with no NaN or Inf. It is seeded with the tiny
// figures (1e-300, 5e-324), the fractional and huge config values (8.5,
// 127.5, 1e13, 1e15) and the floors themselves. Seeds run with go test;
// build.sh test runs it for a bounded time:
//
//	go test -run '^$' -fuzz FuzzEvaluateFigures -fuzztime 20s ./calc/
func FuzzEvaluateFigures(f *testing.F) {
	type seed struct {
		mem, bw, bf16, fp8, icBW, icLat float64
		hidden, kvHeads, headDim        float64
		rate, simRate, price            float64
		tp, in, out, nreq               int
		simulate                        bool
	}
	ok := seed{80e9, 2e12, 1e15, 0, 100e9, 5e-6, 4096, 8, 128, 1, 1, 2, 1, 1024, 256, 20, false}
	seeds := []seed{ok}
	edit := func(fn func(*seed)) { s := ok; fn(&s); seeds = append(seeds, s) }
	edit(func(s *seed) { s.bw = 1e-300 })
	edit(func(s *seed) { s.bf16 = 1e-300 })
	edit(func(s *seed) { s.fp8 = 5e-324 })
	edit(func(s *seed) { s.icBW, s.tp = 1e-300, 2 })
	edit(func(s *seed) { s.icLat, s.tp = 1e300, 2 })
	edit(func(s *seed) { s.mem = 1e3 })
	edit(func(s *seed) { s.kvHeads = 8.5 })
	edit(func(s *seed) { s.kvHeads = 1e13 })
	edit(func(s *seed) { s.kvHeads = 0 })
	edit(func(s *seed) { s.headDim = 127.5 })
	edit(func(s *seed) { s.headDim = 1e15 })
	edit(func(s *seed) { s.hidden = 1e15 })
	edit(func(s *seed) { s.rate, s.simulate = 1e-300, true })
	edit(func(s *seed) { s.simRate, s.simulate = 1e-320, true })
	edit(func(s *seed) { s.simRate, s.simulate = 1e-6, true })
	edit(func(s *seed) { s.bw, s.bf16, s.icBW, s.icLat, s.tp, s.in = 1e9, 1e9, 1e6, 1, 2, 100000 })
	edit(func(s *seed) { s.bw, s.bf16, s.fp8 = 1e18, 1e18, 1e18 })
	edit(func(s *seed) { s.price = 1e6; s.out = 1 })
	for _, s := range seeds {
		f.Add(s.mem, s.bw, s.bf16, s.fp8, s.icBW, s.icLat, s.hidden, s.kvHeads, s.headDim,
			s.rate, s.simRate, s.price, s.tp, s.in, s.out, s.nreq, s.simulate)
	}
	f.Fuzz(func(t *testing.T, mem, bw, bf16, fp8, icBW, icLat, hidden, kvHeads, headDim,
		rate, simRate, price float64, tp, in, out, nreq int, simulate bool) {
		// Keep each run cheap: the work budget is another issue's.
		nreq = 1 + abs(nreq)%200
		in = 1 + abs(in)%200000
		out = 1 + abs(out)%2000
		req := spec.Request{
			ModelConfig: map[string]any{
				"model_type": "llama", "hidden_size": hidden, "num_hidden_layers": 4.0,
				"num_attention_heads": 32.0, "num_key_value_heads": kvHeads, "head_dim": headDim,
				"intermediate_size": 14336.0, "vocab_size": 32000.0, "max_position_embeddings": 262144.0,
			},
			Hardware: spec.HardwareRef{Custom: &hardware.Accelerator{
				MemoryBytes:              hardware.Bytes(int64(clampInt64(mem))),
				MemoryBandwidthBytesPerS: bw,
				PeakFLOPS:                hardware.PeakFLOPS{BF16: bf16, FP8: fp8},
				Interconnect:             hardware.Interconnect{BandwidthBytesPerS: icBW, LatencyS: icLat},
			}},
			TensorParallelSize: &tp,
			GPUHourUSD:         &price,
			Workload:           &spec.Workload{InputTokens: &in, OutputTokens: &out, RequestRate: &rate},
		}
		if simulate {
			req.Simulate = &spec.SimulateOptions{Arrival: "poisson", RequestRate: &simRate, NumRequests: &nreq}
		}
		rep, err := Evaluate(req)
		if err != nil {
			var list spec.Errors
			if !errors.As(err, &list) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			for _, p := range list {
				if p.Field == "" {
					t.Fatalf("a problem names no field: %q", p.Message)
				}
			}
			return
		}
		if nf := finite.NonFinite(&rep); nf != "" {
			p := nf
			t.Fatalf("report's %s is not finite", p)
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("report does not marshal: %v", err)
		}
	})
}

func abs(x int) int {
	if x < 0 {
		if x == -x { // the least int
			return 0
		}
		return -x
	}
	return x
}

// clampInt64 converts a float memory size to int64 without overflow.
func clampInt64(x float64) float64 {
	switch {
	case !(x > -9e18):
		return -9e18
	case x > 9e18:
		return 9e18
	}
	return x
}
