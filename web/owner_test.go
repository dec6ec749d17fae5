package web

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOwnerOnly: a request without the session cookie (another user of the
// computer, who can reach the port but did not see the address kurs serve
// printed) is refused on every page and every form, even with the token
// that every page carries; nothing it asks changes anything. The course's
// built-in assets are the same for everyone and stay public.
func TestOwnerOnly(t *testing.T) {
	ts := newTestServer(t)
	const rel = "gateway/gateway.go"
	before, err := os.ReadFile(filepath.Join(ts.dir, filepath.FromSlash(rel)))
	require.NoError(t, err)

	stranger := map[string]string{"Cookie": ""}
	withOrigin := map[string]string{"Cookie": "", "Origin": ts.url, "X-Kurs-Fragment": "1"}
	for _, path := range []string{"/", "/lesson/resilience-2/", "/lesson/resilience-2", "/exercise/gateway",
		"/exercise/gateway/files", "/exercise/gateway/result", "/exercise/gateway/solution", "/events", "/nope",
		"/exercise/gateway/save"} {
		code, body := ts.do(t, "GET", path, nil, stranger)
		assert.Equal(t, http.StatusForbidden, code, "GET %s", path)
		assert.Contains(t, body, "Open the address that kurs serve printed", "GET %s", path)
		assert.NotContains(t, body, ts.token, "GET %s", path)
		assert.NotContains(t, body, "package gateway", "GET %s", path)
	}
	code, body := ts.do(t, "GET", "/?lang=de", nil, stranger)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Contains(t, body, "Öffne in deinem Browser die Adresse, die kurs serve ausgegeben hat", "in German when asked")

	forms := map[string]url.Values{
		"check":  {},
		"hint":   {},
		"answer": {"case1": {"D"}},
		"reset":  {},
		"save":   {"file": {rel}, "content": {"package gateway\n// not mine\n"}, "base": {""}},
		"try":    {"trace": {"New()"}},
	}
	for name, form := range forms {
		form.Set(tokenField, ts.token)
		code, body := ts.do(t, "POST", "/exercise/gateway/"+name, form, withOrigin)
		assert.Equal(t, http.StatusForbidden, code, "POST %s with the page's token but no session", name)
		assert.NotContains(t, body, ts.token)
	}

	// A wrong key in the address, or the token in its place, logs no one
	// in; nor does a cookie of the right name with another value.
	for _, key := range []string{"0123456789abcdef0123456789abcdef", ts.token, ""} {
		code, _ := ts.do(t, "GET", "/?"+KeyParam+"="+key, nil, stranger)
		assert.Equal(t, http.StatusForbidden, code, "key %q", key)
	}
	code, _ = ts.do(t, "GET", "/", nil, map[string]string{"Cookie": ts.cookie.Name + "=" + ts.token})
	assert.Equal(t, http.StatusForbidden, code, "a forged cookie")

	after, err := os.ReadFile(filepath.Join(ts.dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the learner's file is untouched")
	assert.Equal(t, 0, ts.progress(t).Of("gateway").HintsSeen, "no hint was taken")
	_, err = os.Stat(filepath.Join(ts.dir, ".kurs", "backup"))
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing was reset or answered")

	for _, path := range []string{"/favicon.ico", "/assets/app.js"} {
		code, _ := ts.do(t, "GET", path, nil, stranger)
		assert.Equal(t, http.StatusOK, code, "%s is public", path)
	}

	// The owner: the same pages and forms work with the cookie, and the
	// address with the key keeps the other parts of its query.
	code, _ = ts.get(t, "/exercise/gateway/files")
	assert.Equal(t, http.StatusOK, code)
	code, _ = ts.post(t, "/exercise/gateway/hint", nil)
	assert.Equal(t, http.StatusOK, code)
	req, err := http.NewRequest("GET", ts.url+"/exercise/gateway?lang=de&"+KeyParam+"="+ts.key, nil)
	require.NoError(t, err)
	resp, err := ts.client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Equal(t, "/exercise/gateway?lang=de", resp.Header.Get("Location"))
}
