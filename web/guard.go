package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The guard stands in front of every handler. The UI shows and changes the
// learner's files and runs code, so it answers only
//
//   - requests whose Host is the server's own address: a page on some
//     other site that rebinds its DNS name to 127.0.0.1 sends its own name
//     as Host and is refused (DNS rebinding);
//   - requests from the browser of the user who started the server: they
//     carry its session cookie, which a browser gets by opening the
//     address kurs serve printed, with the secret key in it (as Jupyter
//     does). Another user of the same computer can reach the port but
//     knows neither; only the course's static assets are public;
//   - for anything but GET and HEAD, requests that also carry the
//     server's per-process token and, if the browser says where they come
//     from (Origin, Sec-Fetch-Site), come from the server's own pages.
//
// The token is in every page, and only pages of the server's own origin can
// read them; a site the learner visits can make the browser send a request,
// but cannot know the token. The cookie is HttpOnly (no script reads it)
// and SameSite=Strict (no other site's request carries it).

// Names of the token in a form and in a request header.
const (
	tokenField  = "token"
	tokenHeader = "X-Kurs-Token"
)

// KeyParam names the secret key in the address that kurs serve prints.
const KeyParam = "key"

// maxForm bounds the body of a state-changing request: the largest is a
// file saved from the page's editor, at most maxSource bytes, which form
// encoding can triple.
const maxForm = 3*maxSource + 64<<10

// hosts are the Host header values a server answers to.
type hosts struct {
	port  string
	names map[string]bool
	// anyIP accepts every IP address on the port: a server bound to all
	// interfaces can be reached by any of them. IP addresses cannot be
	// rebound; only names can.
	anyIP bool
}

func newHosts(addr net.Addr) hosts {
	h := hosts{names: map[string]bool{"localhost": true, "127.0.0.1": true, "[::1]": true}}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return h
	}
	h.port = strconv.Itoa(tcp.Port)
	switch {
	case tcp.IP == nil || tcp.IP.IsUnspecified():
		h.anyIP = true
	case tcp.IP.To4() == nil:
		h.names["["+tcp.IP.String()+"]"] = true
	default:
		h.names[tcp.IP.String()] = true
	}
	return h
}

// allowed reports whether a request's Host names this server.
func (h hosts) allowed(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, "80"
	}
	if port != h.port || host == "" {
		return false
	}
	if strings.HasPrefix(hostport, "[") {
		host = "[" + host + "]"
	}
	host = strings.ToLower(host)
	if h.names[host] {
		return true
	}
	return h.anyIP && net.ParseIP(strings.Trim(host, "[]")) != nil
}

// guard applies the rules above and the response headers every page gets.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		// Scripts only from the server itself; the lessons' diagrams
		// carry a <style> of their own, hence inline styles.
		hdr.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "+
			"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("X-Frame-Options", "DENY")
		hdr.Set("Referrer-Policy", "no-referrer")
		if !s.hosts.allowed(r.Host) {
			s.refuse(w, r, http.StatusMisdirectedRequest, "web.refused.host", "Host", r.Host)
			return
		}
		read := r.Method == http.MethodGet || r.Method == http.MethodHead
		if read && public(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if read && r.URL.Query().Has(KeyParam) {
			s.login(w, r)
			return
		}
		if !s.owner(r) {
			s.refuse(w, r, http.StatusForbidden, "web.refused.owner")
			return
		}
		if read {
			next.ServeHTTP(w, r)
			return
		}
		if !sameOrigin(r) {
			s.refuse(w, r, http.StatusForbidden, "web.refused.origin", "Origin", r.Header.Get("Origin"))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if !s.validToken(r) {
			s.refuse(w, r, http.StatusForbidden, "web.refused.token")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether a request comes from the server's own pages,
// as far as the browser tells: Origin, else Sec-Fetch-Site. Clients that
// send neither (curl, scripts) are not browsers led by another site; they
// still need the token.
func sameOrigin(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		return err == nil && u.Scheme == "http" && strings.EqualFold(u.Host, r.Host) && u.Path == "" && u.User == nil
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return true
	}
	return false
}

// validToken reports whether a request carries the server's token, in the
// header or the form.
func (s *Server) validToken(r *http.Request) bool {
	t := r.Header.Get(tokenHeader)
	if t == "" {
		t = r.PostFormValue(tokenField)
	}
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

// public reports whether a path is the same for everyone: the styles,
// scripts and icons built into kurs, which hold nothing of the learner's.
// A refusal's page is plain text and needs none of them.
func public(path string) bool {
	return strings.HasPrefix(path, "/assets/") || path == "/favicon.ico"
}

// sessionCookie names the session cookie. Cookies are per host, not per
// port: each server on the computer has a name of its own.
func (s *Server) sessionCookie() string { return "kurs_session_" + s.hosts.port }

// session returns the session cookie's value: derived from the key, so a
// server restarted with the same key (kurs serve keeps it) knows the
// browsers that logged in before, and the cookie does not reveal the key.
func (s *Server) session() string {
	m := hmac.New(sha256.New, []byte(s.key))
	m.Write([]byte("kurs serve session"))
	return hex.EncodeToString(m.Sum(nil))
}

// owner reports whether a request carries the session cookie.
func (s *Server) owner(r *http.Request) bool {
	c, err := r.Cookie(s.sessionCookie())
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.session())) == 1
}

// login exchanges the key in the address for the session cookie and sends
// the browser to the same address without the key, which so stays out of
// the history and the page. A wrong key is refused like no cookie.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get(KeyParam)), []byte(s.key)) != 1 {
		s.refuse(w, r, http.StatusForbidden, "web.refused.owner")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.sessionCookie(), Value: s.session(), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode})
	q.Del(KeyParam)
	u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
	w.Header().Set("Cache-Control", "no-store")
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		// Sent here by another site, as by the page that kurs serve
		// opens (a file), a browser leaves the SameSite=Strict cookie
		// out of every request of this navigation, redirects included.
		// A page of the server's own sends it on; that request is the
		// server's own, with the cookie.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		to := html.EscapeString(u.String())
		fmt.Fprintf(w, "<!DOCTYPE html>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"refresh\" content=\"0;url=%s\">\n<title>kurs</title>\n<a href=\"%s\">kurs</a>\n", to, to)
		return
	}
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}
