module github.com/kurs-course/kurs

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/nicksnyder/go-i18n/v2 v2.7.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/text v0.44.0
)

require (
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
