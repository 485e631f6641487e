package simulate

import (
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/sched"
)

// simSessions converts a session run's outcome; analytic is the report's
// sessions section (nil: none).
func simSessions(st *sched.SessionStats, analytic *spec.SessionsReport) *spec.SimSessionsReport {
	if st == nil {
		return nil
	}
	s := &spec.SimSessionsReport{Sessions: st.Sessions, Turns: st.Turns, PromptTokens: st.PromptTokens,
		CachedTokens: st.CachedTokens, PrefixHitRate: st.HitRate}
	if analytic != nil {
		s.AnalyticHitRate = analytic.PrefixHitRate
	}
	for _, t := range st.PerTurn {
		tr := spec.SimTurnReport{Turn: t.Turn, Requests: t.Requests, TTFTMeanMs: ms(t.TTFTMeanS), TPOTMeanMs: ms(t.TPOTMeanS)}
		if t.PromptTokens > 0 {
			tr.PrefixHitRate = float64(t.CachedTokens) / float64(t.PromptTokens)
		}
		s.PerTurn = append(s.PerTurn, tr)
	}
	return s
}
