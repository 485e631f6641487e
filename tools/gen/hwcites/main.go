// Command hwcites writes the files that join the accelerator catalog's
// sources to their citation text, which lives in package
// hardware/citations (citations.go, one constant per citation) so that a
// program that does not import that package (the browser engines, to stay
// inside their size budget, scripts/wasm-size.sh) carries none of it:
//
//   - -keys: a Go file of package hardware that declares every citation
//     constant of citations.go as "": the names the catalog's entries
//     (hardware/catalog*.go) write in their sources, {Fields: ...,
//     Citation: citeH100};
//   - -table: a Go file of package hardware/citations holding each
//     accelerator's citations by id, in the order of its sources, read from
//     those entries: the table its init hands to hardware.RegisterCitations;
//   - -js: an ES module exporting each catalog accelerator's sources by id,
//     from which the JavaScript module restores the sources the engine's
//     hardware() and hardwareSpec() answer without their citations.
//
// Usage (go generate in hardware/):
//
//	go run ../tools/gen/hwcites -citations citations/citations.go -keys citations_gen.go -table citations/table_gen.go -js ../www/module/hardware-sources.js
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/jsonx"
)

func main() {
	citations := flag.String("citations", "citations/citations.go", "the Go file that holds the citation constants")
	catalog := flag.String("catalog", "catalog*.go", "the Go files of the catalog's entries (a glob)")
	keys := flag.String("keys", "", "write the file of package hardware that declares the citation names here")
	table := flag.String("table", "", "write the table of each accelerator's citations here")
	js := flag.String("js", "", "write the ES module of every accelerator's sources here")
	flag.Parse()
	if err := run(*citations, *catalog, *keys, *table, *js); err != nil {
		fmt.Fprintln(os.Stderr, "hwcites:", err)
		os.Exit(1)
	}
}

func run(citations, catalog, keys, table, js string) error {
	names, text, err := citationConsts(citations)
	if err != nil {
		return err
	}
	bySource, err := entryCitations(catalog)
	if err != nil {
		return err
	}
	cat := hardware.Catalog()
	if err := check(cat, bySource, text); err != nil {
		return err
	}
	if keys != "" {
		if err := os.WriteFile(keys, keysFile(names), 0o644); err != nil {
			return err
		}
	}
	if table != "" {
		if err := os.WriteFile(table, tableFile(cat, bySource), 0o644); err != nil {
			return err
		}
	}
	if js != "" {
		b, err := jsModule(cat, bySource, text)
		if err != nil {
			return err
		}
		return os.WriteFile(js, b, 0o644)
	}
	return nil
}

// citationConsts returns the names of the constants file declares, in
// order, and their values.
func citationConsts(file string) ([]string, map[string]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	pkg, err := new(types.Config).Check(f.Name.Name, fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	text := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				c, ok := pkg.Scope().Lookup(n.Name).(*types.Const)
				if !ok || c.Val().Kind() != constant.String {
					return nil, nil, fmt.Errorf("%s: %s is not a string constant", file, n.Name)
				}
				names = append(names, n.Name)
				text[n.Name] = constant.StringVal(c.Val())
			}
		}
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("%s declares no constants", file)
	}
	return names, text, nil
}

// entryCitations reads the catalog's entries from the files glob matches
// (tests left out): every composite literal with an ID and Sources, each
// source's Citation the name of a citation constant. It returns each
// entry's citation names by id, in the order of its sources.
func entryCitations(glob string) (map[string][]string, error) {
	files, err := filepath.Glob(glob)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || err != nil {
				return err == nil
			}
			id, sources := keyed(lit, "ID"), keyed(lit, "Sources")
			if id == nil || sources == nil {
				return true
			}
			err = entry(fset, id, sources, out)
			return false
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// keyed returns the value of lit's field key, or nil.
func keyed(lit *ast.CompositeLit, key string) ast.Expr {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == key {
				return kv.Value
			}
		}
	}
	return nil
}

// entry adds one catalog entry's citation names to out.
func entry(fset *token.FileSet, id, sources ast.Expr, out map[string][]string) error {
	at := fset.Position(id.Pos())
	idLit, ok := id.(*ast.BasicLit)
	if !ok || idLit.Kind != token.STRING {
		return fmt.Errorf("%s: the entry's ID is not a string literal", at)
	}
	key, err := strconv.Unquote(idLit.Value)
	if err != nil {
		return err
	}
	list, ok := sources.(*ast.CompositeLit)
	if !ok {
		return fmt.Errorf("%s: %s: Sources is not a literal", at, key)
	}
	if _, dup := out[key]; dup {
		return fmt.Errorf("%s: %s: a second entry", at, key)
	}
	names := []string{}
	for _, s := range list.Elts {
		src, ok := s.(*ast.CompositeLit)
		cite, isIdent := ast.Expr(nil), false
		if ok {
			cite = keyed(src, "Citation")
			_, isIdent = cite.(*ast.Ident)
		}
		if !isIdent {
			return fmt.Errorf("%s: %s: a source whose Citation is not the name of a citation", fset.Position(s.Pos()), key)
		}
		names = append(names, cite.(*ast.Ident).Name)
	}
	out[key] = names
	return nil
}

// check makes sure that the entries read from the source are the
// catalog's, source for source, and that every name has a text.
func check(cat []hardware.Accelerator, bySource map[string][]string, text map[string]string) error {
	if len(bySource) != len(cat) {
		return fmt.Errorf("the catalog files hold %d entries, the catalog %d", len(bySource), len(cat))
	}
	for _, a := range cat {
		names, ok := bySource[a.ID]
		if !ok {
			return fmt.Errorf("%s: not found in the catalog files", a.ID)
		}
		if len(names) != len(a.Sources) {
			return fmt.Errorf("%s: %d sources in the catalog files, %d in the catalog", a.ID, len(names), len(a.Sources))
		}
		for _, n := range names {
			if strings.TrimSpace(text[n]) == "" {
				return fmt.Errorf("%s: citation %s has no text", a.ID, n)
			}
		}
	}
	return nil
}

func keysFile(names []string) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by tools/gen/hwcites; DO NOT EDIT.\n\npackage hardware\n\n")
	b.WriteString("// The names of the catalog's citations, which its entries write in their\n")
	b.WriteString("// sources ({Fields: datasheet, Citation: citeH100}): each is empty here, and\n")
	b.WriteString("// package hardware/citations holds its text (citations.go) and fills it in\n")
	b.WriteString("// when a program imports it (RegisterCitations). The browser engines do\n")
	b.WriteString("// not, and the JavaScript module restores each accelerator's sources from\n")
	b.WriteString("// hardware-sources.js.\n")
	b.WriteString("const (\n")
	for _, n := range names {
		b.WriteString("\t" + n + " = \"\"\n")
	}
	b.WriteString(")\n")
	return gofmt(b.Bytes())
}

func tableFile(cat []hardware.Accelerator, bySource map[string][]string) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by tools/gen/hwcites; DO NOT EDIT.\n\npackage citations\n\n")
	b.WriteString("// bySource holds each catalog accelerator's citations by id, in the order\n")
	b.WriteString("// of its sources, as its entry in hardware/catalog*.go names them.\n")
	b.WriteString("var bySource = map[string][]string{\n")
	for _, a := range cat {
		b.WriteString("\t" + strconv.Quote(a.ID) + ": {" + strings.Join(bySource[a.ID], ", ") + "},\n")
	}
	b.WriteString("}\n")
	return gofmt(b.Bytes())
}

func gofmt(src []byte) []byte {
	out, err := format.Source(src)
	if err != nil {
		panic(err) // the text is Go by construction
	}
	return out
}

// jsModule writes the sources of every catalog accelerator, in catalog
// order, with each distinct citation and field list written once:
// hardwareSources(id) answers a fresh array of {fields, citation}.
func jsModule(cat []hardware.Accelerator, bySource map[string][]string, text map[string]string) ([]byte, error) {
	var cites, fields []string
	citeIdx, fieldIdx := map[string]int{}, map[string]int{}
	index := func(list *[]string, idx map[string]int, v string) int {
		if i, ok := idx[v]; ok {
			return i
		}
		idx[v] = len(*list)
		*list = append(*list, v)
		return idx[v]
	}
	var rows bytes.Buffer
	for _, a := range cat {
		id, err := jsonx.Marshal(a.ID)
		if err != nil {
			return nil, err
		}
		rows.WriteString("  " + string(id) + ": [")
		for i, s := range a.Sources {
			f, err := jsonx.Marshal(s.Fields)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				rows.WriteString(", ")
			}
			fmt.Fprintf(&rows, "[%d, %d]", index(&fields, fieldIdx, string(f)), index(&cites, citeIdx, text[bySource[a.ID][i]]))
		}
		rows.WriteString("],\n")
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by tools/gen/hwcites; DO NOT EDIT.\n")
	b.WriteString("// Every catalog accelerator's sources, by id (hardware/citations): the\n")
	b.WriteString("// browser engines are built without their citation text (they do not\n")
	b.WriteString("// import that package), and throughput.js puts these back into hardware()\n")
	b.WriteString("// and hardwareSpec().\n\n")
	b.WriteString("const FIELDS = [\n")
	for _, f := range fields {
		b.WriteString("  " + f + ",\n")
	}
	b.WriteString("];\n\nconst CITATIONS = [\n")
	for _, c := range cites {
		q, err := jsonx.Marshal(c)
		if err != nil {
			return nil, err
		}
		b.WriteString("  " + string(q) + ",\n")
	}
	b.WriteString("];\n\n// [field list, citation] pairs by accelerator id.\nconst SOURCES = {\n")
	b.Write(rows.Bytes())
	b.WriteString("};\n\n")
	b.WriteString("/** The sources of catalog accelerator id, a fresh array of {fields, citation}; undefined for an id not in the catalog. */\n")
	b.WriteString("export function hardwareSources(id) {\n")
	b.WriteString("  const pairs = Object.hasOwn(SOURCES, id) ? SOURCES[id] : undefined;\n")
	b.WriteString("  return pairs?.map(([f, c]) => ({ fields: [...FIELDS[f]], citation: CITATIONS[c] }));\n")
	b.WriteString("}\n")
	return b.Bytes(), nil
}
