package calc_test

import (
	"fmt"

	"github.com/modelrefs/throughput/calc"
)

// How many sequences fit, how fast one decode step is, and where aggregate
// throughput stops rising, for Llama 3.1 8B on one H100 under vLLM.
func ExampleEvaluate() {
	rep, err := calc.Evaluate(calc.Request{
		Model:                "meta-llama/Llama-3.1-8B-Instruct",
		Hardware:             calc.HardwareRef{ID: "H100 SXM"},
		GPUMemoryUtilization: calc.Float(0.95),
		MaxModelLen:          calc.Int(8192),
		Workload:             &calc.Workload{InputTokens: calc.Int(1024), OutputTokens: calc.Int(256), Concurrency: calc.Int(64)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("KV cache: %d tokens, %d KiB per token\n", rep.KVCache.CapacityTokens, int(rep.KVCache.BytesPerToken)/1024)
	d := rep.Decode
	fmt.Printf("decode at batch %d, context %d: %.1f ms/step, %.0f tok/s (%.0f tok/s per sequence), %s-bound\n",
		d.BatchSize, d.ContextTokens, d.StepTimeMs, d.TokensPerS, d.TokensPerSPerSequence, d.Bound)
	c := rep.BatchCeiling
	fmt.Printf("ceiling: batch %d (%s)\n", c.BatchSize, c.LimitedBy)
	// By hand: weights read 2 B * (8.03e9 - 0.53e9 embedding) = 15.01 GB,
	// KV read 64 * 1152 * 128 KiB = 9.66 GB; (15.01 + 9.66) GB / (3.35 TB/s
	// * 0.85) = 8.66 ms, plus the 1.15 ms step overhead = 9.8 ms.
	//
	// Output:
	// KV cache: 475824 tokens, 128 KiB per token
	// decode at batch 64, context 1152: 9.8 ms/step, 6521 tok/s (102 tok/s per sequence), memory-bound
	// ceiling: batch 256 (max_num_seqs)
}

// Invalid input is answered with every bad field named.
func ExampleEvaluate_errors() {
	_, err := calc.Evaluate(calc.Request{
		Model:              "meta-llama/Llama-3.1-8B-Instruct",
		Hardware:           calc.HardwareRef{ID: "h100-sxm"},
		TensorParallelSize: calc.Int(3),
	})
	for _, e := range err.(calc.Errors) {
		fmt.Printf("%s: %s\n", e.Field, e.Message)
	}
	// Output:
	// tensor_parallel_size: 3 does not divide the model's 32 attention heads
}
