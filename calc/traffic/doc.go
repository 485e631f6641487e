// Package traffic reads the traffic a simulation replays or draws (issue
// 33, docs/MODEL.md section 14): request traces in the public formats
// (the Mooncake trace's JSONL, the Azure LLM inference traces' CSV, and a
// plain CSV or JSONL), and a request rate that varies in time, from which
// arrivals are drawn as a non-homogeneous Poisson process by thinning
// (Lewis and Shedler 1979). Package calc/fleet simulates an autoscaled
// fleet under such traffic.
package traffic
