package models

import (
	"strings"
	"sync"
	"unsafe"

	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// MaxRegistered bounds how many models Register keeps, and
// MaxRegisteredBytes the memory they keep: past either, the least recently
// looked-up model is dropped (an edge API that fetches any Hugging Face id
// must not grow without bound). A model's charge is its config.json as
// compact JSON (kept as text, parsed again by LookupEntry: a parsed config
// keeps up to 44 times its text's bytes alive, internal/memsize's test)
// plus the derived Model's estimated heap (ModelHeapBytes) and
// registryOverhead.
// The newest model is kept even when it alone is over the bound, so the
// registry holds at most MaxRegisteredBytes plus one model (whose config is
// at most 1 MiB of JSON where the Hub client fetched it).
const (
	MaxRegistered      = 256
	MaxRegisteredBytes = 8 << 20
)

// ModelHeapBytes estimates the heap bytes a registered Model keeps alive,
// for its charge against MaxRegisteredBytes. It is the Model itself and
// its layers' array, a floor; a program that bounds the registry tightly
// (the HTTP API, whose Hub fetches any id) sets it to a full walk of the
// Model (package internal/memsize), which the browser's light engine
// leaves out to stay inside its size budget.
var ModelHeapBytes = func(m *Model) int64 {
	return int64(unsafe.Sizeof(*m)) + int64(cap(m.Layers))*int64(unsafe.Sizeof(Layer{}))
}

// registryOverhead is what an entry costs beside its config's text and its
// model: the entry, its map slot and its key (about 300
// bytes; counted high).
const registryOverhead = 512

// registeredModel is one model added at run time: its derived model, its
// id and source, its config as JSON, and its charge against
// MaxRegisteredBytes.
type registeredModel struct {
	model  *Model
	id     string
	source Source
	config []byte
	bytes  int64
	key    string
	used   uint64 // reg.tick when last registered or looked up
}

// entry returns r's catalog-style entry, its config parsed from the kept
// JSON.
func (r *registeredModel) entry() (*Entry, error) {
	e := &Entry{ID: r.id, Name: r.model.Name, Source: r.source}
	if err := jsonx.Unmarshal(r.config, &e.Config); err != nil {
		return nil, err
	}
	return e, nil
}

var reg struct {
	mu    sync.Mutex
	byKey map[string]*registeredModel
	tick  uint64 // the use counter: the least recently used has the lowest used
	bytes int64  // the sum of the entries' charges
}

// Register adds a model that is not in the catalog under its Hugging Face
// id ("owner/name"), from its config.json, so that Lookup finds it by that
// id (case-insensitive; not by the name alone, which could shadow another
// owner's). src says where the config came from (the Hub URL). A catalog
// id is refused: the catalog's entry wins. Registering an id again
// replaces it. The returned Model is shared, as Lookup's. Errors name the
// config's field as FromConfig's do. Kept models are bounded by count and
// bytes (MaxRegistered, MaxRegisteredBytes).
func Register(id string, config map[string]any, src Source) (*Model, error) {
	id = strings.TrimSpace(id)
	if !IsHubID(id) {
		return nil, fielderr.New("", "a registered model needs a Hugging Face id (owner/name), got "+fielderr.Quote(id))
	}
	if c := loadCatalog(); c != nil {
		if _, ok := c.index[normName(id)]; ok {
			return nil, fielderr.New("", fielderr.Quote(id)+" is a catalog model")
		}
	}
	m, err := FromConfig(config)
	if err != nil {
		return nil, err
	}
	text, err := jsonx.Marshal(config)
	if err != nil {
		return nil, fielderr.New("", "the config is not JSON: "+err.Error())
	}
	m.ID, m.Name = id, id[strings.LastIndexByte(id, '/')+1:]
	key := normName(id)
	r := &registeredModel{model: m, id: id, source: src, config: text, key: key}
	r.bytes = int64(len(text)) + ModelHeapBytes(m) + int64(len(id)+len(src.URL)) + registryOverhead
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.byKey == nil {
		reg.byKey = map[string]*registeredModel{}
	}
	if old, ok := reg.byKey[key]; ok {
		dropRegistered(old)
	}
	reg.tick++
	r.used = reg.tick
	reg.byKey[key] = r
	reg.bytes += r.bytes
	for len(reg.byKey) > 1 && (len(reg.byKey) > MaxRegistered || reg.bytes > MaxRegisteredBytes) {
		dropRegistered(leastRecentlyUsed())
	}
	return m, nil
}

// leastRecentlyUsed returns the registered model used longest ago (reg.mu
// held; the registry not empty). A scan of at most MaxRegistered entries,
// on eviction only, rather than container/list (about 1 KB of the light
// engine's gzip).
func leastRecentlyUsed() *registeredModel {
	var old *registeredModel
	for _, r := range reg.byKey {
		if old == nil || r.used < old.used {
			old = r
		}
	}
	return old
}

// dropRegistered removes r from the registry (reg.mu held).
func dropRegistered(r *registeredModel) {
	delete(reg.byKey, r.key)
	reg.bytes -= r.bytes
}

// RegisteredBytes returns how many models Register keeps and their charge
// against MaxRegisteredBytes.
func RegisteredBytes() (models int, bytes int64) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	return len(reg.byKey), reg.bytes
}

// Registered reports whether Lookup would find name among the registered
// models.
func Registered(name string) bool { return registered(normName(name)) != nil }

// registered returns the model kept under key, marking it the most
// recently used, or nil.
func registered(key string) *registeredModel {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	r := reg.byKey[key]
	if r != nil {
		reg.tick++
		r.used = reg.tick
	}
	return r
}

// IsHubID reports whether s has the shape of a Hugging Face model id:
// owner/name, each part 1 to 96 characters of letters, digits, '-', '_'
// and '.', neither starting nor ending with '-' or '.', and no "--" or ".."
// (the Hub's own rule for repository names).
func IsHubID(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	return ok && hubPart(owner) && hubPart(name)
}

func hubPart(p string) bool {
	if len(p) == 0 || len(p) > 96 || strings.Contains(p, "--") || strings.Contains(p, "..") {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case c == '-' || c == '.':
			if i == 0 || i == len(p)-1 {
				return false
			}
		default:
			return false
		}
	}
	return true
}
