package web_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/build"
)

// TestOtherUserIsRefused runs kurs serve as the learner (root here) and
// tries it as another user of the same computer (uid 65534) would: every
// page and form is refused with 403, even with the token that every page
// carries, and the key of the address cannot be read from the learner's
// cache. The learner's own client, logged in at the printed address, is
// answered.
func TestOtherUserIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("acting as another user (uid 65534) needs root")
	}
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl plays the other user's client")
	}
	dir := newWorkspace(t, "en")
	require.NoError(t, os.Chmod(dir, 0o700))
	file := filepath.Join(dir, "gateway", "gateway.go")
	before, err := os.ReadFile(file)
	require.NoError(t, err)
	srv := serve(t, dir, "127.0.0.1:0")

	// The owner, from the printed address.
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	owner := &http.Client{Jar: jar}
	resp, err := owner.Get(srv.login)
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	m := regexp.MustCompile(`name="kurs-token" content="([0-9a-f]+)"`).FindSubmatch(page)
	require.NotNil(t, m, "the owner's page carries the token")
	token := string(m[1])

	other := func(args ...string) (string, error) {
		cmd := exec.Command(curl, append([]string{"-sS", "-m", "20", "-w", "\n%{http_code}"}, args...)...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		cmd.Dir = "/"
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, path := range []string{"/", "/exercise/gateway", "/exercise/gateway/files", "/exercise/gateway/result", "/events"} {
		out, err := other(srv.url + path)
		require.NoError(t, err, out)
		assert.True(t, strings.HasSuffix(out, "\n403"), "GET %s as another user: %s", path, out)
		assert.NotContains(t, out, token, "GET %s", path)
		assert.NotContains(t, out, "package gateway", "GET %s", path)
	}
	for _, form := range []string{"hint", "check", "reset", "save"} {
		out, err := other("-X", "POST", "-H", "Origin: "+srv.url, "-H", "X-Kurs-Token: "+token,
			"--data-urlencode", "file=gateway/gateway.go", "--data-urlencode", "content=package gateway // not mine",
			"--data-urlencode", "base=", srv.url+"/exercise/gateway/"+form)
		require.NoError(t, err, out)
		assert.True(t, strings.HasSuffix(out, "\n403"), "POST %s as another user, with the page's token: %s", form, out)
	}
	after, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the learner's file is untouched")

	// The key is in the learner's cache, which the other user cannot read.
	cache, _ := build.DefaultDir()
	cat := exec.Command("cat", filepath.Join(cache, "serve-key"))
	cat.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cat.CombinedOutput()
	assert.Error(t, err, "another user reads the key: %s", out)
	assert.NotContains(t, srv.login, string(out))

	// And the owner is still answered.
	resp, err = owner.Get(srv.url + "/exercise/gateway/files")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
