package models

import (
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/modelrefs/throughput/internal/fielderr"

	"github.com/modelrefs/throughput/internal/jsonx"
)

// catalog/*.json (one file per family) is the catalog's source of truth;
// catalog_data.go holds the entries joined into one array, as a string
// constant (catalogData).
//go:generate go run ../tools/gen/catalogdata -dir catalog -o catalog_data.go

// Source says where a catalog entry's config came from.
type Source struct {
	Repo   string `json:"repo,omitempty"`
	Path   string `json:"path,omitempty"`
	Commit string `json:"commit,omitempty"`
	URL    string `json:"url,omitempty"`
}

// Entry is one catalog model: its config.json facts, where they came from,
// and the parameter count its publisher states (used only to test the
// derivation).
type Entry struct {
	ID              string   `json:"id"`
	Aliases         []string `json:"aliases,omitempty"`
	Name            string   `json:"name"`
	Family          string   `json:"family,omitempty"`
	Base            string   `json:"base,omitempty"`
	PublishedParams float64  `json:"published_params,omitempty"`
	// PublishedTextOnly is true when PublishedParams counts the text model
	// only (a multimodal checkpoint whose publisher states the vision
	// tower apart); tests then compare it with the total less Vision.
	PublishedTextOnly bool   `json:"published_params_text_only,omitempty"`
	ParamsSource      string `json:"params_source,omitempty"`
	// ParamsTolerance widens the 1 % check for a publisher that gives only
	// a rounded count ("27B"); at most MaxParamsTolerance, and the notes
	// must say why.
	ParamsTolerance float64 `json:"params_tolerance,omitempty"`
	// PublishedIncludesMTP is true when published_params counts the
	// multi-token-prediction layers too (Params.MTP, not in Params.Total).
	PublishedIncludesMTP bool           `json:"published_params_include_mtp,omitempty"`
	Source               Source         `json:"source"`
	Notes                string         `json:"notes,omitempty"`
	Config               map[string]any `json:"config"`
}

// ParamsTolerance is how far a catalog entry's derived parameter count may
// stray from its published count (1 %), and MaxParamsTolerance the widest
// exemption an entry may claim (2 %, for counts published only rounded to
// the billion).
const (
	ParamsTolerance    = 0.01
	MaxParamsTolerance = 0.02
)

// Tolerance returns the relative gap allowed between the entry's derived
// and published parameter counts.
func (e *Entry) Tolerance() float64 {
	return max(ParamsTolerance, min(e.ParamsTolerance, MaxParamsTolerance))
}

// ErrUnknownModel is wrapped by Lookup's error for a name not in the catalog.
var ErrUnknownModel = errors.New("unknown model")

// UnknownModelError names the input that matched nothing and suggests the
// closest catalog ids.
type UnknownModelError struct {
	Name    string
	Suggest []string
}

func (e *UnknownModelError) Error() string {
	msg := "unknown model " + fielderr.Quote(e.Name)
	if len(e.Suggest) > 0 {
		msg += "; did you mean " + strings.Join(quoteAll(e.Suggest), " or ") + "?"
	}
	return msg
}

// Unwrap returns ErrUnknownModel.
func (e *UnknownModelError) Unwrap() error { return ErrUnknownModel }

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fielderr.Quote(v)
	}
	return out
}

type catalog struct {
	// entries hold every entry's metadata; their Config stays nil (the
	// configs are decoded on first use, see model).
	entries []Entry
	raw     []jsonx.Raw
	index   map[string]int
	err     error

	lazy []struct {
		once  sync.Once
		full  *Entry // the entry with its Config decoded
		model *Model
		err   error
	}
}

var (
	catOnce sync.Once
	cat     catalog
)

// loadCatalog indexes the embedded catalog once. Only ids, names and
// sources are decoded here; each config is kept as raw JSON until a lookup
// needs it, so the first evaluation pays for one model, not for all (the
// WebAssembly build decodes JSON about 20x slower than native code).
func loadCatalog() *catalog {
	catOnce.Do(func() {
		var list []struct {
			Entry
			Config jsonx.Raw `json:"config"`
		}
		if err := jsonx.Unmarshal([]byte(catalogData), &list); err != nil {
			cat.err = err
			return
		}
		cat.entries = make([]Entry, len(list))
		cat.raw = make([]jsonx.Raw, len(list))
		cat.lazy = make([]struct {
			once  sync.Once
			full  *Entry
			model *Model
			err   error
		}, len(list))
		cat.index = make(map[string]int, 4*len(list))
		for i := range list {
			cat.entries[i], cat.raw[i] = list[i].Entry, list[i].Config
		}
		// Full ids first, then aliases, then the part of each id after
		// the "/": "meta-llama/Llama-3.1-8B" is the base model while the
		// alias "llama-3.1-8b" names the Instruct model, as it did before
		// the base model took the Hub's current id.
		for pass := 0; pass < 3; pass++ {
			for i := range cat.entries {
				e := &cat.entries[i]
				var keys []string
				switch pass {
				case 0:
					keys = []string{e.ID}
				case 1:
					keys = e.Aliases
				default:
					keys = []string{e.ID[strings.LastIndexByte(e.ID, '/')+1:]}
				}
				for _, k := range keys {
					k = normName(k)
					if _, dup := cat.index[k]; !dup {
						cat.index[k] = i
					}
				}
			}
		}
	})
	return &cat
}

// model decodes and derives catalog entry i once.
func (c *catalog) model(i int) (*Model, *Entry, error) {
	l := &c.lazy[i]
	l.once.Do(func() {
		e := c.entries[i]
		if err := jsonx.Unmarshal(c.raw[i], &e.Config); err != nil {
			l.err = errors.New("catalog entry " + e.ID + ": " + err.Error())
			return
		}
		m, err := FromConfig(e.Config)
		if err != nil {
			l.err = errors.New("catalog entry " + e.ID + ": " + err.Error())
			return
		}
		m.ID, m.Name = e.ID, e.Name
		l.full, l.model = &e, m
	})
	return l.model, l.full, l.err
}

// normName lower-cases a model name and drops spaces and underscores so that
// "Llama-3.1-8B", "llama_3.1_8b" and "LLAMA 3.1 8B" compare equal.
func normName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case ' ', '_':
			b.WriteByte('-')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Lookup returns the catalog model for an HF id (case-insensitive, with or
// without the "owner/" prefix) or an alias. The returned Model is shared:
// callers must not modify it.
func Lookup(name string) (*Model, error) {
	c := loadCatalog()
	if c.err != nil {
		return nil, c.err
	}
	if i, ok := c.index[normName(name)]; ok {
		m, _, err := c.model(i)
		return m, err
	}
	return nil, &UnknownModelError{Name: name, Suggest: c.suggest(name)}
}

// LookupEntry returns the catalog entry (config and sources) for a name.
func LookupEntry(name string) (*Entry, error) {
	c := loadCatalog()
	if c.err != nil {
		return nil, c.err
	}
	if i, ok := c.index[normName(name)]; ok {
		_, e, err := c.model(i)
		return e, err
	}
	return nil, &UnknownModelError{Name: name, Suggest: c.suggest(name)}
}

// Catalog returns every catalog entry in catalog order, without their
// configs (LookupEntry returns an entry with its config). The slice is
// shared: callers must not modify it.
func Catalog() ([]Entry, error) {
	c := loadCatalog()
	return c.entries, c.err
}

// suggest returns up to two catalog ids that share the most name tokens with
// the input.
func (c *catalog) suggest(name string) []string {
	q := tokens(name)
	type cand struct {
		id    string
		score int
	}
	var cs []cand
	for _, e := range c.entries {
		t := tokens(e.ID + " " + strings.Join(e.Aliases, " "))
		s := 0
		for w := range q {
			if t[w] {
				s++
			}
		}
		if s > 0 {
			cs = append(cs, cand{e.ID, s})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	var out []string
	for i := 0; i < len(cs) && i < 2; i++ {
		out = append(out, cs[i].id)
	}
	return out
}

func tokens(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.')
	}) {
		out[w] = true
	}
	return out
}
