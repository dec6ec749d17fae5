// kurs web UI: live results, forms without reloading, the in-page editor,
// and the language switch that keeps the reader's place. Every page works without this script
// too; it only saves reloads.
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

  // The page's own requests name its event stream (its hello says which),
  // so that the stream does not bring rendered once more the result that
  // the request's answer brings.
  let stream = "";
  function ownHeaders() {
    const h = { "X-Kurs-Token": token(), "X-Kurs-Fragment": "1" };
    if (stream) h["X-Kurs-Stream"] = stream;
    return h;
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

  // Status next to the check button: checking, failed, dirty (edits not
  // saved yet), or else the verdict shown, in short: the result itself is
  // further down, on a phone a screen or more below the button that
  // brought it.
  //
  // A check under way (the page's save is one: its writing takes
  // milliseconds, its check the rest) shows only once it has taken longer
  // than showBusyAfter, and then stays at least keepBusyFor: a save
  // answered in 20 ms goes from "not saved" straight to its verdict, with
  // no frame drawn in between, and one of 200 ms does not flash "checking"
  // for a moment too short to read.
  const showBusyAfter = 150;
  const keepBusyFor = 400;
  let busy = 0;
  let busySince = 0;
  // A save asked for while one is under way comes after it, as the last
  // press asked, unless the first one found the file changed elsewhere:
  // then the learner decides (see save).
  let saveAgain = false;
  function status(kind) {
    clearTimeout(busy);
    // A save that waits for the one answered now is as good as under way.
    if (!kind && saveAgain) kind = "checking";
    if (kind === "checking") {
      if (busySince) return; // shown already
      busy = setTimeout(() => {
        busySince = performance.now();
        showStatus(kind);
      }, showBusyAfter);
      return;
    }
    const left = busySince + keepBusyFor - performance.now();
    if (busySince && left > 0) {
      busy = setTimeout(() => {
        busySince = 0;
        showStatus(kind);
      }, left);
      return;
    }
    busySince = 0;
    showStatus(kind);
  }
  function showStatus(kind) {
    const el = document.getElementById("status");
    if (!el) return;
    if (!kind && dirty()) kind = "dirty";
    if (!kind) {
      const v = document.getElementById("verdict");
      el.textContent = v ? v.querySelector("strong").textContent : "";
      el.className = v ? "status verdict " + v.dataset.status : "status";
      return;
    }
    el.textContent = el.dataset[kind] || "";
    el.className = "status " + kind;
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

  // showResult swaps in a result; own says that it answers the page's
  // own save, whose files are then the ones on disk.
  function showResult(html, own) {
    const seq = seqOf(html);
    if (seq !== -1 && seq < shownSeq) return; // an older result arrived late
    document.getElementById("result").innerHTML = html;
    shownSeq = seq;
    status("");
    syncMini();
    syncQuiz();
    showMarkedSteps();
    // followFiles takes the versions of the page's own save before it
    // waits for anything, so that markLine knows them.
    followFiles(own).catch(() => {});
    markLine();
  }

  // A drawing wider than the screen scrolls sideways in its box: it shows
  // its marked step (the departure, its last) at the right edge, with the
  // steps that led to it, rather than the first steps. A long trace's
  // drawing waits in "show all" until opened.
  function showMarkedSteps() {
    document.querySelectorAll(".drawing-scroll").forEach((box) => {
      const step = box.querySelector(".failing-step");
      if (!step || box.dataset.shown || box.scrollWidth <= box.clientWidth) return;
      box.dataset.shown = "1";
      const b = box.getBoundingClientRect();
      box.scrollLeft += step.getBoundingClientRect().right - b.right + 8;
    });
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

  // Each quiz case shows whether its answer is right.
  function syncQuiz() {
    const form = document.getElementById("quiz-form");
    const v = document.getElementById("verdict");
    if (!form || !v) return;
    (v.dataset.cases || "").trim().split(/\s+/).forEach((pair) => {
      const [n, mark] = pair.split("=");
      const fs = document.getElementById("case" + n);
      if (!fs) return;
      fs.className = "case " + (mark || "");
      const m = fs.querySelector(".case-mark");
      if (m) m.textContent = mark === "pass" ? form.dataset.right : mark === "fail" ? form.dataset.wrong : "";
    });
  }

  // refreshResult shows the latest result without reloading the page;
  // onlyNewer leaves the page alone unless the server has a newer one.
  async function refreshResult(onlyNewer) {
    if (!exercise) return;
    const html = await fetchFragment(`/exercise/${exercise}/result`);
    if (onlyNewer && seqOf(html) <= shownSeq) return;
    showResult(html, false);
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

  // showProblem puts a message the server sent above a target.
  // The same request failing again replaces its message.
  function showProblem(target, text) {
    target.querySelectorAll(":scope > p.problem[role=alert]").forEach((old) => old.remove());
    const p = document.createElement("p");
    p.className = "problem";
    p.setAttribute("role", "alert");
    p.textContent = text;
    target.prepend(p);
  }

  // The hints: new hints are added to the list (a live region, so that
  // only the new one is read out), the button replaced, and the focus put
  // back on the button, or on the last hint once there is no button.
  function showHints(html) {
    const box = document.getElementById("hints");
    const doc = new DOMParser().parseFromString(html, "text/html");
    const list = box.querySelector("ol.hints");
    const fresh = doc.querySelector("ol.hints");
    if (list && fresh) {
      [...fresh.children].slice(list.children.length).forEach((li) => list.append(li));
    }
    [...box.children].forEach((el) => { if (el !== list) el.remove(); });
    [...doc.body.children].forEach((el) => { if (!el.matches("ol.hints")) box.append(el); });
    const next = document.getElementById("hint-button");
    if (next) next.focus();
    else if (list && list.lastElementChild) list.lastElementChild.focus();
  }

  // post sends a form in the background as the page's own request and
  // returns the answer: its status and text.
  async function post(form) {
    const r = await fetch(form.action + "?lang=" + lang, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: ownHeaders(),
    });
    return { ok: r.ok, status: r.status, text: await r.text() };
  }

  // oneAtATime runs send for a form unless the form is under way; then it
  // sends the form once more when that answer is in, so that the last
  // press counts. The button is not disabled meanwhile (that would take
  // the keyboard focus away). after runs once send has.
  async function oneAtATime(form, send, after) {
    if (form.dataset.busy) {
      form.dataset.again = "1";
      return;
    }
    form.dataset.busy = "1";
    form.setAttribute("aria-busy", "true");
    try {
      await send();
    } finally {
      delete form.dataset.busy;
      form.removeAttribute("aria-busy");
      if (form.dataset.again) {
        delete form.dataset.again;
        form.requestSubmit();
      }
      if (after) after();
    }
  }

  // Forms post in the background and swap in the fragment they answer
  // with; without this script they post and come back to the page. A
  // second press waits for the first.
  document.addEventListener("submit", async (e) => {
    const form = e.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      e.preventDefault();
      return;
    }
    const target = form.dataset.fragment && document.querySelector(form.dataset.fragment);
    if (!target) return;
    e.preventDefault();
    const checks = form.dataset.fragment === "#result";
    await oneAtATime(form, async () => {
      if (checks) {
        status("checking");
        posting++;
      }
      try {
        const r = await post(form);
        if (!r.ok) {
          status("");
          showProblem(target, r.text);
          return;
        }
        if (checks) showResult(r.text, false);
        else if (target.id === "hints") showHints(r.text);
        else target.innerHTML = r.text;
      } catch (err) {
        status("failed");
      }
    }, () => {
      if (checks && --posting === 0 && latestSeq > shownSeq) refreshResult().catch(() => status("failed"));
    });
  });

  // A result that was never checked since the server started is checked
  // once, as if the learner had pressed the button.
  function autocheck() {
    const nc = document.querySelector("[data-autocheck]");
    const form = document.querySelector("form.check-form");
    if (nc && form && !nc.dataset.started) {
      nc.dataset.started = "1";
      // The check starts now: "not checked yet" would contradict the
      // status beside the button, which says it is being checked.
      const none = nc.querySelector(".none");
      if (none) none.hidden = true;
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

  // The in-page editor. Each of the learner's files gets one; the page
  // keeps, per file, the text and version (sum) it last loaded or saved.
  // A save sends that version along, so that the server does not
  // overwrite a file saved meanwhile in another editor.
  const files = [...document.querySelectorAll(".code .file")].map((el) => ({
    el,
    rel: el.dataset.rel,
    base: el.dataset.sum,
    text: el.querySelector("textarea.source").value,
    editor: null,
  }));
  const saveButton = document.getElementById("save-button");
  const note = document.getElementById("editor-note");
  let saving = false;

  function dirty() {
    return files.some((f) => f.editor && f.editor.value !== f.text);
  }

  // loadEditor fetches the editor (the largest file a page loads) once the
  // task, the code and the result are on the screen, then sets it up: the
  // page is readable at once, editable a moment later.
  function loadEditor() {
    const src = meta("kurs-editor");
    if (!src || files.length === 0) return;
    const start = () => {
      const s = document.createElement("script");
      s.src = src.content;
      s.onload = setupEditors;
      document.head.append(s);
    };
    // Two frames: the first paint has happened when the second begins.
    requestAnimationFrame(() => requestAnimationFrame(start));
  }

  function setupEditors() {
    if (!window.KursEditor || files.length === 0) return;
    files.forEach((f) => {
      const view = f.el.querySelector(".code-view");
      const holder = document.createElement("div");
      holder.className = "editor";
      view.hidden = true;
      view.after(holder);
      f.editor = window.KursEditor.create(holder, {
        doc: f.text,
        label: f.el.dataset.label,
        onSave: () => save(false),
        onChange: () => { if (!saving) status(""); },
      });
    });
    saveButton.hidden = false;
    saveButton.disabled = false;
    saveButton.addEventListener("click", () => save(false));
    const help = document.getElementById("editor-help");
    if (help && help.dataset.editor) help.textContent = help.dataset.editor;
    markLine();
    window.addEventListener("beforeunload", (e) => {
      if (dirty()) e.preventDefault();
    });
  }

  // note shows a message about the file above the editor, with buttons.
  function showNote(text, buttons) {
    note.textContent = text;
    (buttons || []).forEach(([label, fn]) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.addEventListener("click", () => { hideNote(); fn(); });
      note.append(document.createElement("br"), b);
    });
    note.hidden = false;
  }
  function hideNote() {
    note.hidden = true;
    note.textContent = "";
  }

  async function save(force) {
    if (files.length === 0 || !files[0].editor) return;
    if (saving) {
      saveAgain = true;
      return;
    }
    saving = true;
    posting++;
    status("checking");
    const sent = files.map((f) => f.editor.value);
    const body = new URLSearchParams();
    body.set("token", token());
    files.forEach((f, i) => {
      body.append("file", f.rel);
      body.append("content", sent[i]);
      body.append("base", f.base);
    });
    if (force) body.set("force", "1");
    try {
      const r = await fetch(`/exercise/${exercise}/save?lang=${lang}`, {
        method: "POST",
        body,
        headers: ownHeaders(),
      });
      const text = await r.text();
      if (r.status === 409) {
        saveAgain = false;
        status("");
        conflict();
        return;
      }
      if (!r.ok) {
        status("");
        showProblem(document.getElementById("result"), text);
        return;
      }
      files.forEach((f, i) => { f.text = sent[i]; });
      hideNote();
      showResult(text, true);
    } catch (err) {
      status("failed");
    } finally {
      saving = false;
      if (--posting === 0 && latestSeq > shownSeq) refreshResult().catch(() => status("failed"));
      if (saveAgain) {
        saveAgain = false;
        if (dirty()) save(false);
      }
    }
  }

  // conflict offers the two ways out when the file changed on disk and
  // the page holds edits of its own.
  function conflict() {
    showNote(note.dataset.outsideDirty, [
      [note.dataset.load, () => loadFiles(true)],
      [note.dataset.overwrite, () => save(true)],
    ]);
  }

  // loadFiles puts the files as they are on disk into the editors. Edits
  // made while the files were on their way are not dropped: the page asks
  // instead, unless the learner chose to drop them (force).
  async function loadFiles(force) {
    const r = await fetch(`/exercise/${exercise}/files?lang=${lang}`, { cache: "no-store" });
    if (!r.ok) return;
    const disk = await r.json();
    let ask = false;
    disk.forEach((d) => {
      const f = files.find((x) => x.rel === d.rel);
      if (!f || f.base === d.sum) return;
      if (!force && f.editor && f.editor.value !== f.text) {
        ask = true;
        return;
      }
      f.base = d.sum;
      f.text = d.text;
      if (f.editor && f.editor.value !== d.text) f.editor.value = d.text;
    });
    markLine();
    status("");
    if (ask) conflict();
    else if (!force) showNote(note.dataset.outside);
  }

  // followFiles compares the versions a result was checked with to the
  // page's: a save from the page updates them; a save from another editor
  // shows the saved file, or, when the page holds unsaved edits, asks.
  async function followFiles(own) {
    if (!files.length || !files[0].editor) return;
    let outside = false;
    checkedSums().forEach((sum, rel) => {
      const f = files.find((x) => x.rel === rel);
      if (!f) return;
      if (own) f.base = sum;
      else if (sum !== f.base) outside = true;
    });
    if (!outside) return;
    if (dirty()) conflict();
    else await loadFiles(false);
  }

  // checkedSums returns the versions of the files the result shown
  // checked, by path.
  function checkedSums() {
    const sums = new Map();
    document.querySelectorAll("#result .code-sums li").forEach((li) => sums.set(li.dataset.rel, li.dataset.sum));
    return sums;
  }

  // markLine marks in the editor the line the result points at, when the
  // editor shows the version of the file the result checked: the line of
  // another version (saved elsewhere, or edited here and not saved) may
  // hold other code.
  function markLine() {
    const v = document.getElementById("verdict");
    const sums = checkedSums();
    files.forEach((f) => {
      if (!f.editor) return;
      const same = sums.get(f.rel) === f.base && f.editor.value === f.text;
      const line = v && same && v.dataset.file === f.rel ? Number(v.dataset.line) : 0;
      f.editor.mark(line);
    });
  }

  // Try a trace: the server runs the typed trace on the learner's saved
  // code and on the reference and answers with the table, one try at a
  // time. The status line announces the outcome, and the focus moves to
  // it.
  function setupTry() {
    const form = document.getElementById("try-form");
    if (!form) return;
    const box = document.getElementById("try-result");
    const st = document.getElementById("try-status");
    const field = document.getElementById("try-trace");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      oneAtATime(form, async () => {
        st.className = "status";
        st.textContent = dirty() ? st.dataset.runningSaved : st.dataset.running;
        try {
          const r = await post(form);
          // 422: a mistake in the trace, shown like a result.
          if (r.ok || r.status === 422) {
            box.innerHTML = r.text;
          } else {
            box.textContent = "";
            showProblem(box, r.text);
          }
          field.setAttribute("aria-invalid", r.status === 422 ? "true" : "false");
          const first = box.querySelector("[data-focus]") || box.firstElementChild;
          // The status announces the outcome; the page shows it right below.
          st.className = "status vh";
          st.textContent = first ? first.textContent.trim().split("\n")[0] : "";
          if (first) {
            if (!first.hasAttribute("tabindex")) first.setAttribute("tabindex", "-1");
            first.focus();
          }
        } catch (err) {
          st.className = "status failed";
          st.textContent = st.dataset.failed;
        }
      });
    });
  }

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
    // On an exercise's page, its results come rendered in the events.
    const es = new EventSource(exercise ? `/events?exercise=${encodeURIComponent(exercise)}&lang=${lang}` : "/events");
    let instance = meta("kurs-instance").content;
    es.addEventListener("hello", (e) => {
      const h = JSON.parse(e.data);
      setLive(true);
      setToken(h.token);
      stream = h.stream || "";
      if (h.instance !== instance) {
        // kurs serve was restarted: its results are new, the page's old.
        instance = h.instance;
        meta("kurs-instance").content = h.instance;
        shownSeq = latestSeq = -1; // a new server counts checks from 1
        refreshResult().catch(() => {});
        refreshProgress().catch(() => {});
      } else if (posting === 0) {
        // A check that ended while the page loaded announced its result
        // before the page listened. (A check of the page's own under way,
        // the first one after a start, brings a newer result anyway.)
        refreshResult(true).catch(() => {});
      }
    });
    es.addEventListener("checking", (e) => {
      if (JSON.parse(e.data).exercise === exercise) status("checking");
    });
    es.addEventListener("failed", (e) => {
      if (JSON.parse(e.data).exercise === exercise) status("failed");
    });
    es.addEventListener("result", (e) => {
      // For bench/live: when the announcement arrived, before the result
      // is drawn.
      performance.clearMarks("kurs:result-event");
      performance.mark("kurs:result-event");
      const r = JSON.parse(e.data);
      if (r.exercise === exercise) {
        latestSeq = Math.max(latestSeq, r.seq);
        if (posting === 0 && r.seq !== shownSeq && r.html) {
          showResult(r.html, false);
          autocheck();
        } else if (posting === 0 && r.seq > shownSeq) refreshResult(true).catch(() => status("failed"));
        // A result already shown ends a "checking" all the same.
        else if (posting === 0) status("");
      }
      refreshProgress().catch(() => {});
    });
    es.onerror = () => setLive(false);
  }

  document.addEventListener("toggle", (e) => {
    if (e.target.matches("details.all-steps") && e.target.open) showMarkedSteps();
  }, true);

  document.addEventListener("DOMContentLoaded", () => {
    const v = document.getElementById("verdict");
    if (v) shownSeq = latestSeq = Number(v.dataset.seq);
    syncMini();
    showMarkedSteps();
    loadEditor();
    status("");
    setupTry();
    autocheck();
  });
})();
