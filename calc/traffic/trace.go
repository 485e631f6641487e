package traffic

import (
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/internal/fielderr"
	"github.com/modelrefs/throughput/sched"
)

// Trace size caps, checked before and while parsing: a trace larger than
// either is refused, naming simulate.trace.data.
const (
	// MaxTraceBytes is the most text a trace may have (16 MiB: a
	// million-row CSV of arrival, input and output, or about 100,000 rows
	// of the Mooncake trace with its hash ids).
	MaxTraceBytes = 16 << 20
	// MaxTraceRows is the most requests a trace may have.
	MaxTraceRows = 1_000_000
	// maxErrors is how many bad rows one error list names.
	maxErrors = 10
)

// The trace formats (simulate.trace.format).
var Formats = []string{"mooncake", "azure", "csv", "jsonl"}

// MooncakeBlockTokens is the tokens of one hash id of the Mooncake trace:
// "hash_ids ... each hash id corresponds to a block of 512 tokens"
// (kvcache-ai/Mooncake, FAST25-release/traces/README.md).
const MooncakeBlockTokens = 512

// Trace is a parsed trace: its requests in order, arrival times in
// seconds from the first request's, and what its shared blocks say of
// prefix reuse (Mooncake's hash ids).
type Trace struct {
	Requests []sched.TraceRequest
	// Prefix is each request's session or prefix id (-1: none), when the
	// trace has that column; nil otherwise.
	Prefix []int32
	// Blocks is the hash ids over every request; ReusedBlocks those whose
	// id an earlier request had (a cache that kept every block would hit
	// them); BlockTokens their size in tokens (0: no hash ids).
	Blocks, ReusedBlocks int64
	BlockTokens          int
}

// Parse reads a trace of format (one of Formats) from data. Every problem
// names field (simulate.trace.data), the line and the column; at most
// maxErrors are listed. Arrival times must not decrease; they are shifted
// so the first request arrives at 0 (Mooncake's timestamps are
// milliseconds, the plain formats' seconds, Azure's wall-clock times).
func Parse(format, data, field string) (*Trace, error) {
	var e fielderr.List
	if len(data) > MaxTraceBytes {
		e.Add(field, "is "+strconv.Itoa(len(data))+" bytes; a trace may have at most "+strconv.Itoa(MaxTraceBytes)+" (16 MiB)")
		return nil, e.Err()
	}
	p := parser{field: field, data: data, e: &e, t: &Trace{}, seen: map[int64]struct{}{}}
	switch format {
	case "mooncake":
		p.jsonl(map[string]int{"timestamp": colTime, "input_length": colIn, "output_length": colOut, "hash_ids": colHash}, 1e-3)
	case "jsonl":
		p.jsonl(map[string]int{"arrival_s": colTime, "input_tokens": colIn, "output_tokens": colOut, "prefix_id": colPrefix, "session_id": colPrefix}, 1)
	case "azure":
		p.csv(map[string]int{"timestamp": colTime, "contexttokens": colIn, "generatedtokens": colOut}, true)
	case "csv":
		p.csv(map[string]int{"arrival_s": colTime, "input_tokens": colIn, "output_tokens": colOut, "prefix_id": colPrefix, "session_id": colPrefix}, false)
	default:
		e.Add(strings.TrimSuffix(field, ".data")+".format", "unknown format "+fielderr.Quote(format)+"; one of "+strings.Join(Formats, ", "))
	}
	if e.Len() == 0 && len(p.t.Requests) == 0 {
		e.Add(field, "has no requests")
	}
	if err := e.Err(); err != nil {
		return nil, err
	}
	if p.t.Blocks > 0 {
		p.t.BlockTokens = MooncakeBlockTokens
	}
	return p.t, nil
}

// The columns a row may have.
const (
	colNone = iota
	colTime
	colIn
	colOut
	colPrefix
	colHash
)

var colNames = [...]string{colTime: "arrival time", colIn: "input tokens", colOut: "output tokens"}

type parser struct {
	field string
	data  string
	e     *fielderr.List
	t     *Trace
	line  int
	first float64 // the first row's time (seconds)
	last  float64
	seen  map[int64]struct{}
}

// bad records one problem at the current line; false once maxErrors are.
func (p *parser) bad(col, msg string) bool {
	if col != "" {
		col = ", column " + col
	}
	p.e.Add(p.field, "line "+strconv.Itoa(p.line)+col+": "+msg)
	return p.e.Len() < maxErrors
}

// row adds one parsed row; t is seconds on the trace's own clock.
func (p *parser) row(t float64, in, out int64, prefix int64, hasPrefix bool, timeCol string) bool {
	if len(p.t.Requests) >= MaxTraceRows {
		return p.bad("", "a trace may have at most "+strconv.Itoa(MaxTraceRows)+" requests")
	}
	if len(p.t.Requests) == 0 {
		p.first = t
	}
	at := t - p.first
	if at < p.last {
		return p.bad(timeCol, "arrival time goes back ("+fielderr.Number(t)+" after "+fielderr.Number(p.last+p.first)+"); a trace must be in arrival order")
	}
	if at > maxTraceS {
		return p.bad(timeCol, "arrival is more than 366 days after the first request's")
	}
	p.last = at
	p.t.Requests = append(p.t.Requests, sched.TraceRequest{ArrivalS: at, Input: int32(in), Output: int32(out)})
	if hasPrefix && p.t.Prefix == nil {
		p.t.Prefix = make([]int32, len(p.t.Requests)-1, cap(p.t.Requests))
		for i := range p.t.Prefix {
			p.t.Prefix[i] = -1
		}
	}
	if p.t.Prefix != nil {
		id := int32(-1)
		if hasPrefix {
			id = int32(prefix)
		}
		p.t.Prefix = append(p.t.Prefix, id)
	}
	return true
}

// maxTraceS is the longest trace, in seconds (366 days).
const maxTraceS = 366 * 86400

// MaxTokens bounds one request's input or output in a trace.
const MaxTokens = 1 << 24

// count checks a token count read from column col.
func (p *parser) count(x float64, col string, min0 bool) (int64, bool) {
	switch {
	case x != x || x < 0 || x > MaxTokens:
		p.bad(col, "must be a whole number of tokens from 0 to "+strconv.Itoa(MaxTokens)+", got "+fielderr.Number(x))
		return 0, false
	case x != float64(int64(x)):
		p.bad(col, "must be a whole number of tokens, got "+fielderr.Number(x))
		return 0, false
	case min0 && x < 1:
		p.bad(col, "must be at least 1 token")
		return 0, false
	}
	return int64(x), true
}

// csv reads a CSV with a header naming its columns (case-insensitive;
// unknown columns are ignored). azure: the time column is a wall-clock
// time ("2023-11-16 18:15:46.6805900").
func (p *parser) csv(names map[string]int, azure bool) {
	lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(p.data, "\r\n", "\n"), "\n"), "\n")
	cols := map[int]int{}
	header := -1
	var heads []string
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		p.line = i + 1
		if header < 0 {
			header = i
			heads = strings.Split(l, ",")
			for j, h := range heads {
				if c, ok := names[strings.ToLower(strings.Trim(strings.TrimSpace(h), `"`))]; ok {
					if _, dup := cols[c]; !dup {
						cols[c] = j
					}
				}
			}
			for _, c := range []int{colTime, colIn, colOut} {
				if _, ok := cols[c]; !ok {
					p.bad("", "the header has no "+colNames[c]+" column ("+strings.Join(wanted(names, c), " or ")+")")
				}
			}
			if p.e.Len() > 0 {
				return
			}
			continue
		}
		f := strings.Split(l, ",")
		get := func(c int) (string, string, bool) {
			j, ok := cols[c]
			if !ok {
				return "", "", false
			}
			name := strings.Trim(strings.TrimSpace(heads[j]), `"`)
			if j >= len(f) {
				p.bad(name, "missing (the row has "+strconv.Itoa(len(f))+" columns)")
				return "", name, false
			}
			return strings.Trim(strings.TrimSpace(f[j]), `"`), name, true
		}
		ts, tn, ok1 := get(colTime)
		is, in, ok2 := get(colIn)
		os, on, ok3 := get(colOut)
		if !ok1 || !ok2 || !ok3 {
			if p.e.Len() >= maxErrors {
				return
			}
			continue
		}
		var t float64
		ok := true
		if azure {
			t, ok = wallClock(ts)
			if !ok {
				ok = p.bad(tn, "must be a time like 2023-11-16 18:15:46.6805900, got "+fielderr.Quote(ts))
			}
		} else {
			t, ok = p.number(ts, tn)
			if ok && (t < 0 || t > maxTraceS) {
				ok = p.bad(tn, "must be seconds from 0 to 366 days, got "+ts)
			}
		}
		iv, okI := p.number(is, in)
		ov, okO := p.number(os, on)
		var ni, no int64
		if okI {
			ni, okI = p.count(iv, in, true)
		}
		if okO {
			no, okO = p.count(ov, on, false)
		}
		var pre int64
		hasPre := false
		if ps, pn, okP := get(colPrefix); okP && ps != "" {
			v, okv := p.number(ps, pn)
			if okv && (v < 0 || v > 1<<31-1 || v != float64(int64(v))) {
				okv = p.bad(pn, "must be a whole number from 0 to 2^31-1, got "+ps)
			}
			pre, hasPre = int64(v), okv
		}
		if !ok || !okI || !okO {
			if p.e.Len() >= maxErrors {
				return
			}
			continue
		}
		if !p.row(t, ni, no, pre, hasPre, tn) {
			return
		}
	}
}

// wanted lists the header names of column c.
func wanted(names map[string]int, c int) []string {
	var out []string
	for k, v := range names {
		if v == c {
			out = append(out, k)
		}
	}
	sortStrings(out)
	return out
}

func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func (p *parser) number(s, col string) (float64, bool) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x != x || x > 1e300 || x < -1e300 {
		p.bad(col, "must be a number, got "+fielderr.Quote(s))
		return 0, false
	}
	return x, true
}

// wallClock reads "YYYY-MM-DD HH:MM:SS[.fraction]" (the Azure traces'
// TIMESTAMP) as seconds since 1970-01-01 00:00:00 of the same clock
// (no time zone: only differences are used). Days come from the civil
// date by H. Hinnant's days_from_civil ("chrono-Compatible Low-Level Date
// Algorithms"); package time is not used, as its initialisation would
// add its settings machinery to the browser's light engine.
func wallClock(s string) (float64, bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	num := func(a, b int, lo, hi int64) (int64, bool) {
		v, err := strconv.ParseInt(s[a:b], 10, 64)
		return v, err == nil && s[a] != '+' && s[a] != '-' && v >= lo && v <= hi
	}
	y, ok1 := num(0, 4, 1, 9999)
	m, ok2 := num(5, 7, 1, 12)
	d, ok3 := num(8, 10, 1, 31)
	hh, ok4 := num(11, 13, 0, 23)
	mm, ok5 := num(14, 16, 0, 59)
	ss, ok6 := num(17, 19, 0, 60)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return 0, false
	}
	frac := 0.0
	if len(s) > 19 {
		if s[19] != '.' || len(s) == 20 {
			return 0, false
		}
		for _, c := range s[20:] {
			if c < '0' || c > '9' {
				return 0, false
			}
		}
		f, err := strconv.ParseFloat("0"+s[19:], 64)
		if err != nil {
			return 0, false
		}
		frac = f
	}
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := era*146097 + doe - 719468
	return float64(days*86400+hh*3600+mm*60+ss) + frac, true
}
