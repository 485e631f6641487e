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
const (
	// PlanCandidateUnits is a candidate's fixed cost in work units.
	PlanCandidateUnits = 300
	// PrefillChunkUnits is the cost of one prompt chunk a candidate's
	// analysis prices, in work units.
	PrefillChunkUnits = 3
)

// planWork is the work of n candidates that priced chunks prompt chunks.
func planWork(n int, chunks int64) float64 {
	return PlanCandidateUnits*float64(n) + PrefillChunkUnits*float64(chunks)
}

// preBudget refuses, before the search, a plan whose candidates must cost
// more than the budget: each prices its prompt at least once, in chunks
// of at most the largest max_num_batched_tokens searched.
func (s *planSpec) preBudget(n int) error {
	top := s.topBatched()
	chunks := int64(min((max(s.in, 1)+top-1)/top, 1<<16+1))
	if w := planWork(n, int64(n)*chunks); w > evaluate.DefaultWorkBudget {
		return s.budgetError(n, top, "need about "+numtext.Sci(w)+" work units, above the work budget of "+numtext.Sci(evaluate.DefaultWorkBudget))
	}
	return nil
}

// overBudget is the search's watchdog: after each candidate it checks the
// work counted so far, and stops the search when it is over the budget
// (the plan is refused: no partial figures).
func (p *planner) overBudget() bool {
	if planWork(p.evaluated, p.memo.PrefillChunks()) <= evaluate.DefaultWorkBudget {
		return false
	}
	p.stopErr = p.s.budgetError(p.s.countCandidates(), p.s.topBatched(), "ran past the work budget of "+numtext.Sci(evaluate.DefaultWorkBudget)+" units after "+numtext.Thousands(int64(p.evaluated))+" of them")
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
