// Package calc is Throughput's front door: it names the request and report
// contract and the engine's entry points. Evaluate resolves a Request (a
// model on an accelerator under a serving engine's settings, with a
// workload, a latency budget and a price) into a deployment and answers it
// with a Report: the memory budget and KV-cache capacity, one decode
// step's time at a batch and context, the batch ceiling, the preemption
// onset, the best batch under the budget, the cost per million tokens,
// the error bands and, on request, a step-by-step simulation of the
// scheduler. Plan answers a PlanRequest: what to deploy for a workload and
// a budget. ParseRequest, ParsePlanRequest and Validate check a request
// at the boundary, naming every bad field.
//
// Behind it, the engine room holds one capability per package
// (docs/architecture.md maps them): calc/spec, the contract's types and
// field table; calc/release, the engine profiles; calc/deploy, the
// deployment and its step model; calc/evaluate, the evaluation pipeline;
// calc/planner; calc/simulate; calc/calibrate; calc/bands; calc/finite.
// calc's types are theirs, named
// here (type aliases), so that users and doors write calc.Request and
// calc.Report. The contract is described once for every door by package
// calc/contract. docs/MODEL.md gives every formula and its source.
//
// Capabilities are linked in by importing them, as image.Decode decodes the
// formats whose packages a program imports: a program that simulates
// imports calc/simulate, one that reads calibrations and start-up logs
// calc/calibrate, one that evaluates DeepSeek-V4 models/deepseekv4; and one
// that looks models up by name in the embedded catalog imports
// models/catalog (as time/tzdata embeds the time-zone database). The
// browser's light engine imports none of them and refuses those requests
// on their fields, naming the full engine; it fetches catalog.json and
// installs it with models.SetCatalog.
package calc
