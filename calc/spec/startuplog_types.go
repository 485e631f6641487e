package spec

// MaxStartupLogBytes bounds startup_log: a start-up log is a few hundred
// lines; a megabyte is far beyond one.
const MaxStartupLogBytes = 1 << 20

// StartupLog is what a vLLM, SGLang or TensorRT-LLM start-up log states
// about memory and capacity, read by ParseStartupLog. A figure the log
// does not state is absent from Figures.
type StartupLog struct {
	_ noCompare
	// Release is the engine version the log names, when it does ("0.22.0";
	// TensorRT-LLM's "TensorRT-LLM version: 1.0.0").
	Release string
	// Engine is the engine whose log it is: "sglang" when it has SGLang's
	// lines ("KV Cache is allocated", "ServerArgs("), "trtllm" when it has
	// TensorRT-LLM's ("[TensorRT-LLM]", "[TRT-LLM]"), else "vllm".
	Engine string
	// Figures holds each figure the log states, by its name (logTerms).
	Figures map[string]float64
	// Settings holds the settings of the logged deployment that the log
	// states, by the request field's name (gpu_memory_utilization,
	// max_model_len, max_num_batched_tokens, max_num_seqs,
	// tensor_parallel_size, block_size); the calibration takes the
	// request's for the others.
	Settings map[string]float64
	// FlashInferSampler: the log says "Using FlashInfer for top-p & top-k
	// sampling." (the request's flashinfer_sampler); NoP2P: it says
	// "Custom allreduce is disabled because your platform lacks GPU P2P
	// capability" (the request's p2p: false).
	FlashInferSampler, NoP2P bool
}

// StartupLogReport sets a pasted start-up log's figures beside the
// engine's own model of the same deployment (the report's memory figures
// are the log's where it applies: MemoryReport.Sources).
type StartupLogReport struct {
	_ noCompare
	// Release is the engine version the log names, when it does.
	Release string `json:"release,omitempty"`
	// Terms are the figures the log states, each beside the engine's.
	Terms []LoggedTerm `json:"terms"`
	// Missing names the figures the log does not state.
	Missing []string `json:"missing,omitempty"`
}

// LoggedTerm is one logged figure and the engine's own figure for it (its
// model's, before the log calibrated the report's memory figures), in the
// unit its name ends with (GiB per GPU, tokens, blocks, or the
// concurrency's x).
type LoggedTerm struct {
	_         noCompare
	Name      string  `json:"name"`
	Logged    float64 `json:"logged"`
	Predicted float64 `json:"predicted"`
	// Error is predicted / logged - 1 (0 when the logged figure is not
	// positive: a log can show a negative KV memory when nothing fits).
	Error float64 `json:"error"`
}
