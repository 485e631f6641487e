// Package sched is the continuous-batching scheduler Throughput's simulator
// runs: vLLM v1's semantics (a token budget per step, chunked prefill, paged
// KV blocks, recompute preemption of the newest request) over a generated
// workload, one forward pass at a time, with the step's cost given by the
// caller.
//
// It is a leaf: it imports only the standard library. It counts KV blocks
// through the BlockCounter interface (kvcache.Layout implements it) and
// times steps through a cost function (calc.Deployment's), so the engine
// wires it to the KV geometry and the step model.
package sched
