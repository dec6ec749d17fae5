package web_test

import (
	"os"
	"testing"

	"github.com/kurs-course/kurs/internal/browsertest"
)

// TestMain runs the tests with one Chromium for all browser tests, ended
// after the last (browsertest.Main).
func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
