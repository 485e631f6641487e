package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelrefs/throughput/internal/memsize"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/models"
)

// DefaultHubURL is the Hugging Face Hub.
const DefaultHubURL = "https://huggingface.co"

// maxConfigBytes bounds a config.json read from the Hub (published ones
// are a few KB; multimodal ones with long vision configs tens of KB),
// counted in decoded bytes: a compressed answer that expands past it is
// refused as one that is too long.
const maxConfigBytes = 1 << 20

// HubTimeout is how long a Hub lookup may take in all, redirects and the
// body included: past it the request is answered "could not be reached".
const HubTimeout = 10 * time.Second

// HubFailureTTL is how long a failed lookup is remembered: a request for
// the same id within it gets the same answer without a fetch.
const HubFailureTTL = 60 * time.Second

// maxHubFailures bounds the failures remembered (past it, expired ones go
// first, then any).
const maxHubFailures = 1024

// MaxHubRedirects bounds the redirects one lookup follows.
const MaxHubRedirects = 5

// ErrHubTooLarge is what a Get answers when the body, decoded, is longer
// than its limit; the lookup then answers models.HubNotAConfig.
var ErrHubTooLarge = errors.New("the answer is longer than the limit")

// Hub fetches the config.json of a model that is not in the catalog from
// the Hugging Face Hub ({URL}/{id}/resolve/main/config.json), so that the
// API answers for any Hub id as the page and the JavaScript module do. It
// is fit to face the internet:
//   - a fetched config is kept (models.Register: in memory, the most
//     recently used up to models.MaxRegisteredBytes), so an id is fetched
//     once while it is kept;
//   - one fetch is in flight per id: concurrent requests for it wait for
//     that one and share its answer;
//   - a failed lookup (any status but 200, a body that is not a config,
//     no answer) is remembered for HubFailureTTL;
//   - a lookup takes HubTimeout at most, in all;
//   - the body is read as a stream and refused past 1 MiB (decoded: a
//     compressed body is counted as it expands), never buffered whole;
//   - redirects are followed only as HubRedirectAllowed says: within the
//     configured Hub, or to the Hugging Face Hub's own hosts, never to a
//     loopback, private or link-local address (a refused redirect is
//     answered "the Hugging Face Hub answered HTTP 3xx").
//
// A Hub must not be copied after first use.
type Hub struct {
	// URL is the Hub's base URL, without a trailing slash
	// (DefaultHubURL; a test points it at a loopback stand-in). It is
	// the operator's: the only address a lookup may reach that is not
	// public.
	URL string
	// Token, when set, is sent as "Authorization: Bearer TOKEN": a Hugging
	// Face access token for gated models.
	Token string
	// Get makes the request: GET url (with token as a bearer token when
	// set), following redirects only where HubRedirectAllowed allows them
	// (a refused one is answered as is: its status), answering the status
	// and the body, decoded, or ErrHubTooLarge as soon as the body passes
	// limit bytes. Nil: net/http's client natively (hub_client.go); the
	// worker sets one that calls fetch (wasm/worker/hubfetch.go), since
	// net/http's client would add 1.3 MB of gzip (TLS and the dialers) to
	// it.
	Get func(ctx context.Context, url, token string, limit int64) (status int, body []byte, err error)

	mu      sync.Mutex
	calls   map[string]*hubCall   // the lookups in flight, by lower-cased id
	failed  map[string]hubFailure // the failures remembered, by lower-cased id
	now     func() time.Time      // the clock of the failures (nil: time.Now)
	timeout time.Duration         // a lookup's limit (0: HubTimeout)
	waiting int                   // requests that joined a lookup in flight (a test's count)
	native  func(ctx context.Context, url, token string, limit int64) (int, []byte, error)
	once    sync.Once
}

// hubCall is one lookup in flight: done closes when fail is set.
type hubCall struct {
	done chan struct{}
	fail *hubFailure
}

// hubFailure is why a lookup failed: the reason (a models.Hub* message or,
// when registered, the config's error) and until when it is remembered.
type hubFailure struct {
	registering bool // the config came, but is not a model's
	reason      string
	until       time.Time
}

// fieldErrors is the request's field error for id.
func (f *hubFailure) fieldErrors(id string) calc.Errors {
	if f.registering {
		return calc.Errors{{Field: "model", Message: "the config.json of " + fielderr.Quote(id) + " from the Hugging Face Hub: " + f.reason}}
	}
	return calc.Errors{{Field: "model", Message: "unknown model " + fielderr.Quote(id) + ": " + f.reason}}
}

// HubFromEnv returns the Hub that getenv names: THROUGHPUT_HUB_URL (the
// base URL, http or https; "off" or unset: no Hub) and
// THROUGHPUT_HUB_TOKEN.
func HubFromEnv(getenv func(string) string) *Hub {
	u := strings.TrimRight(strings.TrimSpace(getenv("THROUGHPUT_HUB_URL")), "/")
	if u == "" || u == "off" {
		return nil
	}
	if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return nil
	}
	return &Hub{URL: u, Token: strings.TrimSpace(getenv("THROUGHPUT_HUB_TOKEN"))}
}

// HubRedirectAllowed says whether a lookup that began at first may follow
// a redirect to next: to the same scheme, host and port as first (the
// configured Hub), or over https to huggingface.co, hf.co or a subdomain
// of either (where the Hub keeps large files) on the default port. An IP
// address is never such a host, so a redirect cannot name a loopback,
// private (10/8, 172.16/12, 192.168/16, fc00::/7) or link-local
// (169.254/16, fe80::/10) address; natively, the dialer also refuses a
// Hub host name that resolves to one (hub_client.go). The worker's fetch
// cannot see addresses; it checks names only.
func HubRedirectAllowed(first, next *url.URL) error {
	if next.User != nil {
		return errors.New("a redirect with credentials")
	}
	if next.Scheme == first.Scheme && strings.EqualFold(next.Host, first.Host) {
		return nil
	}
	host := strings.ToLower(next.Hostname())
	if next.Scheme != "https" || (next.Port() != "" && next.Port() != "443") {
		return errors.New("a redirect to another scheme or port: " + next.Scheme + "://" + next.Host)
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return errors.New("a redirect to an address: " + host)
	}
	for _, h := range []string{"huggingface.co", "hf.co"} {
		if host == h || strings.HasSuffix(host, "."+h) {
			return nil
		}
	}
	return errors.New("a redirect off the Hub: " + host)
}

// publicAddr reports whether a lookup may connect to a: not loopback,
// private, link-local, unspecified or multicast.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsValid() && !a.IsLoopback() && !a.IsPrivate() && !a.IsLinkLocalUnicast() &&
		!a.IsLinkLocalMulticast() && !a.IsUnspecified() && !a.IsMulticast() && !a.IsInterfaceLocalMulticast()
}

type hubKey struct{}

// hubOf returns the Hub the handler carries into r's context, or nil.
func hubOf(r *http.Request) *Hub {
	h, _ := r.Context().Value(hubKey{}).(*Hub)
	return h
}

// resolveHubModel makes req.Model known to the engine when it is a Hub id
// outside the catalog and the registered models: it fetches and registers
// the config. Any other request is left alone (the engine answers "unknown
// model" for a name that is not a Hub id). The error is the request's
// field error, in the words the JavaScript module uses too (models.Hub*).
func (h *Hub) resolveHubModel(ctx context.Context, req calc.Request) error {
	id := strings.TrimSpace(req.Model)
	if h == nil || req.ModelConfig != nil || !models.IsHubID(id) {
		return nil
	}
	if _, err := models.Lookup(id); err == nil || !errors.Is(err, models.ErrUnknownModel) {
		return nil
	}
	if f := h.lookup(ctx, id); f != nil {
		return f.fieldErrors(id)
	}
	return nil
}

// lookup fetches and registers id, once for all the requests that ask for
// it meanwhile, or answers the failure remembered for it.
func (h *Hub) lookup(ctx context.Context, id string) *hubFailure {
	key := strings.ToLower(id)
	h.mu.Lock()
	if f, ok := h.failed[key]; ok {
		if h.clock().Before(f.until) {
			h.mu.Unlock()
			return &f
		}
		delete(h.failed, key)
	}
	if c, ok := h.calls[key]; ok {
		h.waiting++
		h.mu.Unlock()
		select {
		case <-c.done:
			return c.fail
		case <-ctx.Done():
			return &hubFailure{reason: models.HubUnreachable}
		}
	}
	if h.calls == nil {
		h.calls = map[string]*hubCall{}
	}
	c := &hubCall{done: make(chan struct{})}
	h.calls[key] = c
	h.mu.Unlock()

	// The fetch is every waiter's: the first asker's going away does not
	// end it.
	c.fail = h.fetchAndRegister(context.WithoutCancel(ctx), id)

	h.mu.Lock()
	delete(h.calls, key)
	if c.fail != nil {
		h.remember(key, c.fail)
	}
	h.mu.Unlock()
	close(c.done)
	return c.fail
}

// remember keeps f for HubFailureTTL (h.mu held).
func (h *Hub) remember(key string, f *hubFailure) {
	now := h.clock()
	f.until = now.Add(HubFailureTTL)
	if h.failed == nil {
		h.failed = map[string]hubFailure{}
	}
	if len(h.failed) >= maxHubFailures {
		for k, old := range h.failed {
			if !now.Before(old.until) {
				delete(h.failed, k)
			}
		}
		for k := range h.failed {
			if len(h.failed) < maxHubFailures {
				break
			}
			delete(h.failed, k)
		}
	}
	h.failed[key] = *f
}

func (h *Hub) clock() time.Time {
	if h.now != nil {
		return h.now()
	}
	return time.Now()
}

// fetchAndRegister fetches id's config and registers it.
func (h *Hub) fetchAndRegister(ctx context.Context, id string) *hubFailure {
	cfg, err := h.fetchConfig(ctx, id)
	if err != nil {
		return &hubFailure{reason: err.Error()}
	}
	if _, err := models.Register(id, cfg, models.Source{URL: h.configURL(id)}); err != nil {
		return &hubFailure{registering: true, reason: err.Error()}
	}
	return nil
}

func (h *Hub) configURL(id string) string { return h.URL + "/" + id + "/resolve/main/config.json" }

// fetchConfig GETs the config.json of id and decodes it.
func (h *Hub) fetchConfig(ctx context.Context, id string) (map[string]any, error) {
	timeout := h.timeout
	if timeout <= 0 {
		timeout = HubTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	get := h.Get
	if get == nil {
		h.once.Do(func() { h.native = nativeHubGet(h.URL) })
		get = h.native
	}
	if get == nil {
		return nil, errors.New("this build has no Hub client")
	}
	status, body, err := get(ctx, h.configURL(id), h.Token, maxConfigBytes)
	switch {
	case errors.Is(err, ErrHubTooLarge):
		return nil, errors.New(models.HubNotAConfig)
	case err != nil:
		return nil, errors.New(models.HubUnreachable)
	}
	if msg := models.HubStatusMessage(status, h.Token != ""); msg != "" {
		return nil, errors.New(msg)
	}
	var cfg map[string]any
	if len(body) > maxConfigBytes || json.Unmarshal(body, &cfg) != nil || cfg == nil {
		return nil, errors.New(models.HubNotAConfig)
	}
	return cfg, nil
}

// The HTTP API's Hub fetches any id, so its registry charges each kept
// model its full heap, walked by package internal/memsize (models' own
// estimate is a floor that keeps the browser's light engine small).
func init() { models.ModelHeapBytes = func(m *models.Model) int64 { return memsize.Of(m) } }
