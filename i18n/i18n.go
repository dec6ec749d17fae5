// Package i18n holds kurs's message catalogs (German and English) and picks
// the language a user reads.
//
// Course texts (lessons, hints) live with the course, not here.
package i18n

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// catalogs holds messages/AREA.LANG.toml: one pair of files per area of
// kurs (core, grade, web, …), so that each area's messages stay together.
//
//go:embed messages/*.toml
var catalogs embed.FS

// Languages are the languages kurs speaks; the first is the default.
var Languages = []string{"en", "de"}

// Printer formats messages in one language.
type Printer struct {
	lang string
}

// New returns a Printer for lang ("de" or "en"; anything else means "en").
// It parses no catalog: the first message from an area of kurs parses
// that area's catalogs.
func New(lang string) *Printer {
	if !Supported(lang) {
		lang = "en"
	}
	return &Printer{lang: lang}
}

// Lang returns the Printer's language.
func (p *Printer) Lang() string { return p.lang }

// T returns the message id, filled in from key-value pairs:
// T("init.created", "Dir", dir). A "Count" pair also picks the plural form. A missing message shows as its id in
// brackets, which the catalog tests rule out.
func (p *Printer) T(id string, kv ...any) string {
	data := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		data[fmt.Sprint(kv[i])] = kv[i+1]
	}
	cfg := &goi18n.LocalizeConfig{MessageID: id, TemplateData: data}
	if n, ok := data["Count"]; ok {
		// Messages with a Count may have forms for one and other.
		cfg.PluralCount = n
	}
	s, err := localize(p.lang, cfg)
	if err != nil {
		return "[" + id + "]"
	}
	return s
}

// Has reports whether the catalog of lang has a message id.
func Has(lang, id string) bool {
	if !Supported(lang) {
		lang = "en"
	}
	_, err := localize(lang, &goi18n.LocalizeConfig{MessageID: id})
	return err == nil
}

// localize formats the message cfg.MessageID in lang from the catalogs of
// the area that holds it. The areas whose English catalog names the id
// are tried first; the others only when those lack it, which the catalog
// tests rule out. The area found is remembered for the id: looking for
// the id in the catalogs' text on every message took a page of results
// most of its time to render.
func localize(lang string, cfg *goi18n.LocalizeConfig) (string, error) {
	var missing *goi18n.MessageNotFoundErr
	if a, ok := areaOf.Load(cfg.MessageID); ok {
		s, err := a.(*area).localizer[lang]().Localize(cfg)
		if !errors.As(err, &missing) {
			return s, err
		}
	}
	quoted := `"` + cfg.MessageID + `"`
	var err error = &goi18n.MessageNotFoundErr{MessageID: cfg.MessageID}
	for _, named := range []bool{true, false} {
		for _, a := range areas() {
			if strings.Contains(a.en, quoted) != named {
				continue
			}
			var s string
			s, err = a.localizer[lang]().Localize(cfg)
			if !errors.As(err, &missing) {
				if named {
					areaOf.Store(cfg.MessageID, a)
				}
				return s, err
			}
		}
	}
	return "", err
}

// areaOf maps a message id to the area whose English catalog names it and
// holds it, once localize has found it there.
var areaOf sync.Map

// Keys returns the message ids of lang's catalogs, sorted.
func Keys(lang string) ([]string, error) {
	files, err := fs.Glob(catalogs, "messages/*."+lang+".toml")
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, name := range files {
		data, err := catalogs.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for k := range m {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys, nil
}

// Supported reports whether kurs speaks lang.
func Supported(lang string) bool {
	for _, l := range Languages {
		if l == lang {
			return true
		}
	}
	return false
}

// FromLocale returns the language of a POSIX locale such as "de_DE.UTF-8",
// or "" when kurs does not speak it.
func FromLocale(locale string) string {
	locale, _, _ = strings.Cut(locale, ".")
	locale, _, _ = strings.Cut(locale, "@")
	if locale == "" || locale == "C" || locale == "POSIX" {
		return ""
	}
	tag, err := language.Parse(strings.ReplaceAll(locale, "_", "-"))
	if err != nil {
		return ""
	}
	base, _ := tag.Base()
	if Supported(base.String()) {
		return base.String()
	}
	return ""
}

// Choose picks the language: the flag, else KURS_LANG, else the
// workspace's language, else the locale (LC_ALL, LC_MESSAGES, LANG), else
// English. getenv is os.Getenv in production.
func Choose(flag, workspace string, getenv func(string) string) string {
	for _, l := range []string{flag, getenv("KURS_LANG"), workspace} {
		if Supported(l) {
			return l
		}
	}
	// POSIX: the first of these that is set decides, even if kurs does not
	// speak its language.
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := getenv(v); s != "" {
			if l := FromLocale(s); l != "" {
				return l
			}
			return "en"
		}
	}
	return "en"
}

// area is one area's catalogs (messages/AREA.LANG.toml), parsed per
// language on first use, with English's as the fallback. They are
// embedded and never change. Parsing every catalog took most of what
// kurs help costs; a verb parses the areas it speaks from, in its
// language.
type area struct {
	// en is the English catalog's text, which names every id of the area.
	en        string
	localizer map[string]func() *goi18n.Localizer
}

// areas lists the catalogs' areas, read (not parsed) once.
var areas = sync.OnceValue(func() []*area {
	files, _ := fs.Glob(catalogs, "messages/*.en.toml")
	var out []*area
	for _, name := range files {
		data, err := catalogs.ReadFile(name)
		if err != nil {
			panic(fmt.Sprintf("i18n: catalog %s: %v", name, err)) // embedded
		}
		prefix := strings.TrimSuffix(name, "en.toml")
		a := &area{en: string(data), localizer: map[string]func() *goi18n.Localizer{}}
		for _, lang := range Languages {
			a.localizer[lang] = sync.OnceValue(func() *goi18n.Localizer {
				files := []string{prefix + "en.toml"}
				if lang != "en" {
					files = append(files, prefix+lang+".toml")
				}
				return goi18n.NewLocalizer(loadBundle(files), lang)
			})
		}
		out = append(out, a)
	}
	return out
})

// loadBundle parses the catalog files into one bundle.
func loadBundle(files []string) *goi18n.Bundle {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, name := range files {
		if _, err := b.LoadMessageFileFS(catalogs, name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			panic(fmt.Sprintf("i18n: catalog %s: %v", name, err)) // embedded; the tests catch this
		}
	}
	return b
}
