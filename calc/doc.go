// Package calc is Throughput's engine: it resolves a Request (a model on an
// accelerator under a serving engine's settings, with a workload, a latency
// budget and a price) into a Deployment and answers it with a Report: the
// memory budget and KV-cache capacity, one decode step's time at a batch
// and context, the batch ceiling, the preemption onset, the best batch
// under the budget, the cost per million tokens and, on request, a
// step-by-step simulation of the scheduler.
//
// It builds on the leaves (hardware, kvcache, models, sched) and is wired
// to the world by the doors (api for HTTP, wasm/js for JavaScript,
// wasm/worker for the edge). Its request contract (types, and the bounds,
// enums and defaults in Fields) is described once by package
// calc/contract for every door. docs/MODEL.md gives every formula and its
// source.
//
// It does not link in the model catalog: a Go program that looks models up
// by name imports package models/catalog, which embeds the catalog and
// installs it (as time/tzdata embeds the time-zone database); the browser
// engines, which import calc but not that package, fetch catalog.json and
// install it with models.SetCatalog.
package calc
