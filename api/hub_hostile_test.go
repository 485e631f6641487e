package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/api"
	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/probemodel"
)

// A valid config.json of a small Llama-shaped model (4 layers, 8 heads of
// 128 = hidden 1024): what the hostile stand-in pads, compresses or serves
// after a redirect.
const smallConfig = `{"model_type":"llama","hidden_size":1024,"num_hidden_layers":4,"num_attention_heads":8,"num_key_value_heads":8,"intermediate_size":2048,"vocab_size":1000,"max_position_embeddings":4096`

// hostileHub is a loopback stand-in of the Hub that misbehaves by the
// owner part of the id: groups/ (a valid config of 4,096 KV-cache groups), big/ (10 MB, with or without a Content-Length),
// bomb/ (gzip that expands to 50 MB), pad/ (a valid config padded to just
// under 1 MiB with 131,000 small objects: 46 MB once parsed), redirect/
// (to another host, to loopback, to a private address, to a Hub host
// name, within the Hub, in a loop), hang/ (no answer until the client
// leaves), fail/ (404, 401, 500), slow/ (500 once released) and ok/.
// hits counts requests by path; elsewhere counts the requests to a second
// loopback server that no redirect may reach.
type hostileHub struct {
	*httptest.Server
	mu        sync.Mutex
	hits      map[string]int
	elsewhere atomic.Int64
	release   chan struct{}
}

func (h *hostileHub) count(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits[path]
}

var gzipBomb = func() []byte {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	_, _ = z.Write([]byte(smallConfig + `,"pad":"`))
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	for i := 0; i < 50; i++ {
		_, _ = z.Write(chunk)
	}
	_, _ = z.Write([]byte(`"}`))
	_ = z.Close()
	return b.Bytes()
}()

// groupsBody is issue 35's probe model as a Hub config.json: 1 full and
// 4,095 sliding layers, 4,096 KV-cache groups (probemodel.Groups).
var groupsBody, _ = json.Marshal(probemodel.Groups(4096))

// bigBody is a config.json of 10 MB (a 10 MB string), made once so that
// the stand-in allocates nothing per request.
var bigBody = append(append([]byte(smallConfig+`,"pad":"`), bytes.Repeat([]byte("a"), 10<<20)...), '"', '}')

func paddedConfig() []byte {
	var b strings.Builder
	b.WriteString(smallConfig + `,"pad":[`)
	for i := 0; b.Len() < 1<<20-32; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"a":1}`)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

func startHostileHub(t *testing.T) *hostileHub {
	t.Helper()
	h := &hostileHub{hits: map[string]int{}, release: make(chan struct{})}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.elsewhere.Add(1)
		_, _ = w.Write([]byte(smallConfig + "}"))
	}))
	t.Cleanup(other.Close)
	padded := paddedConfig()
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.hits[r.URL.Path]++
		h.mu.Unlock()
		id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/resolve/main/config.json")
		owner, name, _ := strings.Cut(id, "/")
		switch owner {
		case "ok":
			_, _ = w.Write([]byte(smallConfig + "}"))
		case "gz": // a small config, gzip-encoded: decoded and accepted
			var b bytes.Buffer
			z := gzip.NewWriter(&b)
			_, _ = z.Write([]byte(smallConfig + "}"))
			_ = z.Close()
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(b.Bytes())
		case "big":
			if strings.HasPrefix(name, "chunked") {
				for i := 0; i < len(bigBody); i += 64 << 10 {
					if _, err := w.Write(bigBody[i:min(i+64<<10, len(bigBody))]); err != nil {
						return // the client stopped reading
					}
					w.(http.Flusher).Flush()
				}
				return
			}
			w.Header().Set("Content-Length", fmt.Sprint(len(bigBody)))
			_, _ = w.Write(bigBody)
		case "bomb":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gzipBomb)
		case "pad":
			_, _ = w.Write(padded)
		case "redirect":
			to := map[string]string{
				"other-host":   "http://hub.evil.example/ok/x/resolve/main/config.json",
				"loopback":     other.URL + "/ok/x/resolve/main/config.json",
				"localhost":    strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + "/ok/x/resolve/main/config.json",
				"private":      "http://10.0.0.1/ok/x/resolve/main/config.json",
				"private-v6":   "http://[fd00::1]/ok/x/resolve/main/config.json",
				"link-local":   "http://169.254.169.254/latest/meta-data/",
				"https-ip":     "https://192.168.1.1/ok/x/resolve/main/config.json",
				"hf-rebind":    "https://cdn-lfs.huggingface.co/ok/x/resolve/main/config.json",
				"hf-lookalike": "https://huggingface.co.evil.example/ok/x/resolve/main/config.json",
				"same":         "/ok/renamed/resolve/main/config.json",
				"loop":         r.URL.Path,
			}[name]
			http.Redirect(w, r, to, http.StatusFound)
		case "groups":
			_, _ = w.Write(groupsBody)
		case "hang":
			<-r.Context().Done()
		case "slow":
			<-h.release
			http.Error(w, `{"error":"boom"}`, http.StatusInternalServerError)
		case "fail":
			code := map[string]int{"s404": 404, "s401": 401, "s500": 500}[name]
			http.Error(w, `{"error":"no"}`, code)
		default:
			http.Error(w, `{"error":"Repository Not Found"}`, http.StatusNotFound)
		}
	}))
	t.Cleanup(h.Close)
	return h
}

// evaluateLocal posts an evaluation of model on an H100 to handler.
func evaluateLocal(handler http.Handler, model string) (int, string) {
	req := httptest.NewRequest("POST", "/v1/evaluate", strings.NewReader(`{"model":"`+model+`","hardware":"h100-sxm"}`))
	req.Header.Set("Content-Type", typeJSON)
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// modelError is the problem body's one error, on the field model.
func modelError(t *testing.T, handler http.Handler, model string) string {
	t.Helper()
	status, body := evaluateLocal(handler, model)
	require.Equal(t, http.StatusBadRequest, status, body)
	var prob problemBody
	require.NoError(t, json.Unmarshal([]byte(body), &prob))
	require.Len(t, prob.Errors, 1, body)
	assert.Equal(t, "model", prob.Errors[0].Field)
	return prob.Errors[0].Message
}

// TestHubHostile: every misbehaving answer of the stand-in is refused
// with the field model and the engine's words (models.Hub*): a body past
// 1 MiB, sent whole, chunked or as gzip that expands, is "not a JSON
// object of at most 1 MiB"; a redirect off the Hub (another host, a
// loopback or private or link-local address, a look-alike name) is
// answered as the Hub's 302, and the second loopback server it pointed
// at is never reached; a Hub host name that resolves to loopback is not
// dialed ("could not be reached"); a redirect within the Hub is followed;
// a loop stops after 5 redirects; a Hub that hangs is given up on at the
// lookup's limit (here 200 ms instead of 10 s); 404, 401 and 500 have
// their own words. A small gzip-encoded config is decoded and accepted.
func TestHubHostile(t *testing.T) {
	if apiURL != "" {
		t.Skip("a local stand-in; the worker's Hub is tests/hub/server.mjs")
	}
	hub := startHostileHub(t)
	restore := api.SetLookupHost(func(context.Context, string, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil // every name resolves to loopback
	})
	defer restore()
	h := &api.Hub{URL: hub.URL}
	h.SetTimeout(200 * time.Millisecond)
	handler := api.NewWithHub(h)

	const notAConfig = "its config.json on the Hugging Face Hub is not a JSON object of at most 1 MiB"
	const redirected = "the Hugging Face Hub answered HTTP 302 for its config.json"
	const unreachable = "the Hugging Face Hub could not be reached (offline?) and no config.json is kept for it"
	for _, c := range []struct{ id, reason string }{
		{"big/content-length", notAConfig},
		{"big/chunked", notAConfig},
		{"bomb/gzip", notAConfig},
		{"redirect/other-host", redirected},
		{"redirect/loopback", redirected},
		{"redirect/localhost", redirected},
		{"redirect/private", redirected},
		{"redirect/private-v6", redirected},
		{"redirect/link-local", redirected},
		{"redirect/https-ip", redirected},
		{"redirect/hf-lookalike", redirected},
		{"redirect/hf-rebind", unreachable},
		{"redirect/loop", redirected},
		{"hang/forever", unreachable},
		{"fail/s404", "no such model on the Hugging Face Hub (HTTP 404)"},
		{"fail/s401", "the model is gated or private on the Hugging Face Hub (HTTP 401): it needs a token"},
		{"fail/s500", "the Hugging Face Hub answered HTTP 500 for its config.json"},
	} {
		assert.Equal(t, `unknown model "`+c.id+`": `+c.reason, modelError(t, handler, c.id), c.id)
	}
	assert.Zero(t, hub.elsewhere.Load(), "no redirect reached the other loopback server")
	assert.Equal(t, 1+api.MaxHubRedirects, hub.count("/redirect/loop/resolve/main/config.json"), "the first request and 5 redirects")

	for _, id := range []string{"redirect/same", "gz/small"} {
		status, body := evaluateLocal(handler, id)
		assert.Equal(t, http.StatusOK, status, "%s: %s", id, body)
	}
	assert.Equal(t, 1, hub.count("/ok/renamed/resolve/main/config.json"), "the redirect within the Hub was followed")
}

// TestHubMemoryBounded: 20 lookups of 10 MB bodies and 20 of gzip bombs
// (50 MB once decoded) keep nothing and allocate little each (under 4 MiB,
// the stand-in's share included), as the body is read through a 1 MiB
// limit; 12 valid configs padded to just under
// 1 MiB (46 MB each once parsed) leave at most the registry's 8 MiB plus
// one model alive, as it keeps the JSON's text, not the parse. The live
// heap is measured after full collections (runtime.MemStats.HeapAlloc).
func TestHubMemoryBounded(t *testing.T) {
	if apiURL != "" {
		t.Skip("a local stand-in")
	}
	hub := startHostileHub(t)
	handler := api.NewWithHub(&api.Hub{URL: hub.URL})
	heap := func() (live, total uint64) {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc, ms.TotalAlloc
	}
	const n = 20
	live0, total0 := heap()
	for i := 0; i < n; i++ {
		for _, owner := range []string{"big", "bomb"} {
			id := fmt.Sprintf("%s/chunked-%d", owner, i)
			assert.Contains(t, modelError(t, handler, id), "not a JSON object of at most 1 MiB", id)
		}
	}
	live1, total1 := heap()
	perFetch := float64(total1-total0) / (2 * n)
	t.Logf("oversized and gzip-bombed: live heap %+.2f MiB after %d lookups; %.2f MiB allocated per lookup",
		(float64(live1)-float64(live0))/(1<<20), 2*n, perFetch/(1<<20))
	assert.Less(t, float64(live1)-float64(live0), float64(4<<20), "nothing kept")
	assert.Less(t, perFetch, float64(4<<20), "each body read no further than its limit (10 MB and 50 MB sent)")

	const padded = 12 // 12 MiB of config text, past the registry's 8 MiB
	for i := 0; i < padded; i++ {
		status, body := evaluateLocal(handler, fmt.Sprintf("pad/model-%d", i))
		require.Equal(t, http.StatusOK, status, body)
	}
	live2, _ := heap()
	t.Logf("padded valid configs: live heap %+.2f MiB after %d lookups", (float64(live2)-float64(live1))/(1<<20), padded)
	assert.Less(t, float64(live2)-float64(live1), float64(12<<20), "the registry's 8 MiB, one more model and slack")
}

// TestHubCoalescesAndRemembers: 20 concurrent requests for one failing id
// make one fetch (19 join the one in flight) and all get its answer; the
// failure is then remembered: a request 59 s later is answered without a
// fetch, one 61 s later fetches again (the injected clock).
func TestHubCoalescesAndRemembers(t *testing.T) {
	if apiURL != "" {
		t.Skip("a local stand-in")
	}
	hub := startHostileHub(t)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var clockMu sync.Mutex
	h := &api.Hub{URL: hub.URL}
	h.SetClock(func() time.Time { clockMu.Lock(); defer clockMu.Unlock(); return now })
	advance := func(d time.Duration) { clockMu.Lock(); now = now.Add(d); clockMu.Unlock() }
	handler := api.NewWithHub(h)
	const path = "/slow/failing-7b/resolve/main/config.json"
	const want = `unknown model "slow/failing-7b": the Hugging Face Hub answered HTTP 500 for its config.json`

	var wg sync.WaitGroup
	got := make([]string, 20)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, body := evaluateLocal(handler, "slow/failing-7b")
			var prob problemBody
			if json.Unmarshal([]byte(body), &prob) == nil && len(prob.Errors) == 1 {
				got[i] = prob.Errors[0].Field + ": " + prob.Errors[0].Message
			}
		}()
	}
	require.Eventually(t, func() bool { return h.Waiting() == 19 }, 10*time.Second, time.Millisecond, "19 requests wait for the first one's fetch")
	close(hub.release)
	wg.Wait()
	for i, g := range got {
		assert.Equal(t, "model: "+want, g, i)
	}
	assert.Equal(t, 1, hub.count(path), "one fetch for 20 requests")

	advance(59 * time.Second)
	assert.Equal(t, want, modelError(t, handler, "slow/failing-7b"))
	assert.Equal(t, `unknown model "SLOW/Failing-7B": the Hugging Face Hub answered HTTP 500 for its config.json`,
		modelError(t, handler, "SLOW/Failing-7B"), "the same id in another case, named as asked")
	assert.Equal(t, 1, hub.count(path), "remembered for 60 s")
	advance(2 * time.Second)
	assert.Equal(t, want, modelError(t, handler, "slow/failing-7b"))
	assert.Equal(t, 2, hub.count(path), "fetched again after 60 s")
}

// Issue 35's 107-byte GET: a Hub id whose config.json forms 4,096
// KV-cache groups (42 s of CPU simulated at block size 1 before the
// bound) is refused, naming the model, before anything is simulated; and
// a plan of it too.
func TestHubModelOfManyKVGroupsIsRefused(t *testing.T) {
	if apiURL != "" {
		t.Skip("a local stand-in")
	}
	hub := startHostileHub(t)
	handler := api.NewWithHub(&api.Hub{URL: hub.URL})
	const refusal = "its layer_types form 4096 KV-cache groups, above the 64 supported: too few layers of one type beside many of another"
	for _, target := range []string{
		"/v1/evaluate?model=groups/probe-4096&hardware=h200&block_size=1&simulate.num_requests=1000",
		"/v1/evaluate?model=groups/probe-4096&hardware=h200",
	} {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		require.Equal(t, http.StatusBadRequest, rec.Code, rec.Body.String())
		var prob problemBody
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &prob))
		require.Len(t, prob.Errors, 1, rec.Body.String())
		assert.Equal(t, calc.FieldError{Field: "model", Message: refusal}, prob.Errors[0], target)
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/plan", strings.NewReader(`{"model":"groups/probe-4096","workload":{"concurrency":8},"slo":{"tpot_ms":100}}`))
	req.Header.Set("Content-Type", typeJSON)
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	require.Equal(t, http.StatusBadRequest, rec.Code, rec.Body.String())
	assert.Contains(t, rec.Body.String(), refusal)
	assert.Equal(t, 1, hub.count("/groups/probe-4096/resolve/main/config.json"), "fetched once, then kept")
}
