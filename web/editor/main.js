// The in-page editor of kurs serve: CodeMirror 6 with Go mode. The page's
// script (app.js) creates one editor per file through window.KursEditor
// and does everything else: saving, checking, following outside saves.
import {
  EditorView, keymap, Decoration, lineNumbers, highlightActiveLineGutter, highlightSpecialChars,
  drawSelection, dropCursor, highlightActiveLine,
} from "@codemirror/view";
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import {
  indentUnit, HighlightStyle, syntaxHighlighting, indentOnInput, bracketMatching, LanguageSupport,
} from "@codemirror/language";
import { tags as t } from "@lezer/highlight";
import { history, defaultKeymap, historyKeymap, indentWithTab } from "@codemirror/commands";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { goLanguage } from "@codemirror/lang-go";

// setup is CodeMirror's basic setup without what a learner's short file
// does not need and the page would pay for on every first load: no
// completion pop-up, no search panel (the browser's own search finds the
// text), no lint, no folding, no rectangular selection. What stays:
// line numbers, undo, brackets, indentation and the highlighted line.
const setup = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightSpecialChars(),
  history(),
  drawSelection(),
  dropCursor(),
  indentOnInput(),
  bracketMatching(),
  closeBrackets(),
  highlightActiveLine(),
  keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap]),
];

// The line a result points at, marked like the page's highlighted code.
const setMark = StateEffect.define();
const markedLine = Decoration.line({ class: "cm-kurs-marked" });
const markField = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setMark)) continue;
      const n = e.value;
      marks = n > 0 && n <= tr.state.doc.lines
        ? Decoration.set([markedLine.range(tr.state.doc.line(n).from)])
        : Decoration.none;
    }
    return marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// Colours as in the page's highlighted code (GitHub's light style), dark
// enough for a contrast of at least 4.5:1 on white and on the marked
// line.
const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], color: "#a40e26" },
  { tag: [t.string, t.special(t.string), t.character], color: "#0a3069" },
  { tag: [t.comment, t.lineComment, t.blockComment], color: "#57606a", fontStyle: "italic" },
  { tag: [t.number, t.bool, t.null, t.atom], color: "#0550ae" },
  { tag: [t.typeName, t.standard(t.typeName)], color: "#8a3000" },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName))], color: "#5a32a3" },
  { tag: t.invalid, color: "#82071e", textDecoration: "underline wavy" },
]);

const theme = EditorView.theme({
  "&": { fontSize: "0.85rem", border: "1px solid var(--line, #d1d9e0)", borderRadius: "6px", backgroundColor: "#fff" },
  "&.cm-focused": { outline: "2px solid var(--accent, #1d4ed8)", outlineOffset: "1px" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', lineHeight: "1.5" },
  ".cm-kurs-marked": { backgroundColor: "#fdecec", boxShadow: "inset 4px 0 #b91c1c" },
  ".cm-gutters": { backgroundColor: "#f6f8fa", color: "#59636e" },
});

window.KursEditor = {
  // create replaces nothing: it appends an editor to parent and returns a
  // small handle. onSave runs on Ctrl-S or Cmd-S, onChange on every edit.
  create(parent, { doc, label, onSave, onChange }) {
    const view = new EditorView({
      parent,
      state: EditorState.create({
        doc,
        extensions: [
          setup,
          new LanguageSupport(goLanguage),
          syntaxHighlighting(highlight),
          indentUnit.of("\t"),
          EditorState.tabSize.of(4),
          markField,
          theme,
          keymap.of([
            { key: "Mod-s", preventDefault: true, run: () => { onSave(); return true; } },
            indentWithTab,
          ]),
          EditorView.contentAttributes.of({ "aria-label": label }),
          EditorView.updateListener.of((u) => { if (u.docChanged) onChange(); }),
        ],
      }),
    });
    return {
      get value() { return view.state.doc.toString(); },
      // Setting the text replaces only what differs (a file saved in
      // another editor): the cursor and the selection stay where the
      // learner left them, and the editor parses the changed lines again,
      // not the whole file.
      set value(text) {
        const old = view.state.doc.toString();
        const most = Math.min(old.length, text.length);
        let from = 0;
        while (from < most && old.charCodeAt(from) === text.charCodeAt(from)) from++;
        let same = 0;
        while (same < most - from && old.charCodeAt(old.length - 1 - same) === text.charCodeAt(text.length - 1 - same)) same++;
        if (from === old.length && from === text.length) return;
        view.dispatch({ changes: { from, to: old.length - same, insert: text.slice(from, text.length - same) } });
      },
      focus() { view.focus(); },
      // mark marks line n (1-based) and scrolls the editor, not the page,
      // to it; 0 clears. A result arrives while the learner reads the
      // task: EditorView.scrollIntoView would move the whole page to the
      // editor (on a phone, past the task).
      mark(n) {
        view.dispatch({ effects: setMark.of(n) });
        if (n < 1 || n > view.state.doc.lines) return;
        const pos = view.state.doc.line(n).from;
        view.requestMeasure({
          read: () => view.lineBlockAt(pos).top - view.scrollDOM.clientHeight / 2,
          write: (top) => { view.scrollDOM.scrollTop = Math.max(0, top); },
        });
      },
      // goto puts the cursor on line n and focuses the editor.
      goto(n) {
        if (n < 1 || n > view.state.doc.lines) return;
        const pos = view.state.doc.line(n).from;
        view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
        view.focus();
      },
    };
  },
};
