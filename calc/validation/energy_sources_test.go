package validation_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// energySource is where a published power case was read.
type energySource struct {
	Repo   string `json:"repo"`
	Path   string `json:"path"`
	Commit string `json:"commit"`
	URL    string `json:"url"`
	Where  string `json:"where"`
}

// energyCaseRow is the part of a testdata/energy.json case this package
// checks (calc/energy_validation_test.go evaluates the cases).
type energyCaseRow struct {
	ID       string             `json:"id"`
	Source   energySource       `json:"source"`
	Measured map[string]float64 `json:"measured"`
	Expect   map[string]string  `json:"expect"`
	Miss     string             `json:"miss"`
}

// loadEnergyCases reads testdata/energy.json's cases.
func loadEnergyCases(t *testing.T) []energyCaseRow {
	t.Helper()
	var file struct {
		Cases []energyCaseRow `json:"cases"`
	}
	if raw, err := os.ReadFile("testdata/energy.json"); assert.NoError(t, err) {
		require.NoError(t, json.Unmarshal(raw, &file))
	}
	require.NotEmpty(t, file.Cases)
	return file.Cases
}

// Every published power case names a citable source, a repository with
// its path and commit, or a URL, none kept aside
// (../shared/validation/README.md) and none a document that the shared
// cases cite; every case states its measured power and rate and what the
// energy test expects of its power and its joules per token.
func TestEnergyCasesWellFormed(t *testing.T) {
	cited := citedDocuments(t)
	seen := map[string]bool{}
	for _, c := range loadEnergyCases(t) {
		t.Run(c.ID, func(t *testing.T) {
			assert.False(t, seen[c.ID], "duplicate id")
			seen[c.ID] = true
			s := c.Source
			if s.Repo != "" {
				assert.NotEmpty(t, s.Path, "source.path")
				assert.Regexp(t, hex40, s.Commit, "source.commit")
			} else {
				assert.NotEmpty(t, s.URL, "source.url")
			}
			assert.NotEmpty(t, s.Where, "source.where")
			where := strings.ToLower(s.Repo + " " + s.Path + " " + s.URL)
			for _, k := range keptAside {
				assert.NotContains(t, where, k, "kept-aside source")
			}
			assert.False(t, slices.Contains(cited, strings.ToLower(s.Repo+"/"+s.Path)), "a document cases.json cites")
			assert.Positive(t, c.Measured["gpu_power_w"], "measured.gpu_power_w")
			assert.Positive(t, c.Measured["output_tokens_per_s"], "measured.output_tokens_per_s")
			for _, figure := range []string{"power", "joules"} {
				assert.Contains(t, []string{"within", "miss"}, c.Expect[figure], "expect.%s", figure)
				if c.Expect[figure] == "miss" {
					assert.NotEmpty(t, c.Miss, "a miss names its reason")
				}
			}
		})
	}
}
