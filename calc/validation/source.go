package validation

import (
	"net/url"
	"strconv"
	"strings"
)

// SourceKey names the source document of a case, the unit that
// leave-one-source-out validation (tools/calibrate) holds out and that an
// efficiency set's source count (calc/release EffSources) counts. Rows,
// lines, comments and commits of one document are one source:
//
//   - a file of a repository is "owner/repo/path" (any commit; the path up
//     to its first space, so a note such as "(parsed from ...)" is not part
//     of it);
//   - a GitHub issue or pull request (an issue or pr number with repo, or
//     its URL, with or without /files, a comment's anchor or a query) is
//     "owner/repo#number": GitHub numbers them in one sequence;
//   - a GitHub blob or tree URL (github.com/owner/repo/blob/REF/path) is
//     the file's key, "owner/repo/path", with the ref dropped;
//   - any other URL is its host (without "www.") and path, without scheme,
//     query, anchor or trailing slash;
//   - else the repository alone.
//
// It returns "" when the source names none of these.
func SourceKey(repo, path, rawURL string, number int) string {
	repo = strings.Trim(strings.TrimSpace(repo), "/")
	if p := strings.TrimSpace(path); repo != "" && p != "" {
		if i := strings.IndexByte(p, ' '); i > 0 {
			p = p[:i]
		}
		return repo + "/" + strings.Trim(p, "/")
	}
	if repo != "" && number > 0 {
		return repo + "#" + strconv.Itoa(number)
	}
	if k := urlKey(rawURL); k != "" {
		return k
	}
	return repo
}

// urlKey is SourceKey's key of a URL ("" for none).
func urlKey(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		// Not an absolute URL: its text without anchor and query.
		if i := strings.IndexAny(raw, "#?"); i >= 0 {
			raw = raw[:i]
		}
		return strings.TrimSuffix(raw, "/")
	}
	host := strings.TrimPrefix(strings.ToLower(u.Host), "www.")
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if host == "github.com" && len(parts) >= 4 {
		owner, repo := parts[0], parts[1]
		switch parts[2] {
		case "issues", "pull":
			if n, err := strconv.Atoi(parts[3]); err == nil && n > 0 {
				return owner + "/" + repo + "#" + parts[3]
			}
		case "blob", "tree", "raw":
			if len(parts) >= 5 {
				return owner + "/" + repo + "/" + strings.Join(parts[4:], "/")
			}
		}
	}
	p := strings.Trim(u.Path, "/")
	if p == "" {
		return host
	}
	return host + "/" + p
}

// sourceKey is SourceKey of a case's source object.
func sourceKey(src map[string]any) string {
	str := func(k string) string { v, _ := src[k].(string); return v }
	num := func(k string) int {
		switch v := src[k].(type) {
		case float64:
			return int(v)
		case string:
			n, _ := strconv.Atoi(strings.TrimPrefix(v, "#"))
			return n
		}
		return 0
	}
	n := num("pr")
	if n == 0 {
		n = num("issue")
	}
	return SourceKey(str("repo"), str("path"), str("url"), n)
}
