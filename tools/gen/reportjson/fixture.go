package main

// genFixture and genFixtureItem have the kinds calc.Report does not use
// yet (maps, uints, float32, pointers to non-structs, nested slices,
// arrays, structs that may be empty), so that the generator's code for
// them is checked against encoding/json too (api/report_json_test.go).
// tools/gen/reportjson/fixture.go is their one source: the generator
// copies it into the API's package as fixture_types_test.go, beside their
// encoder in fixture_json_test.go.
type genFixture struct {
	Maybe   *string                            `json:"maybe,omitempty"` // first and omitempty: the opening key is chosen at run time
	Count   uint16                             `json:"count,omitempty"`
	Ratio   float32                            `json:"ratio"`
	Label   fixtureLabel                       `json:"label"`
	Ptr     *float64                           `json:"ptr"`
	PtrPtr  **int8                             `json:"ptr_ptr"`
	ByName  map[string]float64                 `json:"by_name"`
	Nested  map[fixtureLabel][]*genFixtureItem `json:"nested,omitempty"`
	Grid    [][]float64                        `json:"grid"`
	Items   []genFixtureItem                   `json:"items"`
	Pair    [2]int32                           `json:"pair"`
	Big     uint64                             `json:"big"`
	Default bool                               // no tag: the key is "Default"
	Ignored int                                `json:"-"`
	hidden  int
}

type fixtureLabel string

type genFixtureItem struct {
	Opt   string           `json:"opt,omitempty"`
	Flag  bool             `json:"flag,omitempty"`
	Items []genFixtureItem `json:"items,omitempty"`
	Last  int              `json:"last"`
	Empty fixtureEmpty     `json:"empty"`
}

type fixtureEmpty struct{}
