package models

import (
	"strings"
	"sync"

	"github.com/modelrefs/throughput/internal/fielderr"
)

// MaxRegistered bounds the models Register keeps: past it the oldest is
// dropped (an edge API that fetches any Hugging Face id must not grow
// without bound).
const MaxRegistered = 256

// registeredModel is one model added at run time: its derived model and
// its entry (config and source).
type registeredModel struct {
	model *Model
	entry Entry
}

var reg struct {
	mu    sync.Mutex
	byKey map[string]*registeredModel
	order []string // keys, oldest first
}

// Register adds a model that is not in the catalog under its Hugging Face
// id ("owner/name"), from its config.json, so that Lookup finds it by that
// id (case-insensitive; not by the name alone, which could shadow another
// owner's). src says where the config came from (the Hub URL). A catalog
// id is refused: the catalog's entry wins. Registering an id again
// replaces it. The returned Model is shared, as Lookup's. Errors name the
// config's field as FromConfig's do.
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
	m.ID, m.Name = id, id[strings.LastIndexByte(id, '/')+1:]
	r := &registeredModel{model: m, entry: Entry{ID: id, Name: m.Name, Source: src, Config: config}}
	key := normName(id)
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.byKey == nil {
		reg.byKey = map[string]*registeredModel{}
	}
	if _, ok := reg.byKey[key]; !ok {
		reg.order = append(reg.order, key)
		if len(reg.order) > MaxRegistered {
			delete(reg.byKey, reg.order[0])
			reg.order = reg.order[1:]
		}
	}
	reg.byKey[key] = r
	return m, nil
}

// Registered reports whether Lookup would find name among the registered
// models.
func Registered(name string) bool { return registered(normName(name)) != nil }

func registered(key string) *registeredModel {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	return reg.byKey[key]
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
