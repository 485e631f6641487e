package api

import (
	"encoding/json"
	"math"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/internal/jsonx"
)

// Query parameters of GET /v1/evaluate. Every scalar field of calc.Request
// is a parameter named by its JSON path ("tensor_parallel_size",
// "workload.input_tokens", "slo.tpot_ms", "sweep.points"); the fields of
// the groups in bareGroups may also be given without their prefix
// ("input_tokens", "tpot_ms"). hardware is a catalog id; model_config and
// custom hardware figures need a POST.
type queryParam struct {
	// path is the field's JSON path.
	path string
	kind reflect.Kind
}

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
	params map[string]queryParam
	// paramList is every parameter in calc.Request's field order.
	paramList []queryParam
)

// queryParams returns the accepted keys and the parameters in field order.
func queryParams() (map[string]queryParam, []queryParam) {
	paramsOnce.Do(func() {
		params = map[string]queryParam{}
		collectParams(reflect.TypeFor[calc.Request](), "", &paramList)
		for _, p := range paramList {
			params[p.path] = p
		}
		for _, p := range paramList {
			group, leaf, nested := strings.Cut(p.path, ".")
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

// collectParams appends the scalar fields of struct t under prefix.
func collectParams(t reflect.Type, prefix string, out *[]queryParam) {
	for f := range t.Fields() {
		name := jsonName(f)
		if name == "" {
			continue
		}
		path := prefix + name
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft == reflect.TypeFor[calc.HardwareRef]():
			*out = append(*out, queryParam{path, reflect.String})
		case postOnly[path] != "":
		case ft.Kind() == reflect.Struct:
			collectParams(ft, path+".", out)
		case isScalar(ft.Kind()):
			*out = append(*out, queryParam{path, ft.Kind()})
		}
	}
}

// queryRequest turns a query into the request a POST would carry: it builds
// the JSON object and decodes it with calc.ParseRequest, so both routes
// validate alike. Errors name the parameter's JSON path.
func queryRequest(q url.Values) (calc.Request, error) {
	byKey, _ := queryParams()
	obj := map[string]any{}
	seen := map[string]string{}
	var errs calc.Errors
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		vals := q[k]
		p, ok := byKey[k]
		switch {
		case postOnly[k] != "":
			errs = append(errs, calc.FieldError{Field: k, Message: postOnly[k]})
			continue
		case !ok:
			errs = append(errs, calc.FieldError{Field: k, Message: "unknown query parameter"})
			continue
		case len(vals) > 1:
			errs = append(errs, calc.FieldError{Field: p.path, Message: "is given " + strconv.Itoa(len(vals)) + " times"})
			continue
		}
		if other, dup := seen[p.path]; dup {
			errs = append(errs, calc.FieldError{Field: p.path, Message: "is given twice, as " + other + " and " + k})
			continue
		}
		seen[p.path] = k
		v, msg := parseValue(p.kind, vals[0])
		if msg != "" {
			errs = append(errs, calc.FieldError{Field: p.path, Message: msg})
			continue
		}
		setPath(obj, p.path, v)
	}
	if len(errs) > 0 {
		return calc.Request{}, errs
	}
	body, err := json.Marshal(obj)
	if err != nil {
		return calc.Request{}, err
	}
	return calc.ParseRequest(body)
}

// parseValue converts one query value to the JSON value of its kind, or
// returns what is wrong with it.
func parseValue(kind reflect.Kind, s string) (any, string) {
	switch {
	case kind == reflect.String:
		return s, ""
	case kind == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, "must be true or false, got " + strconv.Quote(s)
		}
		return b, ""
	case kind >= reflect.Int && kind <= reflect.Uint64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, "must be an integer, got " + strconv.Quote(s)
		}
		return n, ""
	default:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, "must be a finite number, got " + strconv.Quote(s)
		}
		return x, ""
	}
}

// setPath stores v at a dotted path of nested objects.
func setPath(obj map[string]any, path string, v any) {
	head, rest, nested := strings.Cut(path, ".")
	if !nested {
		obj[head] = v
		return
	}
	child, ok := obj[head].(map[string]any)
	if !ok {
		child = map[string]any{}
		obj[head] = child
	}
	setPath(child, rest, v)
}

// jsonName is a struct field's JSON key, or "" when it has none.
func jsonName(f reflect.StructField) string {
	name, _, ok := jsonx.FieldName(f)
	if !ok {
		return ""
	}
	return name
}

func isScalar(k reflect.Kind) bool {
	return k == reflect.String || k == reflect.Bool || k >= reflect.Int && k <= reflect.Float64
}
