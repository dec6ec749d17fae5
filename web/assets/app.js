// kurs web UI: live results, forms without reloading, the language switch
// that keeps the reader's place, and mermaid diagrams. Every page works
// without this script too; it only saves reloads.
"use strict";

(function () {
  const meta = (name) => document.querySelector(`meta[name="${name}"]`);
  const exercise = document.body.dataset.exercise || "";
  const lang = document.documentElement.lang;

  // The token authorizes forms; a restarted server has a new one, which
  // the event stream's hello brings.
  function token() {
    return meta("kurs-token").content;
  }
  function setToken(t) {
    meta("kurs-token").content = t;
    document.querySelectorAll('input[name="token"]').forEach((i) => { i.value = t; });
  }

  // The language switch goes to the same section in the other language:
  // both languages number their headings the same way (s1, s2, …).
  function currentSection() {
    const header = document.querySelector("header.top");
    const top = (header ? header.getBoundingClientRect().bottom : 0) + 40;
    let id = "";
    document.querySelectorAll("h1[id], h2[id], h3[id], h4[id]").forEach((h) => {
      if (h.getBoundingClientRect().top <= top) id = h.id;
    });
    return id;
  }
  const sw = document.getElementById("lang-switch");
  if (sw) {
    sw.addEventListener("click", () => {
      const id = currentSection();
      const url = new URL(sw.href, location.href);
      url.hash = id && window.scrollY > 0 ? id : "";
      sw.href = url.toString();
    });
  }

  // Status next to the check button.
  function status(kind) {
    const el = document.getElementById("status");
    if (!el) return;
    el.textContent = kind ? el.dataset[kind] || "" : "";
    el.className = "status " + (kind || "");
  }

  async function fetchFragment(url) {
    const r = await fetch(url + (url.includes("?") ? "&" : "?") + "lang=" + lang, {
      headers: { "X-Kurs-Fragment": "1" },
      cache: "no-store",
    });
    if (!r.ok) throw new Error(await r.text());
    return r.text();
  }

  // The result shown, and the newest the server announced, by the number
  // of the check (seq). A form that checks brings its own result: while it
  // is under way, announcements wait, so that its answer (with its notice)
  // is not replaced by the same result fetched again.
  let shownSeq = -1;
  let latestSeq = -1;
  let posting = 0;

  function seqOf(html) {
    const m = /data-seq="(\d+)"/.exec(html);
    return m ? Number(m[1]) : -1;
  }

  function showResult(html) {
    const seq = seqOf(html);
    if (seq !== -1 && seq < shownSeq) return; // an older result arrived late
    document.getElementById("result").innerHTML = html;
    shownSeq = seq;
    status("");
    syncMini();
  }

  // The verdict also stands at the top of the page, for a learner who is
  // reading the task while saving.
  function syncMini() {
    const mini = document.getElementById("mini-status");
    const v = document.getElementById("verdict");
    if (!mini) return;
    mini.hidden = !v;
    if (!v) return;
    mini.textContent = v.querySelector("strong").textContent;
    mini.className = "mini " + v.dataset.status;
  }

  // refreshResult shows the latest result without reloading the page.
  async function refreshResult() {
    if (!exercise) return;
    showResult(await fetchFragment(`/exercise/${exercise}/result`));
    autocheck();
  }

  // The overview's progress follows results too.
  async function refreshProgress() {
    const box = document.getElementById("progress");
    if (!box) return;
    const html = await fetchFragment("/");
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("progress");
    if (fresh) box.replaceWith(fresh);
  }

  // Forms post in the background and swap in the fragment they answer
  // with; without this script they post and come back to the page.
  document.addEventListener("submit", async (e) => {
    const form = e.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      e.preventDefault();
      return;
    }
    const target = form.dataset.fragment && document.querySelector(form.dataset.fragment);
    if (!target) return;
    e.preventDefault();
    const button = form.querySelector('button[type="submit"]');
    const checks = form.dataset.fragment === "#result";
    if (button) button.disabled = true;
    if (checks) {
      status("checking");
      posting++;
    }
    try {
      const r = await fetch(form.action + "?lang=" + lang, {
        method: "POST",
        body: new URLSearchParams(new FormData(form)),
        headers: { "X-Kurs-Token": token(), "X-Kurs-Fragment": "1" },
      });
      const text = await r.text();
      if (!r.ok) {
        status("");
        target.insertAdjacentHTML("afterbegin", '<p class="problem"></p>');
        target.firstElementChild.textContent = text;
        return;
      }
      if (checks) showResult(text);
      else target.innerHTML = text;
    } catch (err) {
      status("failed");
    } finally {
      if (button) button.disabled = false;
      if (checks && --posting === 0 && latestSeq > shownSeq) refreshResult().catch(() => status("failed"));
    }
  });

  // A result that was never checked since the server started is checked
  // once, as if the learner had pressed the button.
  function autocheck() {
    const nc = document.querySelector("[data-autocheck]");
    const form = document.querySelector("form.check-form");
    if (nc && form && !nc.dataset.started) {
      nc.dataset.started = "1";
      form.requestSubmit();
    }
  }

  // Copy a file's path, to open it in an editor.
  document.addEventListener("click", async (e) => {
    const b = e.target.closest("button[data-copy]");
    if (!b) return;
    try {
      await navigator.clipboard.writeText(b.dataset.copy);
      b.textContent = b.dataset.done;
    } catch (err) {
      const range = document.createRange();
      range.selectNodeContents(b.previousElementSibling);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    }
  });

  // Live results: the server says when a check starts and ends. The
  // browser reconnects by itself when the stream breaks (retry: 1000).
  const live = document.getElementById("live");
  function setLive(ok) {
    if (!live) return;
    live.hidden = false;
    live.textContent = ok ? live.dataset.ok : live.dataset.off;
    live.className = "live " + (ok ? "on" : "off");
  }
  if (window.EventSource) {
    const es = new EventSource("/events");
    let instance = meta("kurs-instance").content;
    es.addEventListener("hello", (e) => {
      const h = JSON.parse(e.data);
      setLive(true);
      setToken(h.token);
      if (h.instance !== instance) {
        // kurs serve was restarted: its results are new, the page's old.
        instance = h.instance;
        meta("kurs-instance").content = h.instance;
        shownSeq = latestSeq = -1; // a new server counts checks from 1
        refreshResult().catch(() => {});
        refreshProgress().catch(() => {});
      }
    });
    es.addEventListener("checking", (e) => {
      if (JSON.parse(e.data).exercise === exercise) status("checking");
    });
    es.addEventListener("failed", (e) => {
      if (JSON.parse(e.data).exercise === exercise) status("failed");
    });
    es.addEventListener("result", (e) => {
      const r = JSON.parse(e.data);
      if (r.exercise === exercise) {
        latestSeq = r.seq;
        if (posting === 0 && r.seq !== shownSeq) refreshResult().catch(() => status("failed"));
      }
      refreshProgress().catch(() => {});
    });
    es.onerror = () => setLive(false);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const v = document.getElementById("verdict");
    if (v) shownSeq = latestSeq = Number(v.dataset.seq);
    syncMini();
    autocheck();
    if (window.mermaid) {
      window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "neutral" });
      window.mermaid.run({ querySelector: "pre.mermaid" });
    }
  });
})();
