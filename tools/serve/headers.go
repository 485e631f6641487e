package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// headersFile is the name of the served directory's header rules, in
// Cloudflare's _headers format: the build writes build/site/_headers
// (www/page/_headers, with the CSP hashes of index.html's inline
// scripts), and Cloudflare's static assets apply the same file, so both
// servers send the same headers. The file itself is not served.
const headersFile = "_headers"

// baseHeaders are sent on every response, whatever the directory holds;
// a rule of _headers may replace them.
var baseHeaders = [][2]string{
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "strict-origin-when-cross-origin"},
}

// headerRule is one path pattern of _headers and the headers it sets.
type headerRule struct {
	pattern *regexp.Regexp
	set     [][2]string // name, value: in file order
	detach  []string    // "! Name" lines: headers removed
}

// parseHeaders parses Cloudflare's _headers format: a line that starts
// without indentation is a URL path pattern ("*" matches anything, a
// ":name" segment one path segment); the indented "Name: value" lines
// below it are its headers, "! Name" removes one; "#" starts a comment.
// Lines it cannot read are skipped, as Cloudflare does.
func parseHeaders(b []byte) []headerRule {
	var rules []headerRule
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			rules = append(rules, headerRule{pattern: compilePattern(trimmed)})
			continue
		}
		if len(rules) == 0 {
			continue
		}
		r := &rules[len(rules)-1]
		if name, ok := strings.CutPrefix(trimmed, "!"); ok {
			r.detach = append(r.detach, strings.TrimSpace(name))
			continue
		}
		name, value, ok := strings.Cut(trimmed, ":")
		if !ok || strings.TrimSpace(name) == "" {
			continue
		}
		r.set = append(r.set, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
	}
	return rules
}

var placeholder = regexp.MustCompile(`:[A-Za-z]\w*`)

// compilePattern turns a _headers path pattern into an anchored regexp.
func compilePattern(p string) *regexp.Regexp {
	var sb strings.Builder
	sb.WriteString("^")
	for i, part := range strings.Split(p, "*") {
		if i > 0 {
			sb.WriteString(".*")
		}
		sb.WriteString(placeholder.ReplaceAllString(regexp.QuoteMeta(part), `[^/]+`))
	}
	sb.WriteString("$")
	return regexp.MustCompile(sb.String())
}

// apply sets the headers of every rule matching urlPath on h: a header
// that several rules set is joined with ", ", as Cloudflare does.
func applyHeaders(rules []headerRule, urlPath string, h http.Header) {
	set := map[string][]string{}
	var order []string
	var detach []string
	for _, r := range rules {
		if !r.pattern.MatchString(urlPath) {
			continue
		}
		for _, kv := range r.set {
			k := http.CanonicalHeaderKey(kv[0])
			if _, ok := set[k]; !ok {
				order = append(order, k)
			}
			set[k] = append(set[k], kv[1])
		}
		detach = append(detach, r.detach...)
	}
	for _, k := range order {
		h.Set(k, strings.Join(set[k], ", "))
	}
	for _, k := range detach {
		h.Del(k)
	}
}

// headerRules reads the root's _headers once per modification time.
type headerRules struct {
	mu    sync.Mutex
	mod   time.Time
	size  int64
	rules []headerRule
}

func (hr *headerRules) get(fsys fs.FS) []headerRule {
	info, err := fs.Stat(fsys, headersFile)
	hr.mu.Lock()
	defer hr.mu.Unlock()
	if err != nil || info.IsDir() {
		hr.rules, hr.mod, hr.size = nil, time.Time{}, 0
		return nil
	}
	if hr.rules != nil && info.ModTime().Equal(hr.mod) && info.Size() == hr.size {
		return hr.rules
	}
	b, err := fs.ReadFile(fsys, headersFile)
	if err != nil {
		return nil
	}
	hr.rules, hr.mod, hr.size = parseHeaders(b), info.ModTime(), info.Size()
	return hr.rules
}
