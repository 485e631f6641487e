package deploy

import "github.com/modelrefs/throughput/calc/spec"

// ServingAt is the serving model's steady state (Steady) for a benchmark
// run of in prompt and out output tokens per request, at conc requests
// in flight (a closed loop) or rate requests per second (an open loop),
// on a server that runs at most what Evaluate lets it: the scheduler's
// cap, or the preemption onset when that binds first. nil when the
// deployment holds no KV block.
func (d *Deployment) ServingAt(in, out, conc int, rate float64) *spec.ServingReport {
	if d.NumBlocks <= 0 {
		return nil
	}
	pool := d.Pool()
	runCap, why := d.SchedulerCap()
	if onset := pool.Onset(pool.MeanStaggered(in, out)); onset < runCap {
		runCap, why = max(onset, 1), "kv_cache"
	}
	return Analyse(d, nil).Steady(in, out, conc, rate, runCap, why)
}

// HasStartupLog reports whether a start-up log calibrates the
// deployment's memory.
func (d *Deployment) HasStartupLog() bool { return d.startupLog != nil }

// calibrationProfile is the request's calibration profile, nil without.
func calibrationProfile(c *spec.Calibration) *spec.CalibrationProfile {
	if c == nil {
		return nil
	}
	return c.Profile
}
