package spec

// Fix is one change to the request that makes a failing deployment work:
// the request field it sets (a JSON path), the value as text, and a
// sentence ("fits with fp8 weights").
type Fix struct {
	_       noCompare
	Field   string `json:"field"`
	Value   string `json:"value"`
	Summary string `json:"summary"`
}
