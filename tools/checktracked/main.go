// Command checktracked fails when the repository tracks build output: a
// binary, or a file over 2 MB that is neither source nor data. It is the
// first step of `./build.sh test` (scripts/check-generated.sh is the next).
//
//	go run ./tools/checktracked [ROOT]   (default: the current directory)
//
// It reads every file in ROOT's git index (what a commit would hold; links
// and submodules are skipped) and reports, one line each:
//
//   - an executable or object file, whatever its name: ELF, Mach-O,
//     PE (Windows), WebAssembly, an ar archive (Go's .a);
//   - any other binary content, the way git tells it (a NUL byte in the
//     first 8000 bytes), unless its extension is a binary data kind in
//     binaryData (images, fonts);
//   - a file over maxSize (2 MiB) whose extension is not in sourceOrData.
//
// It exits 1 when it reports anything, 2 when git cannot list the index,
// and 0 otherwise. The binaries the build writes are ignored instead
// (.gitignore; the test checks it covers every main package).
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
)

// maxSize is the largest a tracked file may be, in bytes, unless it is
// source or data (sourceOrData). The largest such files today are
// calc/validation/testdata/public-cases.json (about 1.0 MB) and
// models/catalog_data.go (about 0.8 MB), both text.
const maxSize = 2 << 20

// sniffLen is how much of a file the binary test reads: git's own
// heuristic (buffer_is_binary) looks for a NUL in the first 8000 bytes.
const sniffLen = 8000

// sourceOrData is the allow-list of extensions a file over maxSize may
// have: source code, documentation and text data. Such a file must still
// be text (no NUL in its first 8000 bytes).
var sourceOrData = map[string]bool{
	".go": true, ".mod": true, ".sum": true, ".s": true,
	".js": true, ".mjs": true, ".cjs": true, ".ts": true,
	".css": true, ".html": true, ".svg": true,
	".md": true, ".txt": true, ".log": true,
	".json": true, ".jsonl": true, ".csv": true, ".tsv": true,
	".yaml": true, ".yml": true, ".toml": true, ".capnp": true,
	".sh": true, ".py": true,
}

// binaryData is the allow-list of extensions whose content may be binary
// (a NUL byte): images and web fonts, which a page may ship as they are.
// An executable is refused whatever its extension.
var binaryData = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true,
	".ico": true, ".woff": true, ".woff2": true,
}

// executable names the executable or object format that data starts
// with, or returns "".
func executable(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x7fELF")):
		return "an ELF executable or object"
	case bytes.HasPrefix(data, []byte{0xfe, 0xed, 0xfa, 0xce}), bytes.HasPrefix(data, []byte{0xce, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(data, []byte{0xfe, 0xed, 0xfa, 0xcf}), bytes.HasPrefix(data, []byte{0xcf, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(data, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return "a Mach-O executable or object"
	case bytes.HasPrefix(data, []byte("\x00asm")):
		return "a WebAssembly module"
	case bytes.HasPrefix(data, []byte("!<arch>\n")):
		return "an ar archive"
	case bytes.HasPrefix(data, []byte("MZ")) && bytes.IndexByte(data, 0) >= 0:
		// "MZ" alone could start a text file: a PE file holds NULs.
		return "a PE (Windows) executable"
	}
	return ""
}

// classify returns why a tracked file of the given name and size, whose
// content starts with head (at most sniffLen bytes), may not be tracked,
// or "" when it may.
func classify(name string, size int64, head []byte) string {
	ext := strings.ToLower(path.Ext(name))
	if kind := executable(head); kind != "" {
		return kind
	}
	if bytes.IndexByte(head, 0) >= 0 && !binaryData[ext] {
		return "binary content (a NUL byte in its first 8000 bytes), and " + kindOf(ext) + " is not a binary data kind"
	}
	if size > maxSize && !sourceOrData[ext] {
		return fmt.Sprintf("%d bytes, over the 2 MB (%d bytes) limit, and %s is not source or data", size, maxSize, kindOf(ext))
	}
	return ""
}

// kindOf names an extension for a message.
func kindOf(ext string) string {
	if ext == "" {
		return "a name without an extension"
	}
	return ext
}

// finding is a tracked file that may not be tracked, and why.
type finding struct{ name, why string }

// check lists the files of root's git index that may not be tracked.
func check(root string) ([]finding, error) {
	// Index entries: "<mode> <object> <stage>\t<name>".
	list, err := exec.Command("git", "-C", root, "ls-files", "-z", "--stage").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", root, gitErr(err))
	}
	type entry struct{ name, object string }
	var entries []entry
	for _, rec := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		meta, name, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-files: unexpected entry %q", rec)
		}
		if f[0] != "100644" && f[0] != "100755" {
			continue // a symbolic link (120000) or a submodule (160000)
		}
		if f[2] != "0" && f[2] != "2" {
			continue // in a merge conflict, our side (stage 2) stands for the file
		}
		entries = append(entries, entry{name, f[1]})
	}

	// The objects' contents, in order, from one `git cat-file --batch`.
	cmd := exec.Command("git", "-C", root, "cat-file", "--batch")
	var in bytes.Buffer
	for _, e := range entries {
		in.WriteString(e.object + "\n")
	}
	cmd.Stdin = &in
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	r := bufio.NewReaderSize(out, 1<<16)
	var found []finding
	for _, e := range entries {
		// "<object> blob <size>\n<content>\n"
		header, err := r.ReadString('\n')
		if err != nil {
			cmd.Wait()
			return nil, fmt.Errorf("git cat-file, reading %s: %w (%s)", e.name, err, strings.TrimSpace(stderr.String()))
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			cmd.Wait()
			return nil, fmt.Errorf("git cat-file, reading %s: %q", e.name, strings.TrimSpace(header))
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			cmd.Wait()
			return nil, fmt.Errorf("git cat-file, reading %s: %q", e.name, strings.TrimSpace(header))
		}
		head := make([]byte, min(size, sniffLen))
		if _, err := io.ReadFull(r, head); err != nil {
			cmd.Wait()
			return nil, fmt.Errorf("git cat-file, reading %s: %w", e.name, err)
		}
		if _, err := r.Discard(int(size-int64(len(head))) + 1); err != nil { // the rest and the newline
			cmd.Wait()
			return nil, fmt.Errorf("git cat-file, reading %s: %w", e.name, err)
		}
		if why := classify(e.name, size, head); why != "" {
			found = append(found, finding{e.name, why})
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w (%s)", err, strings.TrimSpace(stderr.String()))
	}
	return found, nil
}

// gitErr adds git's standard error to err.
func gitErr(err error) error {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
	}
	return err
}

// run checks root and reports to stdout and stderr; it returns the exit
// status.
func run(root string, stdout, stderr io.Writer) int {
	found, err := check(root)
	if err != nil {
		fmt.Fprintln(stderr, "checktracked:", err)
		return 2
	}
	if len(found) > 0 {
		fmt.Fprintln(stderr, "checktracked: tracked files that are build output, binary or too large (git rm --cached them; .gitignore the build's outputs):")
		for _, f := range found {
			fmt.Fprintf(stderr, "  %s: %s\n", f.name, f.why)
		}
		return 1
	}
	fmt.Fprintln(stdout, "checktracked: no tracked binary, no tracked file over 2 MB that is not source or data")
	return 0
}

func main() {
	root := "."
	switch len(os.Args) {
	case 1:
	case 2:
		root = os.Args[1]
	default:
		fmt.Fprintln(os.Stderr, "usage: checktracked [ROOT]")
		os.Exit(2)
	}
	os.Exit(run(root, os.Stdout, os.Stderr))
}
