package models

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/modelrefs/throughput/internal/fielderr"

	"github.com/modelrefs/throughput/internal/jsonx"
)

// catalog/*.json (one file per family) is the catalog's source of truth.
// Package models/catalog embeds them, joined into one array, and installs
// them with EmbedCatalog when a program imports it (as time/tzdata embeds
// the time-zone database); a program that does not (the browser engines)
// is handed the catalog by SetCatalog.

// Source says where a catalog entry's config came from.
type Source struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

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
	PublishedIncludesMTP bool `json:"published_params_include_mtp,omitempty"`
	// PublishedEffective: published_params leaves out Params.PLETable and
	// the vision tower (Gemma 4 E2B's "effective" count).
	PublishedEffective bool `json:"published_params_effective,omitempty"`
	// PublishedWithoutEmbeddings: published_params leaves out the towers
	// (Params.Vision), the per-layer embedding table and the token
	// embedding (Gemma 3n's "effective" count: the weights that stay on
	// the accelerator when both embedding tables are cached elsewhere).
	PublishedWithoutEmbeddings bool           `json:"published_params_without_embeddings,omitempty"`
	Source                     Source         `json:"source"`
	Notes                      string         `json:"notes,omitempty"`
	Config                     map[string]any `json:"config"`
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
	// Reason says why a checkpoint id that names a catalog model is
	// refused (its format, its owner; models/checkpoint.go), "" when
	// nothing matched.
	Reason string
	// NotLoaded is true when no catalog was installed to look in.
	NotLoaded bool
}

func (e *UnknownModelError) Error() string {
	msg := "unknown model " + fielderr.Quote(e.Name)
	if e.NotLoaded {
		return msg + " (" + ErrCatalogNotLoaded.Error() + ")"
	}
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	if len(e.Suggest) > 0 {
		msg += "; did you mean " + strings.Join(quoteAll(e.Suggest), " or ") + "?"
	}
	return msg
}

// Unwrap returns ErrUnknownModel, and ErrCatalogNotLoaded when NotLoaded.
func (e *UnknownModelError) Unwrap() []error {
	if e.NotLoaded {
		return unknownModelErrs[:2:2]
	}
	return unknownModelErrs[:1:1]
}

// unknownModelErrs are Unwrap's lists, shared (not literals made at each
// call, whose array types would bring their equality functions into the
// .wasm engines).
var unknownModelErrs = [...]error{ErrUnknownModel, ErrCatalogNotLoaded}

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

	lazy []lazyEntry
}

type lazyEntry struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	once  sync.Once
	full  *Entry // the entry with its Config decoded
	model *Model
	err   error
}

var (
	catOnce sync.Once
	catMu   sync.Mutex
	cat     *catalog // nil until the embedded data or SetCatalog installs one
	// embedded is the catalog's JSON text that EmbedCatalog recorded
	// (package models/catalog); "" when the program does not import that
	// package.
	embedded string
	// loadEmbedded indexes it on first use (installEmbedded, which only
	// EmbedCatalog refers to, so that the browser engines do not carry
	// it); a no-op until EmbedCatalog.
	loadEmbedded = func() {}
)

// ErrCatalogNotLoaded is wrapped by Lookup's error for a name that is
// neither registered nor known, while no catalog is installed: the browser
// engines do not import package models/catalog and are handed the catalog
// by SetCatalog.
var ErrCatalogNotLoaded = errors.New("the model catalog is not loaded")

// loadCatalog returns the installed catalog: the embedded one, indexed on
// first use, or the one SetCatalog installed; nil when there is none.
func loadCatalog() *catalog {
	catOnce.Do(loadEmbedded)
	catMu.Lock()
	defer catMu.Unlock()
	return cat
}

// EmbedCatalog records data, the catalog's JSON text (the array
// tools/gen/catalogdata writes), as this program's embedded catalog,
// indexed on first use unless SetCatalog installs another first. Package
// models/catalog calls it from its init: a program imports that package
// for the embedded catalog, as it imports time/tzdata for the embedded
// time-zone database, rather than calling this.
func EmbedCatalog(data string) { embedded, loadEmbedded = data, installEmbedded }

// installEmbedded indexes the embedded catalog and installs it, unless
// SetCatalog installed one first.
func installEmbedded() {
	c := parseCatalog(embedded)
	catMu.Lock()
	if cat == nil {
		cat = c
	}
	catMu.Unlock()
}

// CatalogEmbedded reports whether this program embeds the catalog: whether
// it imports package models/catalog (the API, the tools and the tests do;
// the browser engines do not).
func CatalogEmbedded() bool { return embedded != "" }

// CatalogLoaded reports whether a catalog is installed.
func CatalogLoaded() bool { return loadCatalog() != nil }

// SetCatalog installs the catalog from its JSON text (the array
// tools/gen/catalogdata writes: build/npm/catalog.json), replacing any
// installed one. A text that does not decode is refused and changes
// nothing.
func SetCatalog(data string) error {
	c := parseCatalog(data)
	if c.err != nil {
		return c.err
	}
	catOnce.Do(func() {}) // the embedded data, if any, is not wanted now
	catMu.Lock()
	cat = c
	catMu.Unlock()
	return nil
}

// parseCatalog indexes a catalog's JSON text. Only ids, names and sources
// are decoded here; each config is kept as raw JSON until a lookup needs
// it, so the first evaluation pays for one model, not for all (the
// WebAssembly build decodes JSON about 20x slower than native code).
func parseCatalog(data string) *catalog {
	c := &catalog{}
	var list []struct {
		Entry
		Config jsonx.Raw `json:"config"`
	}
	if err := jsonx.Unmarshal([]byte(data), &list); err != nil {
		c.err = errors.New("the model catalog: " + err.Error())
		return c
	}
	c.entries = make([]Entry, len(list))
	c.raw = make([]jsonx.Raw, len(list))
	c.lazy = make([]lazyEntry, len(list))
	c.index = make(map[string]int, 4*len(list))
	for i := range list {
		e := list[i].Entry
		if e.ID == "" {
			c.err = errors.New("the model catalog: entry " + strconv.Itoa(i) + " has no id")
			return c
		}
		c.entries[i], c.raw[i] = e, list[i].Config
	}
	// Full ids first, then aliases, then the part of each id after the
	// "/": "meta-llama/Llama-3.1-8B" is the base model while the alias
	// "llama-3.1-8b" names the Instruct model, as it did before the base
	// model took the Hub's current id.
	for pass := 0; pass < 3; pass++ {
		for i := range c.entries {
			e := &c.entries[i]
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
				if _, dup := c.index[k]; !dup {
					c.index[k] = i
				}
			}
		}
	}
	return c
}

// model decodes and derives catalog entry i once. A catalog model carries
// no Defaults: its config is the published one, and what its class
// supplies is part of it.
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
		m.ID, m.Name, m.Defaults = e.ID, e.Name, nil
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

// Lookup returns the model for an HF id (case-insensitive, with or
// without the "owner/" prefix) or an alias: a catalog model, or else one
// Register added, or else the model of a checkpoint id the catalog does
// not hold, by the rule of checkpoint.go (its Checkpoint says how). The returned Model is shared: callers must not modify it.
func Lookup(name string) (*Model, error) {
	m, _, err := lookup(name, false)
	return m, err
}

// LookupEntry returns the entry (config and sources) for a name, as Lookup
// finds it; for a resolved checkpoint id, its catalog entry's.
func LookupEntry(name string) (*Entry, error) {
	_, e, err := lookup(name, true)
	return e, err
}

// lookup finds name; the entry of a registered model is parsed from its
// kept JSON only withEntry.
func lookup(name string, withEntry bool) (*Model, *Entry, error) {
	c := loadCatalog()
	if c != nil && c.err != nil {
		return nil, nil, c.err
	}
	key := normName(name)
	if c != nil {
		if i, ok := c.index[key]; ok {
			return c.model(i)
		}
	}
	if r := registered(key); r != nil {
		if !withEntry {
			return r.model, nil, nil
		}
		e, err := r.entry()
		return r.model, e, err
	}
	if c == nil {
		return nil, nil, &UnknownModelError{Name: name, NotLoaded: true}
	}
	m, why, i := c.checkpoint(name)
	if m != nil {
		_, e, err := c.model(i)
		return m, e, err
	}
	sug := c.suggest(name)
	if i >= 0 {
		sug = []string{c.entries[i].ID}
	}
	return nil, nil, &UnknownModelError{Name: name, Reason: why, Suggest: sug}
}

// Catalog returns every catalog entry in catalog order, without their
// configs (LookupEntry returns an entry with its config); none while no
// catalog is installed. The slice is shared: callers must not modify it.
func Catalog() ([]Entry, error) {
	c := loadCatalog()
	if c == nil {
		return nil, nil
	}
	return c.entries, c.err
}

// suggest returns up to two catalog ids that share the most name tokens with
// the input.
func (c *catalog) suggest(name string) []string {
	q := tokens(name)
	// The two best scores, the earlier entry first among equal scores
	// (what a stable sort by descending score puts first; a sort
	// instantiated for this alone cost 1.5 KB of the light engine's gzip).
	var best [2]struct {
		id    string
		score int
	}
	n := 0
	for _, e := range c.entries {
		t := tokens(e.ID + " " + strings.Join(e.Aliases, " "))
		s := 0
		for w := range q {
			if t[w] {
				s++
			}
		}
		switch {
		case s == 0:
			continue
		case n == 0 || s > best[0].score:
			best[1] = best[0]
			best[0].id, best[0].score = e.ID, s
		case n == 1 || s > best[1].score:
			best[1].id, best[1].score = e.ID, s
		}
		n++
	}
	var out []string
	for i := 0; i < n && i < 2; i++ {
		out = append(out, best[i].id)
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
