package api

import (
	"errors"
	"github.com/modelrefs/throughput/internal/fielderr"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/contract"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// Query parameters of GET /v1/evaluate. Every scalar field of the request
// contract (contract.Request().Params) is a parameter named by its JSON
// path ("tensor_parallel_size", "workload.input_tokens", "slo.tpot_ms",
// "sweep.points", "simulate.input_tokens.mean"); the fields of the groups
// in bareGroups may also be given without their prefix ("input_tokens",
// "tpot_ms"). hardware is a catalog id; model_config and custom hardware
// figures need a POST.

// bareGroups are the request objects whose fields may drop their prefix in
// a query: their field names are unique within the request.
var bareGroups = []string{"workload", "slo"}

// postOnly are request fields a query cannot carry, with the reason.
var postOnly = map[string]string{
	"model_config": "is an object: POST the request to /v1/evaluate",
}

var (
	paramsOnce sync.Once
	// params maps every accepted query key (paths and bare names) to
	// its parameter.
	params map[string]contract.Param
	// paramList is every parameter in the contract's field order.
	paramList []contract.Param
	// paramIndex is each path's position in paramList.
	paramIndex map[string]int
)

// queryParams returns the accepted keys and the parameters in field order.
func queryParams() (map[string]contract.Param, []contract.Param) {
	paramsOnce.Do(func() {
		params, paramIndex = map[string]contract.Param{}, map[string]int{}
		for _, p := range contract.Request().Params("Request") {
			if postOnly[p.Path] != "" {
				continue
			}
			paramIndex[p.Path] = len(paramList)
			paramList = append(paramList, p)
			params[p.Path] = p
		}
		for _, p := range paramList {
			group, leaf, nested := strings.Cut(p.Path, ".")
			if !nested || !slices.Contains(bareGroups, group) {
				continue
			}
			if _, taken := params[leaf]; taken {
				panic("api: query parameter " + leaf + " is ambiguous")
			}
			params[leaf] = p
		}
	})
	return params, paramList
}

// queryValue is one parameter's value as JSON text, at its request path.
type queryValue struct {
	index int // in paramList
	path  string
	json  []byte
}

// queryRequest turns a query into the request a POST would carry: it writes
// the request's JSON text (nested objects for dotted paths) and decodes it
// with calc.ParseRequest, so both routes validate alike and a value the
// decoder refuses is refused in the same words. Errors name the
// parameter's JSON path; an unknown parameter, one given twice and a value
// that is not of its kind at all ("two" for an integer) are the query's
// own errors. Unknown parameters hide no other error: the rest is still
// validated, as calc.ParseRequest does for unknown keys.
func queryRequest(q url.Values) (calc.Request, error) {
	byKey, _ := queryParams()
	seen := map[string]string{}
	var errs calc.Errors
	unknown := 0 // of errs, the unknown parameters
	var vals []queryValue
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		given := q[k]
		p, ok := byKey[k]
		switch {
		case postOnly[k] != "":
			errs = append(errs, calc.FieldError{Field: k, Message: postOnly[k]})
			continue
		case !ok:
			errs = append(errs, calc.FieldError{Field: fielderr.Truncate(k), Message: "unknown query parameter"})
			unknown++
			continue
		case len(given) > 1:
			errs = append(errs, calc.FieldError{Field: p.Path, Message: "is given " + strconv.Itoa(len(given)) + " times"})
			continue
		}
		if other, dup := seen[p.Path]; dup {
			errs = append(errs, calc.FieldError{Field: p.Path, Message: "is given twice, as " + other + " and " + k})
			continue
		}
		seen[p.Path] = k
		text, msg := jsonValue(p.Kind, given[0])
		if msg != "" {
			errs = append(errs, calc.FieldError{Field: p.Path, Message: msg})
			continue
		}
		vals = append(vals, queryValue{paramIndex[p.Path], p.Path, text})
	}
	sortQueryValues(vals)
	req, err := calc.ParseRequest(appendObject(nil, vals))
	if len(errs) == 0 {
		return req, err
	}
	// Unknown parameters do not hide the others' problems. (A parameter
	// refused here, repeated or of the wrong kind, is left out of req:
	// validating req would call it missing.)
	if err == nil && unknown == len(errs) {
		err = calc.Validate(req)
	}
	var rest calc.Errors
	errors.As(err, &rest)
	return calc.Request{}, append(errs, rest...)
}

// sortQueryValues puts vals in the contract's field order.
func sortQueryValues(vals []queryValue) {
	sort.Slice(vals, func(i, j int) bool { return vals[i].index < vals[j].index })
}

// jsonValue is one query value as the JSON text of its kind, or what is
// wrong with it. A number given as a JSON number is passed on as written,
// so that the decoder judges it as it judges a POST's (1.5 for an integer,
// 1e400); other forms strconv reads ("+2", "02", "0x10") are rewritten.
func jsonValue(kind contract.Kind, s string) ([]byte, string) {
	switch kind {
	case contract.Integer:
		if isJSONNumber(s) {
			return []byte(s), ""
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			if nonFinite(s) {
				return nil, "must be a finite number"
			}
			return nil, "must be an integer, got " + fielderr.Quote(s)
		}
		return strconv.AppendInt(nil, n, 10), ""
	case contract.Number:
		if isJSONNumber(s) {
			return []byte(s), ""
		}
		x, err := strconv.ParseFloat(s, 64)
		if nonFinite(s) {
			return nil, "must be a finite number" // as the decoder says of a POST's -Infinity
		}
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, "must be a finite number, got " + fielderr.Quote(s)
		}
		b, _ := jsonx.AppendFloat(nil, x, 64)
		return b, ""
	case contract.Boolean:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, "must be true or false, got " + fielderr.Quote(s)
		}
		return strconv.AppendBool(nil, b), ""
	}
	return jsonx.AppendString(nil, s), "" // strings, and hardware's catalog id
}

// isJSONNumber reports whether s is a number in JSON's grammar (RFC 8259
// section 6): -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	if n := digits(); n == 0 || n > 1 && s[start] == '0' {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// appendObject appends the JSON object of vals, which are in the
// contract's field order: the paths under one object are contiguous (the
// contract lists fields depth first), so each nested object is opened
// once, at its first path, and closed after its last.
func appendObject(b []byte, vals []queryValue) []byte {
	b = append(b, '{')
	var open []string // the objects open below the top, outermost first
	first := true     // nothing written yet in the innermost open object
	for _, v := range vals {
		parts := strings.Split(v.path, ".")
		dir, leaf := parts[:len(parts)-1], parts[len(parts)-1]
		n := 0
		for n < len(open) && n < len(dir) && open[n] == dir[n] {
			n++
		}
		for ; len(open) > n; open = open[:len(open)-1] {
			b = append(b, '}')
			first = false
		}
		for _, k := range dir[n:] {
			if !first {
				b = append(b, ',')
			}
			b = append(jsonx.AppendString(b, k), ':', '{')
			open = append(open, k)
			first = true
		}
		if !first {
			b = append(b, ',')
		}
		b = append(append(jsonx.AppendString(b, leaf), ':'), v.json...)
		first = false
	}
	for range open {
		b = append(b, '}')
	}
	return append(b, '}')
}

// nonFinite reports whether s spells NaN or an infinity (NaN, Inf, -Infinity,
// in any case), which a POST's decoder answers with "must be a finite
// number"; 1e400, which overflows, is judged as a number instead.
func nonFinite(s string) bool {
	x, err := strconv.ParseFloat(s, 64)
	return err == nil && (math.IsNaN(x) || math.IsInf(x, 0))
}
