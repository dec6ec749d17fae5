// Package i18n holds kurs's message catalogs (German and English) and picks
// the language a user reads.
//
// Course texts (lessons, hints) live with the course, not here.
package i18n

import (
	"embed"
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
	// loc is made on the first message: a verb that prints nothing, or
	// settles on another language first, parses no catalog.
	loc func() *goi18n.Localizer
}

// New returns a Printer for lang ("de" or "en"; anything else means "en").
func New(lang string) *Printer {
	if !Supported(lang) {
		lang = "en"
	}
	return &Printer{lang: lang, loc: sync.OnceValue(func() *goi18n.Localizer { return goi18n.NewLocalizer(bundle(lang), lang) })}
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
	s, err := p.loc().Localize(cfg)
	if err != nil {
		return "[" + id + "]"
	}
	return s
}

// Has reports whether the catalog of lang has a message id.
func Has(lang, id string) bool {
	_, err := goi18n.NewLocalizer(bundle(lang), lang).Localize(&goi18n.LocalizeConfig{MessageID: id, DefaultMessage: nil})
	return err == nil
}

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

// bundle returns the catalogs of lang, with English's as the fallback,
// loaded once on first use: they are embedded and never change, and
// parsing them is most of what starting kurs costs, so only the language
// in use is parsed.
func bundle(lang string) *goi18n.Bundle {
	if load, ok := bundles[lang]; ok {
		return load()
	}
	return bundles["en"]()
}

// bundles holds a loader per language.
var bundles = func() map[string]func() *goi18n.Bundle {
	m := map[string]func() *goi18n.Bundle{}
	for _, lang := range Languages {
		langs := []string{"en"}
		if lang != "en" {
			langs = append(langs, lang)
		}
		m[lang] = sync.OnceValue(func() *goi18n.Bundle { return loadBundle(langs...) })
	}
	return m
}()

func loadBundle(langs ...string) *goi18n.Bundle {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, lang := range langs {
		files, _ := fs.Glob(catalogs, "messages/*."+lang+".toml")
		for _, name := range files {
			if _, err := b.LoadMessageFileFS(catalogs, name); err != nil {
				panic(fmt.Sprintf("i18n: catalog %s: %v", name, err)) // embedded; the tests catch this
			}
		}
	}
	return b
}
