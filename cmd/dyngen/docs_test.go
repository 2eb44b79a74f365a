package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// This file keeps the repository's Markdown true: the tables of contents
// of docs/spec.md and docs/guide.md list every heading, and every relative link of every
// Markdown file names a file that exists and, into a Markdown file, a
// heading it has, by GitHub's anchor rules.

// contentsDocs are the documents whose tables of contents TestContents
// keeps: the reference and the guide.
var contentsDocs = []string{"../../docs/spec.md", "../../docs/guide.md"}

// contentsHeading heads the table of contents of docs/spec.md.
const contentsHeading = "## Contents"

// A heading is an ATX heading of a Markdown text.
type heading struct {
	level  int    // 1 to 6, the number of #
	text   string // as written, without the #s
	anchor string // GitHub's id of it, unique in the text
}

var atxHeading = regexp.MustCompile(`^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$`)

// headings returns the headings of a Markdown text outside fenced code
// blocks, each with the anchor GitHub gives it: the slug of its text,
// then "-1", "-2"... for a slug met before.
func headings(text string) []heading {
	var out []heading
	seen := map[string]int{}
	for _, line := range prose(text) {
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := githubSlug(m[2])
		anchor := slug
		if n := seen[slug]; n > 0 {
			anchor = fmt.Sprintf("%s-%d", slug, n)
		}
		seen[slug]++
		out = append(out, heading{level: len(m[1]), text: m[2], anchor: anchor})
	}
	return out
}

// prose returns the lines of a Markdown text, each line of a fenced code
// block (``` or ~~~), its fences included, made empty: line i of the
// result is line i+1 of the text.
func prose(text string) []string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" ") == "" {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			for strings.HasPrefix(trimmed[len(fence):], fence[:1]) {
				fence += fence[:1]
			}
		default:
			continue
		}
		lines[i] = ""
	}
	return lines
}

var (
	inlineLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	codeSpan   = regexp.MustCompile("`+([^`]*)`+")
)

// githubSlug is GitHub's anchor of a heading (github-slugger, on the
// text the heading renders): the text in lower case, with every character
// but letters, marks, digits, '-', '_' and spaces removed, and each space
// made '-'. Markup is not text: a link gives its text, a code span its
// content, and emphasis marks go.
func githubSlug(heading string) string {
	text := inlineLink.ReplaceAllString(heading, "$1")
	text = codeSpan.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-', r == '_', unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsNumber(r), unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestGitHubSlug(t *testing.T) {
	// Anchors GitHub gives these headings.
	for heading, want := range map[string]string{
		"1. The file":                    "1-the-file",
		"7. The planner: no Scan":        "7-the-planner-no-scan",
		"Options (the long form)":        "options-the-long-form",
		"`dyngen plan -json`":            "dyngen-plan--json",
		"`dyngen -version`":              "dyngen--version",
		"create-table input":             "create-table-input",
		"What `first` returns, and why":  "what-first-returns-and-why",
		"Step 3: unique_values / [a](b)": "step-3-unique_values--a",
		"Ünïcode café":                   "ünïcode-café",
	} {
		if got := githubSlug(heading); got != want {
			t.Errorf("githubSlug(%q) = %q, want %q", heading, got, want)
		}
	}
	hs := headings("# A\n```\n# not a heading\n```\n## A\n### A\n")
	var anchors []string
	for _, h := range hs {
		anchors = append(anchors, h.anchor)
	}
	if got := strings.Join(anchors, " "); got != "a a-1 a-2" {
		t.Errorf("anchors of repeated headings: %s, want a a-1 a-2", got)
	}
}

// contents returns the table of contents of a Markdown text: a list item
// per heading of level 2 and below but the contents' own, indented two
// spaces per level below 2, linking to the heading's anchor.
func contents(text string) string {
	var b strings.Builder
	for _, h := range headings(text) {
		if h.level < 2 || "## "+h.text == contentsHeading {
			continue
		}
		fmt.Fprintf(&b, "%s- [%s](#%s)\n", strings.Repeat("  ", h.level-2), h.text, h.anchor)
	}
	return b.String()
}

// contentsSection returns where the contents start and end in text:
// from after the heading and its blank line up to the next heading, the
// blank line before it included.
func contentsSection(t *testing.T, doc, text string) (start, end int) {
	t.Helper()
	i := strings.Index(text, "\n"+contentsHeading+"\n\n")
	if i < 0 {
		t.Fatalf("%s has no section %q", doc, contentsHeading)
	}
	start = i + len("\n"+contentsHeading+"\n\n")
	if strings.HasPrefix(text[start:], "#") {
		return start, start
	}
	next := strings.Index(text[start:], "\n#")
	if next < 0 {
		t.Fatalf("%s: no heading follows the contents", doc)
	}
	return start, start + next + 1
}

// TestContents keeps the tables of contents of docs/spec.md and
// docs/guide.md true: each is the list of the document's headings, each
// linked to its anchor, in order and indented by level. go test
// ./cmd/dyngen -run Contents -update writes them.
func TestContents(t *testing.T) {
	for _, doc := range contentsDocs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		start, end := contentsSection(t, doc, text)
		want := contents(text) + "\n"
		if got := text[start:end]; got != want {
			if *update {
				if err := os.WriteFile(doc, []byte(text[:start]+want+text[end:]), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("the contents of %s are not its headings (go test ./cmd/dyngen -run Contents -update rewrites them); want:\n%s", doc, want)
		}
		// Each line is a heading: the contents name every one, and only them.
		anchors := map[string]bool{}
		for _, h := range headings(text) {
			anchors[h.anchor] = true
		}
		n := 0
		for _, line := range strings.Split(strings.TrimSuffix(contents(text), "\n"), "\n") {
			m := markdownLink.FindStringSubmatch(line)
			if m == nil || !strings.HasPrefix(m[2], "#") || !anchors[m[2][1:]] {
				t.Errorf("%s: contents line %q links to no heading", doc, line)
			}
			n++
		}
		if n+2 != len(headings(text)) { // the title and the contents' own heading
			t.Errorf("%s: the contents list %d headings of %d", doc, n, len(headings(text))-2)
		}
	}
}

// A paragraph is lines of text with no empty line between them, joined
// by spaces (a link may break across lines), and the line it starts on.
type paragraph struct {
	text string
	line int
}

// paragraphs returns the paragraphs of lines (line i is line i+1 of its
// file).
func paragraphs(lines []string) []paragraph {
	var out []paragraph
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		p := paragraph{line: i + 1}
		var text []string
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
			text = append(text, strings.TrimSpace(lines[i]))
		}
		p.text = strings.Join(text, " ")
		out = append(out, p)
	}
	return out
}

var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]*)\)`)

// TestMarkdownLinks checks the relative links of the repository's
// Markdown files (README.md, docs/, the examples...): each names a file or
// directory that exists, and a link with an anchor into a Markdown file
// (its own included) names one of its headings.
func TestMarkdownLinks(t *testing.T) {
	root := "../.."
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	anchorsOf := map[string]map[string]bool{}
	anchors := func(path string) map[string]bool {
		if a, ok := anchorsOf[path]; ok {
			return a
		}
		a := map[string]bool{}
		if data, err := os.ReadFile(path); err == nil {
			for _, h := range headings(string(data)) {
				a[h.anchor] = true
			}
		}
		anchorsOf[path] = a
		return a
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, file)
		for _, para := range paragraphs(prose(string(data))) {
			text := codeSpan.ReplaceAllString(para.text, "")
			for _, m := range markdownLink.FindAllStringSubmatch(text, -1) {
				target := m[2]
				if target == "" || strings.Contains(target, ":") {
					continue // a URL
				}
				path, anchor, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %s: no such file", rel, para.line, target)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(dest, ".md") && !anchors(dest)[anchor] {
					t.Errorf("%s:%d: link %s: no heading has the anchor #%s", rel, para.line, target, anchor)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found")
	}
}
