package evaluate

import (
	"errors"
	"testing"

	"github.com/modelrefs/throughput/calc/finite"
	"github.com/modelrefs/throughput/calc/spec"
)

// FuzzFeatures drives the serving features' numbers into one request
// (prefix, prefixes, speculation, LoRA, the CPU tier, data and expert
// parallelism, a small simulation). The property, as FuzzEvaluateFigures':
// an error whose every problem names a field, or a report with no NaN or
// Inf. Seeds run with go test:
//
//	go test -run '^$' -fuzz FuzzFeatures -fuzztime 20s ./calc/
func FuzzFeatures(f *testing.F) {
	f.Add(512, 4, 3, 0.7, 2.0, 4, 16, 1e11, 6.3e10, 1, false, 0, 50, true)
	f.Add(1023, 1, 1, 0.0, 0.0, 1, 1, 1.0, 1e6, 2, true, 8, 200, true)
	f.Add(0, 1000000, 32, 1.0, 33.0, 1024, 1024, 1e15, 1e15, 8, true, 0, 1, false)
	f.Add(-5, 0, 0, -1.0, 0.5, 0, 0, -1.0, 0.0, 0, true, -3, 3, true)
	f.Fuzz(func(t *testing.T, prefix, prefixes, k int, accept, length float64, loras, rank int,
		cpu, bw float64, dp int, ep bool, redundant, nreq int, simulate bool) {
		nreq = 1 + abs(nreq)%100
		model := "meta-llama/Llama-3.1-8B-Instruct"
		if ep || dp > 1 {
			model = "Qwen/Qwen3-30B-A3B"
		}
		req := spec.Request{
			Model: model, Hardware: spec.HardwareRef{ID: "h100-sxm"},
			Workload:         &spec.Workload{InputTokens: spec.Int(1024), OutputTokens: spec.Int(128), SharedPrefixTokens: &prefix, NumPrefixes: &prefixes},
			LoRA:             &spec.LoRAConfig{MaxLoRAs: &loras, MaxLoRARank: &rank},
			KVOffload:        &spec.KVOffload{CPUBytes: &cpu, BandwidthBytesPerS: &bw},
			DataParallelSize: &dp, EnableExpertParallel: &ep, NumRedundantExperts: &redundant,
			SpeculativeConfig: &spec.SpeculativeConfig{NumSpeculativeTokens: &k, AcceptanceRate: &accept},
		}
		if length != 0 {
			req.SpeculativeConfig.AcceptanceRate, req.SpeculativeConfig.MeanAcceptanceLength = nil, &length
		}
		if ep {
			req.LoRA = nil // vLLM's fused-MoE LoRA refuses expert parallelism (a field error)
		}
		if simulate {
			req.Simulate = &spec.SimulateOptions{Arrival: "burst", NumRequests: &nreq}
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
			t.Fatalf("report's %s is not finite", nf)
		}
		if rep.Simulation != nil && rep.Simulation.CompletedRequests+rep.Simulation.RejectedRequests != nreq && !rep.Simulation.Truncated {
			t.Fatalf("%d of %d requests finished", rep.Simulation.CompletedRequests, nreq)
		}
	})
}
