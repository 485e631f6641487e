package traffic

import (
	"strconv"
	"strings"
)

// jsonl reads one JSON object a line: names maps the keys read to
// columns (others are skipped); a time column's value is multiplied by
// scale to give seconds. A key's value is a number, or for colHash an
// array of whole numbers; other values of unknown keys (strings, arrays,
// objects without nesting of brackets in strings) are skipped.
func (p *parser) jsonl(names map[string]int, scale float64) {
	key := func(c int) string { return strings.Join(wanted(names, c), " or ") }
	data := p.data
	for i := 0; len(data) > 0; i++ {
		l := data
		if j := strings.IndexByte(data, '\n'); j >= 0 {
			l, data = data[:j], data[j+1:]
		} else {
			data = ""
		}
		p.line = i + 1
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		var v [colHash + 1]float64
		var has [colHash + 1]bool
		var hashes []int64
		sc := scanner{s: l}
		ok := sc.object(func(k string) bool {
			c := names[k]
			if c == colNone {
				return sc.skip()
			}
			if has[c] {
				p.bad(k, "appears twice")
				return false
			}
			if c == colHash {
				var okh bool
				hashes, okh = sc.ints()
				if !okh {
					p.bad(k, "must be an array of whole numbers")
					return false
				}
				has[c] = true
				return true
			}
			x, okn := sc.number()
			if !okn {
				p.bad(k, "must be a number")
				return false
			}
			v[c], has[c] = x, true
			return true
		})
		if !ok {
			if sc.err != "" {
				p.bad("", sc.err)
			}
			if p.e.Len() >= maxErrors {
				return
			}
			continue
		}
		good := true
		for _, c := range []int{colTime, colIn, colOut} {
			if !has[c] {
				good = p.bad(key(c), "missing")
			}
		}
		if !good {
			if p.e.Len() >= maxErrors {
				return
			}
			continue
		}
		t := v[colTime] * scale
		if t < 0 || t > maxTraceS {
			if !p.bad(key(colTime), "must be from 0 to 366 days, got "+strconv.FormatFloat(v[colTime], 'g', -1, 64)) {
				return
			}
			continue
		}
		in, okI := p.count(v[colIn], key(colIn), true)
		out, okO := p.count(v[colOut], key(colOut), false)
		pre := int64(-1)
		if has[colPrefix] {
			x := v[colPrefix]
			if x < 0 || x > 1<<31-1 || x != float64(int64(x)) {
				okI = p.bad(key(colPrefix), "must be a whole number from 0 to 2^31-1")
			}
			pre = int64(x)
		}
		if !okI || !okO {
			if p.e.Len() >= maxErrors {
				return
			}
			continue
		}
		if !p.row(t, in, out, pre, has[colPrefix], key(colTime)) {
			return
		}
		for _, h := range hashes {
			p.t.Blocks++
			if _, ok := p.seen[h]; ok {
				p.t.ReusedBlocks++
			} else {
				p.seen[h] = struct{}{}
			}
		}
	}
}

// scanner reads one flat JSON object.
type scanner struct {
	s   string
	i   int
	err string
}

func (s *scanner) ws() {
	for s.i < len(s.s) && (s.s[s.i] == ' ' || s.s[s.i] == '\t' || s.s[s.i] == '\r') {
		s.i++
	}
}

func (s *scanner) fail(msg string) bool {
	if s.err == "" {
		s.err = msg + " at character " + strconv.Itoa(s.i+1)
	}
	return false
}

// object reads {"key": value, ...}, calling f at each key with the
// scanner at its value; f reads the value, or returns false.
func (s *scanner) object(f func(key string) bool) bool {
	s.ws()
	if s.i >= len(s.s) || s.s[s.i] != '{' {
		return s.fail("not a JSON object")
	}
	s.i++
	s.ws()
	if s.i < len(s.s) && s.s[s.i] == '}' {
		s.i++
		return s.end()
	}
	for {
		s.ws()
		k, ok := s.str()
		if !ok {
			return false
		}
		s.ws()
		if s.i >= len(s.s) || s.s[s.i] != ':' {
			return s.fail("expected ':'")
		}
		s.i++
		s.ws()
		if !f(k) {
			return false
		}
		s.ws()
		if s.i < len(s.s) && s.s[s.i] == ',' {
			s.i++
			continue
		}
		if s.i < len(s.s) && s.s[s.i] == '}' {
			s.i++
			return s.end()
		}
		return s.fail("expected ',' or '}'")
	}
}

func (s *scanner) end() bool {
	s.ws()
	if s.i != len(s.s) {
		return s.fail("text after the object")
	}
	return true
}

// str reads a string (escapes kept as written: keys are plain names).
func (s *scanner) str() (string, bool) {
	if s.i >= len(s.s) || s.s[s.i] != '"' {
		return "", s.fail("expected a string")
	}
	j := s.i + 1
	for j < len(s.s) && s.s[j] != '"' {
		if s.s[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(s.s) {
		return "", s.fail("unterminated string")
	}
	k := s.s[s.i+1 : j]
	s.i = j + 1
	return k, true
}

func (s *scanner) number() (float64, bool) {
	j := s.i
	for j < len(s.s) && strings.IndexByte("+-.0123456789eE", s.s[j]) >= 0 {
		j++
	}
	x, err := strconv.ParseFloat(s.s[s.i:j], 64)
	if err != nil || x != x || x > 1e300 || x < -1e300 {
		return 0, false
	}
	s.i = j
	return x, true
}

// ints reads an array of whole numbers.
func (s *scanner) ints() ([]int64, bool) {
	if s.i >= len(s.s) || s.s[s.i] != '[' {
		return nil, false
	}
	s.i++
	var out []int64
	for {
		s.ws()
		if s.i < len(s.s) && s.s[s.i] == ']' && len(out) == 0 {
			s.i++
			return out, true
		}
		x, ok := s.number()
		if !ok || x != float64(int64(x)) {
			return nil, false
		}
		out = append(out, int64(x))
		s.ws()
		if s.i < len(s.s) && s.s[s.i] == ',' {
			s.i++
			continue
		}
		if s.i < len(s.s) && s.s[s.i] == ']' {
			s.i++
			return out, true
		}
		return nil, false
	}
}

// skip skips one value: a string, a number, true, false, null, or an
// array or object (brackets counted outside strings).
func (s *scanner) skip() bool {
	if s.i >= len(s.s) {
		return s.fail("expected a value")
	}
	switch c := s.s[s.i]; c {
	case '"':
		_, ok := s.str()
		return ok
	case '[', '{':
		depth := 0
		for s.i < len(s.s) {
			switch s.s[s.i] {
			case '"':
				if _, ok := s.str(); !ok {
					return false
				}
				continue
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			}
			s.i++
			if depth == 0 {
				return true
			}
		}
		return s.fail("unterminated value")
	default:
		j := s.i
		for j < len(s.s) && s.s[j] != ',' && s.s[j] != '}' && s.s[j] != ' ' {
			j++
		}
		if j == s.i {
			return s.fail("expected a value")
		}
		s.i = j
		return true
	}
}
