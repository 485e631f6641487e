// Command catalog maintains the model catalog, models/catalog/*.json (one
// file per family, each a JSON array of entries; docs/model-catalog.md).
//
//	go run ./tools/catalog import -config config.json -id org/Name \
//	    -family "Qwen3.5" -aliases qwen3.5-27b -name "Qwen3.5 27B" \
//	    -repo owner/repo -path path/in/repo/config.json -commit SHA \
//	    -source-url https://huggingface.co/org/Name/blob/main/config.json \
//	    -params 27.8e9 -params-source "Hugging Face model page: 27.8B params"
//	go run ./tools/catalog check
//
// import reads a published config.json (the Hub file or a vendored copy),
// builds the entry with its source, and refuses it unless the engine parses
// the config, the derived parameter count is within 1 % of -params, every
// source field the rules ask for is there, and its id and aliases collide
// with no other entry's. It then appends the entry to the family's file
// (-file, by default the family name lower-cased with spaces as dashes) and
// runs `go generate ./models/catalog`, which rewrites
// models/catalog/catalog_data.go.
// -hf-quant-config merges a ModelOpt hf_quant_config.json into the config
// and -collapse-layer-lists shortens per-layer module lists; both say so in
// the entry's notes.
//
// check runs the same validation over every entry already in the catalog.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/models"
	_ "github.com/modelrefs/throughput/models/deepseekv4" // the engine parses every architecture
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "catalog:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: catalog import|check|show [flags] (see -h of each)")
	}
	switch args[0] {
	case "import":
		return runImport(args[1:], stdout, stderr)
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "show":
		return runShow(args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown command %q: want import, check or show", args[0])
}

// entry is a catalog entry as written in a family file; Config keeps the
// published key order.
type entry struct {
	ID                 string          `json:"id"`
	Aliases            []string        `json:"aliases,omitempty"`
	Name               string          `json:"name"`
	Family             string          `json:"family,omitempty"`
	Base               string          `json:"base,omitempty"`
	PublishedParams    float64         `json:"published_params"`
	ParamsSource       string          `json:"params_source"`
	PublishedCountsMTP bool            `json:"published_params_include_mtp,omitempty"`
	PublishedTextOnly  bool            `json:"published_params_text_only,omitempty"`
	PublishedEffective bool            `json:"published_params_effective,omitempty"`
	PublishedNoEmbed   bool            `json:"published_params_without_embeddings,omitempty"`
	ParamsTolerance    float64         `json:"params_tolerance,omitempty"`
	Source             models.Source   `json:"source"`
	Notes              string          `json:"notes,omitempty"`
	Config             json.RawMessage `json:"config"`
}

func runImport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var e entry
	configPath := fs.String("config", "", "the published config.json to import (required)")
	fs.StringVar(&e.ID, "id", "", "Hugging Face id, exactly as on the Hub (required)")
	fs.StringVar(&e.Name, "name", "", "display name (default: the id's part after the /)")
	fs.StringVar(&e.Family, "family", "", "family name (required); picks the file")
	aliases := fs.String("aliases", "", "comma-separated short lower-case aliases")
	fs.StringVar(&e.Base, "base", "", "catalog id of the unquantized model, for a quantized variant")
	fs.StringVar(&e.Source.URL, "source-url", "", "URL of the Hub config.json")
	fs.StringVar(&e.Source.Repo, "repo", "", "repository the config was read from (owner/name)")
	fs.StringVar(&e.Source.Path, "path", "", "path of the config in -repo")
	fs.StringVar(&e.Source.Commit, "commit", "", "commit of -repo the config was read at")
	params := fs.Float64("params", 0, "the publisher's total parameter count (required)")
	fs.StringVar(&e.ParamsSource, "params-source", "", "where -params was read (required)")
	fs.BoolVar(&e.PublishedCountsMTP, "params-include-mtp", false, "the published count includes the multi-token-prediction layers")
	fs.BoolVar(&e.PublishedEffective, "params-effective", false, "the published count is an effective one, without the per-layer embedding table and the vision tower (Gemma 4 E2B / E4B)")
	fs.BoolVar(&e.PublishedNoEmbed, "params-without-embeddings", false, "the published count leaves out the towers, the per-layer embedding table and the token embedding (Gemma 3n's effective count)")
	fs.StringVar(&e.Notes, "notes", "", "what was trimmed, added or is unverified")
	fs.Float64Var(&e.ParamsTolerance, "params-tolerance", 0, "a wider relative tolerance (at most 0.02) for a count published only rounded; the notes must say params_tolerance and why")
	file := fs.String("file", "", "family file name under -dir (default: family lower-cased, spaces as dashes, .json)")
	dir := fs.String("dir", "models/catalog", "the catalog folder")
	replace := fs.Bool("replace", false, "replace an entry with the same id instead of refusing it")
	noGen := fs.Bool("no-generate", false, "do not run go generate ./models/catalog afterwards")
	hfQuant := fs.String("hf-quant-config", "", "a ModelOpt hf_quant_config.json whose quantization object becomes the config's quantization_config (quant_method modelopt)")
	collapse := fs.Bool("collapse-layer-lists", false, "collapse the quantization_config's per-layer module lists and maps to layers.* patterns")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *configPath == "" || e.ID == "" || e.Family == "" || *params <= 0 || e.ParamsSource == "" {
		return errors.New("import needs -config, -id, -family, -params and -params-source")
	}
	if e.Name == "" {
		e.Name = e.ID[strings.LastIndexByte(e.ID, '/')+1:]
	}
	e.PublishedParams = *params
	for _, a := range strings.Split(*aliases, ",") {
		if a = strings.TrimSpace(a); a != "" {
			e.Aliases = append(e.Aliases, a)
		}
	}
	raw, err := os.ReadFile(*configPath)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return fmt.Errorf("%s: %w", *configPath, err)
	}
	e.Config = buf.Bytes()
	var added []string
	if *hfQuant != "" {
		q, err := os.ReadFile(*hfQuant)
		if err != nil {
			return err
		}
		if e.Config, err = mergeHFQuant(e.Config, q); err != nil {
			return err
		}
		added = append(added, "config.json has no quantization_config; it is hf_quant_config.json's 'quantization' object with quant_method 'modelopt' added")
	}
	if *collapse {
		c, changed, err := collapseLayerLists(e.Config)
		if err != nil {
			return fmt.Errorf("%s: %w", *configPath, err)
		}
		if changed {
			e.Config = c
			added = append(added, "quantization_config's per-layer module lists are collapsed to patterns with layers.* (and experts.*) in place of layer and expert numbers")
		}
	}
	if len(added) > 0 {
		e.Notes = strings.TrimSpace(e.Notes + " " + strings.Join(added, ". ") + ".")
	}
	name := *file
	if name == "" {
		name = familyFile(e.Family)
	}
	path := filepath.Join(*dir, name)
	cat, err := readCatalog(*dir)
	if err != nil {
		return err
	}
	// The new entry replaces its namesake (with -replace) and joins its file.
	var others []entry
	for _, c := range cat {
		if strings.EqualFold(c.entry.ID, e.ID) {
			if !*replace {
				return fmt.Errorf("%s is already in %s (use -replace)", e.ID, c.file)
			}
			continue
		}
		others = append(others, c.entry)
	}
	if err := validate(e, append(others, e)); err != nil {
		return err
	}
	m, err := derive(e)
	if err != nil {
		return err
	}
	if err := appendEntry(path, e); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s added (derived %s parameters, published %s)\n", path, e.ID, count(float64(m.Params.Total)), count(e.PublishedParams))
	if *noGen {
		return nil
	}
	cmd := exec.Command("go", "generate", "./models/catalog")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd.Run()
}

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "models/catalog", "the catalog folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cat, err := readCatalog(*dir)
	if err != nil {
		return err
	}
	all := make([]entry, len(cat))
	for i, c := range cat {
		all[i] = c.entry
	}
	var bad []string
	for _, c := range cat {
		if err := validate(c.entry, all); err != nil {
			bad = append(bad, c.file+": "+err.Error())
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "\n"))
	}
	fmt.Fprintf(stdout, "%d entries in %s: every one parses, its derived parameters are within its tolerance of the published count (1 %% unless justified), its names are unique\n", len(all), *dir)
	return nil
}

// runShow prints what the engine derives from config.json files, before
// they are imported: parameters (total, active, MTP) and the layer kinds.
func runShow(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("show needs config.json files as arguments")
	}
	for _, p := range fs.Args() {
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m, err := derive(entry{ID: p, Config: raw})
		if err != nil {
			fmt.Fprintln(stdout, err)
			continue
		}
		kinds := map[string]int{}
		for _, l := range m.Layers {
			kinds[l.Kind.String()]++
		}
		fmt.Fprintf(stdout, "%s: %s total, %s active, %s MTP, layers %v, quant %s %.3g bits\n", p, count(float64(m.Params.Total)), count(float64(m.Params.Active)), count(float64(m.Params.MTP)), kinds, m.Quant.Method, m.Quant.BitsPerWeight)
	}
	return nil
}

// familyFile is the default file name of a family: "Qwen3.5" -> "qwen3.5.json".
func familyFile(family string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(family)), " ", "-") + ".json"
}

type fileEntry struct {
	file  string
	entry entry
}

// readCatalog reads every family file of dir, in file-name order.
func readCatalog(dir string) ([]fileEntry, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []fileEntry
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		var list []entry
		if err := json.Unmarshal(b, &list); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		for _, e := range list {
			out = append(out, fileEntry{filepath.Base(n), e})
		}
	}
	return out, nil
}

// derive parses an entry's config with the engine.
func derive(e entry) (*models.Model, error) {
	var c map[string]any
	if err := json.Unmarshal(e.Config, &c); err != nil {
		return nil, fmt.Errorf("%s: config: %w", e.ID, err)
	}
	m, err := models.FromConfig(c)
	if err != nil {
		return nil, fmt.Errorf("%s: the engine refuses its config: %w", e.ID, err)
	}
	return m, nil
}

// validate checks one entry against the catalog rules, all being the whole
// catalog with the entry in it.
func validate(e entry, all []entry) error {
	var problems []string
	if e.ID == "" || !strings.Contains(e.ID, "/") {
		problems = append(problems, "id must be a Hugging Face id (owner/name)")
	}
	if e.Source.URL == "" && e.Source.Repo == "" {
		problems = append(problems, "source cites neither a URL nor a repository")
	}
	if e.Source.Repo != "" && e.Source.Path == "" {
		problems = append(problems, "source.repo without source.path")
	}
	if e.PublishedParams <= 0 || e.ParamsSource == "" {
		problems = append(problems, "published_params and params_source are required")
	}
	for _, a := range e.Aliases {
		if !validAlias(a) {
			problems = append(problems, fmt.Sprintf("alias %q must be lower-case without spaces or underscores, with a slash only as a former Hub id (owner/name)", a))
		}
	}
	if m, err := derive(e); err != nil {
		problems = append(problems, err.Error())
	} else if e.PublishedParams > 0 {
		got := float64(m.Params.Total)
		what := "total"
		if e.PublishedTextOnly {
			got -= float64(m.Params.Vision)
			what = "text-model"
		}
		if e.PublishedEffective {
			got -= float64(m.Params.Vision + m.Params.PLETable)
			what = "effective (without the per-layer embedding table and vision tower)"
		}
		if e.PublishedNoEmbed {
			got -= float64(m.Params.Vision + m.Params.PLETable + m.Params.Embedding)
			what = "effective (without the towers and both embedding tables)"
		}
		if e.PublishedCountsMTP {
			got += float64(m.Params.MTP)
			what = "total with the MTP layers"
		}
		me := models.Entry{ParamsTolerance: e.ParamsTolerance}
		tol := me.Tolerance()
		if e.ParamsTolerance > models.MaxParamsTolerance {
			problems = append(problems, fmt.Sprintf("params_tolerance %g is above the most allowed, %g", e.ParamsTolerance, models.MaxParamsTolerance))
		}
		if e.ParamsTolerance > 0 && !strings.Contains(e.Notes, "params_tolerance") {
			problems = append(problems, "params_tolerance is set but the notes do not justify it (name params_tolerance there)")
		}
		if rel := got/e.PublishedParams - 1; math.Abs(rel) > tol {
			problems = append(problems, fmt.Sprintf("derived %s %s parameters is %+.2f %% off the published %s (more than %g %%)", what, count(got), 100*rel, count(e.PublishedParams), 100*tol))
		}
	}
	if dup := collisions(e, all); len(dup) > 0 {
		problems = append(problems, dup...)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: %s", e.ID, strings.Join(problems, "; "))
	}
	return nil
}

// validAlias reports whether a is lower-case without spaces or
// underscores, and has at most one slash, between a non-empty owner and
// name (a model's former Hub id, such as meta-llama/meta-llama-3.1-8b).
func validAlias(a string) bool {
	if a == "" || a != strings.ToLower(a) || strings.ContainsAny(a, " _") {
		return false
	}
	owner, name, found := strings.Cut(a, "/")
	return !found || (owner != "" && name != "" && !strings.Contains(name, "/"))
}

// Lookup ranks of a name, as models.Lookup resolves them: full ids first,
// then aliases, then the part of an id after its "/".
const (
	rankID = iota
	rankAlias
	rankSuffix
)

// name is one lookup key of an entry, as the engine normalizes it, and its
// rank.
type name struct {
	key  string
	rank int
}

// names returns the lookup keys of an entry with their ranks.
func names(e entry) map[name]bool {
	norm := strings.NewReplacer(" ", "-", "_", "-")
	keys := map[name]bool{}
	add := func(k string, rank int) {
		keys[name{norm.Replace(strings.ToLower(strings.TrimSpace(k))), rank}] = true
	}
	add(e.ID, rankID)
	for _, a := range e.Aliases {
		add(a, rankAlias)
	}
	add(e.ID[strings.LastIndexByte(e.ID, '/')+1:], rankSuffix)
	return keys
}

// collisions lists the names of e that another entry of all claims at the
// same rank: those are ambiguous. A name claimed at different ranks is
// not: the lower rank wins (the alias "llama-3.1-8b" of the Instruct model
// beats the id suffix of meta-llama/Llama-3.1-8B).
func collisions(e entry, all []entry) []string {
	mine := names(e)
	var out []string
	for _, o := range all {
		if o.ID == e.ID {
			continue
		}
		for k := range names(o) {
			if mine[k] {
				out = append(out, fmt.Sprintf("name %q is also claimed by %s", k.key, o.ID))
			}
		}
	}
	sort.Strings(out)
	return out
}

// appendEntry adds e to the family file at path (created when absent),
// keeping the other entries' text as written.
func appendEntry(path string, e entry) error {
	var list []json.RawMessage
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &list); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	kept := list[:0]
	for _, r := range list {
		var id struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(r, &id) == nil && strings.EqualFold(id.ID, e.ID) {
			continue
		}
		kept = append(kept, r)
	}
	enc, err := json.Marshal(e)
	if err != nil {
		return err
	}
	kept = append(kept, enc)
	var out bytes.Buffer
	out.WriteString("[\n")
	for i, r := range kept {
		if i > 0 {
			out.WriteString(",\n")
		}
		var ind bytes.Buffer
		if err := json.Indent(&ind, r, " ", " "); err != nil {
			return err
		}
		out.WriteString(" ")
		out.Write(ind.Bytes())
	}
	out.WriteString("\n]\n")
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// count formats a parameter count in billions ("27.78B").
func count(n float64) string {
	return strconv.FormatFloat(n/1e9, 'f', 2, 64) + "B"
}
