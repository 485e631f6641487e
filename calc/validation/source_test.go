package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSourceKey checks the source keys of hand-written sources: rows,
// anchors, commits and comments of one document share a key; two
// documents do not.
func TestSourceKey(t *testing.T) {
	cases := []struct {
		name            string
		repo, path, url string
		number          int
		want            string
	}{
		{"repo and path, row anchor in the URL", "ROCm/vllm", "docs/dev-docker/README.md", "https://github.com/ROCm/vllm/blob/b309ea7/docs/dev-docker/README.md#L12", 0, "ROCm/vllm/docs/dev-docker/README.md"},
		{"the same file at another commit", "ROCm/vllm", "docs/dev-docker/README.md", "https://github.com/ROCm/vllm/blob/040de12/docs/dev-docker/README.md", 0, "ROCm/vllm/docs/dev-docker/README.md"},
		{"a note after the path", "llm-d-incubation/llm-d-planner", "accuracy/results/v0.19.0/results_raw.csv (parsed from accuracy/results/v0.19.0/logs/*.log)", "", 0, "llm-d-incubation/llm-d-planner/accuracy/results/v0.19.0/results_raw.csv"},
		{"a blob URL alone", "", "", "https://github.com/vllm-project/vllm-project.github.io/blob/c3a01c4/_posts/2026-04-22-fp8-kvcache.md#L150", 0, "vllm-project/vllm-project.github.io/_posts/2026-04-22-fp8-kvcache.md"},
		{"a pull request's URL with a comment anchor", "", "", "https://github.com/ggml-org/llama.cpp/pull/3084#issuecomment-1709876543", 0, "ggml-org/llama.cpp#3084"},
		{"a pull request's files tab", "", "", "https://github.com/ggml-org/llama.cpp/pull/3084/files", 0, "ggml-org/llama.cpp#3084"},
		{"a pull request by number", "vllm-project/vllm", "", "https://github.com/vllm-project/vllm/pull/10511", 10511, "vllm-project/vllm#10511"},
		{"an issue's URL with a query", "", "", "https://github.com/tenstorrent/tt-inference-server/issues/340?utm=x", 0, "tenstorrent/tt-inference-server#340"},
		{"another issue of that repository", "", "", "https://github.com/tenstorrent/tt-inference-server/issues/356", 0, "tenstorrent/tt-inference-server#356"},
		{"a web page", "", "", "https://www.myoceane.fr/index.php/ai-vllm-a100-gemma-4/#results", 0, "myoceane.fr/index.php/ai-vllm-a100-gemma-4"},
		{"a web page, scheme and trailing slash aside", "", "", "http://yobitelcomm.github.io/bench/recipes/concurrency-sweep", 0, "yobitelcomm.github.io/bench/recipes/concurrency-sweep"},
		{"a repository alone", "XiongjieDai/GPU-Benchmarks-on-LLM-Inference", "", "", 0, "XiongjieDai/GPU-Benchmarks-on-LLM-Inference"},
		{"nothing", "", "", "", 0, ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, SourceKey(c.repo, c.path, c.url, c.number), c.name)
	}
}

// TestSourceKeyOfCase checks that a case's source object is keyed by its
// repo and pr or issue fields as by its URL.
func TestSourceKeyOfCase(t *testing.T) {
	byNumber := sourceKey(map[string]any{"repo": "vllm-project/vllm", "issue": float64(10517), "where": "comment by kaspersiminski"})
	byURL := sourceKey(map[string]any{"url": "https://github.com/vllm-project/vllm/issues/10517#issuecomment-1"})
	assert.Equal(t, "vllm-project/vllm#10517", byNumber)
	assert.Equal(t, byNumber, byURL)
}
