package spec

// Session workload defaults (workload.sessions).
const (
	// DefaultSessionTurns is a session's turns when sessions.turns is not
	// given.
	DefaultSessionTurns = 4
	// DefaultSessionNewTokens is what each later turn adds (a user message
	// or a tool result) when sessions.new_tokens is not given.
	DefaultSessionNewTokens = 256
	// DefaultThinkTimeS is the gap between turns when
	// sessions.think_time_s is not given, in seconds.
	DefaultThinkTimeS = 10
	// MaxSessionTurns bounds sessions.turns; MaxThinkTimeS
	// sessions.think_time_s (a day); MaxSessionReplicas sessions.replicas.
	MaxSessionTurns    = 1000
	MaxThinkTimeS      = 86400
	MaxSessionReplicas = 1024
)

// ThinkDistributions are the values of sessions.think_distribution;
// SessionRoutings those of sessions.routing.
var (
	ThinkDistributions = []string{"exponential", "constant"}
	SessionRoutings    = []string{"session_affine", "random"}
)

// SessionWorkload makes the workload agentic multi-turn sessions
// (docs/MODEL.md section 10, "Agentic multi-turn sessions"): each session is turns requests; the first
// prompt is workload.input_tokens, every later prompt the whole
// conversation so far (earlier prompts and outputs) plus new_tokens, every
// output workload.output_tokens. The next turn arrives think_time_s after
// the previous one finished. With prefix caching (on by default with
// sessions) a session's cached conversation stays in the KV cache across
// the gap until other work evicts it (least recently freed first, as
// vLLM's free block queue), so the prefix hit rate is an outcome: the
// report's sessions section gives it analytically, a simulation measures
// it.
type SessionWorkload struct {
	_ noCompare
	// Turns is the turns (requests) per session (default 4).
	Turns *int `json:"turns,omitempty"`
	// NewTokens is the tokens each turn after the first adds to the
	// conversation before its own output (default 256).
	NewTokens *int `json:"new_tokens,omitempty"`
	// ThinkTimeS is the mean gap between a turn's last token and the next
	// turn's arrival, in seconds (a tool call, a user reading; default 10).
	ThinkTimeS *float64 `json:"think_time_s,omitempty"`
	// ThinkDistribution is "exponential" (default) or "constant".
	ThinkDistribution string `json:"think_distribution,omitempty"`
	// SessionRate is the sessions started per second over the whole
	// fleet (Poisson); Users instead runs that many users, each starting a
	// new session when the last one ends. At most one; a simulation needs
	// one of them.
	SessionRate *float64 `json:"session_rate,omitempty"`
	Users       *int     `json:"users,omitempty"`
	// Replicas is the serving replicas the sessions spread over (default
	// 1); each serves 1/replicas of the sessions (figures are one
	// replica's). Routing is "session_affine" (default: every turn of a
	// session goes to the same replica) or "random" (each turn to a
	// replica drawn uniformly, so it finds its conversation only when it
	// lands where the previous turn ran, with probability 1/replicas).
	Replicas *int   `json:"replicas,omitempty"`
	Routing  string `json:"routing,omitempty"`
}

// SessionsReport is a session workload's analytic steady state on one
// replica (docs/MODEL.md section 10, "Agentic multi-turn sessions"). Blocks are KV-cache blocks.
type SessionsReport struct {
	_ noCompare
	// Routing restates workload.sessions.routing.
	Routing string `json:"routing"`
	// SessionRate and TurnRate are one replica's sessions and turns per
	// second (under users, Little's law: users / session length).
	SessionRate float64 `json:"session_rate"`
	TurnRate    float64 `json:"turn_rate"`
	// TurnLatencyMs is a turn's analytic end-to-end latency at the turn
	// rate and mean turn prompt, its cached share skipped (section 5b);
	// SessionDurationS a session's length, first arrival to last token.
	TurnLatencyMs    float64 `json:"turn_latency_ms"`
	SessionDurationS float64 `json:"session_duration_s"`
	// ThinkingSessions is the sessions in think time (Little's law).
	ThinkingSessions float64 `json:"thinking_sessions"`
	// RunningBlocks is what the running turns hold, FreeBlocks the rest of
	// the pool (where cached conversations wait), ResidentDemandBlocks
	// what the thinking sessions' conversations would hold if none were
	// evicted.
	RunningBlocks        float64 `json:"running_blocks"`
	FreeBlocks           float64 `json:"free_blocks"`
	ResidentDemandBlocks float64 `json:"resident_demand_blocks"`
	// CharacteristicTimeS is how long a freed block stays cached;
	// ResidentProbability the chance a returning session finds its
	// conversation.
	CharacteristicTimeS float64 `json:"characteristic_time_s"`
	ResidentProbability float64 `json:"resident_probability"`
	// PrefixHitRate is the expected prompt tokens served from the cache
	// per prompt token under the workload's routing; AffineHitRate and
	// RandomHitRate under each routing, UnboundedHitRate with a pool that
	// never evicts.
	PrefixHitRate    float64 `json:"prefix_hit_rate"`
	AffineHitRate    float64 `json:"affine_hit_rate"`
	RandomHitRate    float64 `json:"random_hit_rate"`
	UnboundedHitRate float64 `json:"unbounded_hit_rate"`
	// PrefillTokensSavedPerS is the prompt tokens per second the cache
	// spares one replica's prefill.
	PrefillTokensSavedPerS float64 `json:"prefill_tokens_saved_per_s"`
}

// SimSessionsReport is what a simulated session workload measured on the
// simulated replica.
type SimSessionsReport struct {
	_ noCompare
	// Sessions started and the turns they issued.
	Sessions int `json:"sessions"`
	Turns    int `json:"turns"`
	// PromptTokens is the completed turns' prompt tokens, CachedTokens
	// those the prefix cache served (the prefill work saved), and
	// PrefixHitRate their ratio; AnalyticHitRate is the report's
	// sessions.prefix_hit_rate beside it.
	PromptTokens    int64   `json:"prompt_tokens"`
	CachedTokens    int64   `json:"cached_tokens"`
	PrefixHitRate   float64 `json:"prefix_hit_rate"`
	AnalyticHitRate float64 `json:"analytic_hit_rate"`
	// PerTurn is the completed turns by turn index (the last entry pools
	// turns from index 31 on).
	PerTurn []SimTurnReport `json:"per_turn,omitempty"`
}

// SimTurnReport is the completed turns of one turn index (0: the first).
type SimTurnReport struct {
	_             noCompare
	Turn          int     `json:"turn"`
	Requests      int     `json:"requests"`
	PrefixHitRate float64 `json:"prefix_hit_rate"`
	TTFTMeanMs    float64 `json:"ttft_mean_ms"`
	TPOTMeanMs    float64 `json:"tpot_mean_ms"`
}
