package planner

import (
	"github.com/modelrefs/throughput/calc/evaluate"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/internal/numtext"
)

// The plan's work budget: a plan gets evaluate.DefaultWorkBudget, in the
// same work units (about 10 ns of native CPU each), as an evaluation.
// A candidate's analysis costs a fixed part, bounded by the steady
// state's fixed-point passes (deploy's steadyIters), and one Step a
// chunk of every prompt it prices (deploy.Serving.prefillFrom), whose
// count the request controls: the prompt's tokens over the step's token
// budget, up to 65,537 a call. The planner counts the chunks through its
// memo (deploy.StepMemo.PrefillChunks), so a plan costs
//
//	PlanCandidateUnits*candidates + PrefillChunkUnits*chunks
//
// units. The derivation (TestProbeChunks' probes, whole-catalog plans of
// 3,528 to 7,056 candidates, best of 2 on the shared 2-core machine):
// candidates whose prompts fit one chunk cost 2.6 to 4.5 µs each, hence
// 300 units, so MaxPlanCandidates (12,000) cost 3.6e6 of the 4e6; prompts
// of 1,000 to 16,000,000 tokens in chunks of 1 to 8,192 tokens cost 26 to
// 33 ns a chunk beyond that, hence 3 units.
//
// Each layout's resolution (deploy.ResolveWith: the stages' weights and
// the cost model, built layer by layer) walks every model layer once, a
// loop the request controls through num_hidden_layers (up to 4,096), so
// a plan costs besides
//
//	LayerUnits*layers*layouts
//
// units. The derivation (BenchmarkPlanLayers: whole-catalog plans of a
// 256-wide model of 32, 1,024 and 4,096 layers, 1,764 layouts resolved,
// native CPU medians of 3 in two runs on the shared 2-core machine):
// 10-11, 54-68 and 194-257 ms, so 25 to 34 ns a layer resolved beyond the
// fixed parts, hence 4 units (the ceiling of 3.4). The candidates' steady state itself
// (deploy.Serving.Steady) does not grow with the model: its fixed-point
// passes stop at deploy's steadyIters (8) and each Step walks the
// layers' window classes, not the layers.
const (
	// PlanCandidateUnits is a candidate's fixed cost in work units.
	PlanCandidateUnits = 300
	// PrefillChunkUnits is the cost of one prompt chunk a candidate's
	// analysis prices, in work units.
	PrefillChunkUnits = 3
	// LayerUnits is the cost of one model layer a layout's resolution
	// walks, in work units.
	LayerUnits = 4
)

// planWork is the work of n candidates that priced chunks prompt chunks,
// their layouts' resolutions having walked layers model layers.
func planWork(n int, chunks, layers int64) float64 {
	return PlanCandidateUnits*float64(n) + PrefillChunkUnits*float64(chunks) + LayerUnits*float64(layers)
}

// preBudget refuses, before the search, a plan whose candidates must cost
// more than the budget: each prices its prompt at least once, in chunks
// of at most the largest max_num_batched_tokens searched.
func (s *planSpec) preBudget(n int) error {
	top := s.topBatched()
	chunks := int64(min((max(s.in, 1)+top-1)/top, 1<<16+1))
	if w := planWork(n, int64(n)*chunks, 0); w > evaluate.DefaultWorkBudget {
		return s.budgetError(n, top, "need about "+numtext.Sci(w)+" work units, above the work budget of "+numtext.Sci(evaluate.DefaultWorkBudget))
	}
	return nil
}

// overBudget is the search's watchdog: after each candidate and each
// layout's resolution it checks the work counted so far, and stops the search when it is over the budget
// (the plan is refused: no partial figures).
func (p *planner) overBudget() bool {
	chunks := p.memo.PrefillChunks()
	if p.noStop || planWork(p.evaluated, chunks, p.layerBuilds) <= evaluate.DefaultWorkBudget {
		return false
	}
	n := p.s.countCandidates()
	how := "ran past the work budget of " + numtext.Sci(evaluate.DefaultWorkBudget) + " units after " + numtext.Thousands(int64(p.evaluated)) + " of them"
	if LayerUnits*float64(p.layerBuilds) > PrefillChunkUnits*float64(chunks) {
		// The layers drive it: the model's depth, not the prompt.
		l := len(p.s.model.Layers)
		p.stopErr = spec.Errors{{Field: "model", Message: "the plan resolves each candidate layout of the model's " + numtext.Thousands(int64(l)) + " layer" + numtext.Plural(l) +
			" layer by layer: its " + numtext.Thousands(int64(n)) + " candidate deployments " + how + "; narrow constraints.accelerators or constraints.engines"}}
		return true
	}
	p.stopErr = p.s.budgetError(n, p.s.topBatched(), how)
	return true
}

// budgetError names workload.input_tokens: the prompt's chunks are the
// part of a candidate's cost the request drives.
func (s *planSpec) budgetError(n, top int, how string) error {
	return spec.Errors{{Field: "workload.input_tokens", Message: "the plan prices each candidate's prompt of " + numtext.Thousands(int64(s.in)) +
		" tokens in steps of at most " + numtext.Thousands(int64(top)) + " token" + numtext.Plural(top) + ": its " + numtext.Thousands(int64(n)) + " candidate deployments " + how +
		"; lower workload.input_tokens, raise search.max_num_batched_tokens, or narrow constraints.accelerators or constraints.engines"}}
}

// topBatched is the largest max_num_batched_tokens searched.
func (s *planSpec) topBatched() int {
	top := 1
	for _, b := range s.btok {
		top = max(top, b)
	}
	return top
}
