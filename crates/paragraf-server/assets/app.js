// Paragraf web page: asks /v1/answer (SSE over fetch) and shows the answer
// first — the review banner in plain words, the primary norm (or none), the
// gated sentences as they stream, the quoted provisions with their official
// links — and everything else (assessment figures, hits with score bars,
// controls, timings) in a collapsed "Details". Every [n] links to its quote
// and opens the norm panel (/v1/norms/{id}). The page speaks the question's
// language (the response's `lang`): German or English.
"use strict";

const $ = (sel) => document.querySelector(sel);

// ------------------------------------------------------------ language

const TEXT = {
  de: {
    tagline: "Deutsches und europäisches Compliance-Recht: Antwort mit geprüften Zitaten, Primärnorm, Kontrollen.",
    connecting: "Verbinde …", ready: "bereit", loading: "lädt Modelle …", unreachable: "Server nicht erreichbar",
    yourQuestion: "Ihre Frage", placeholder: "z. B. Ab wie vielen Beschäftigten brauchen wir einen Datenschutzbeauftragten?",
    enterHint: "Enter sendet · Umschalt+Enter für eine neue Zeile",
    ask: "Antwort erzeugen", searchOnly: "Nur suchen", options: "Optionen", regulation: "Regelwerk", all: "alle",
    language: "Sprache", german: "Deutsch", english: "Englisch", hits: "Treffer", apiKey: "API-Schlüssel",
    apiKeyHint: "nur nötig, wenn der Server einen verlangt",
    primaryNorm: "Primärnorm", answer: "Antwort", quotes: "Belegstellen im Wortlaut", removed: "Vom Zitat-Prüfer entfernt",
    details: "Details: Bewertung, Treffer, Kennzahlen, Zeiten", assessment: "Bewertung",
    margin: "Vorsprung der Primärnorm vor der nächsten Norm", crossRegime: "Mehrere Rechtsgebiete", connected: "Verbundene Normen",
    checkedCitations: "Geprüfte Zitate", controls: "Kontrollen und Nachweise", results: "Treffer und Score-Aufschlüsselung",
    barsLegend: "Balken: Beitrag jedes Faktors zum Score —", positive: "positiv", penalty: "Abzug",
    normText: "Normtext", close: "Schließen", metrics: "Metriken",
    footer: "Keine Rechtsberatung. Antworten nennen nur Normen, die im Index gefunden und vom Zitat-Prüfer bestätigt wurden.",
    noNorm: "keine einschlägige Norm im Korpus", noAnswerNorm: "keine belegte Antwort",
    closeBehind: "knapp dahinter:", checkBoth: "beide prüfen",
    working: (s) => `Antwort wird erzeugt und geprüft … ${s}\u00a0s`, searching: (s) => `sucht … ${s}\u00a0s`,
    reviewNeeded: "Bitte von einer fachkundigen Person prüfen lassen", noReview: "Eindeutiges Ergebnis – keine Prüfung angezeigt",
    abstainRetrieval: "Keine belastbare Antwort: Der Korpus enthält keine Norm, die diese Frage trägt. Bitte durch eine fachkundige Person prüfen lassen.",
    abstainModel: "Keine belastbare Antwort: Keine Aussage ließ sich durch die gefundenen Normen belegen. Die Treffer stehen unter „Details“.",
    extractive: "Wortlaut der Belegstellen, ohne Umformulierung durch ein Modell.",
    quoteOpen: "Normtext mit dieser Stelle öffnen", openNorm: "Normtext öffnen", official: "amtliche Fassung",
    officialTitle: "Amtliche Fassung dieser Vorschrift öffnen (neuer Tab)",
    blank: "Bitte eine Frage eingeben.", tooLong: (n, max) => `Die Frage ist ${fmtInt(n)} Zeichen lang; höchstens ${fmtInt(max)} sind erlaubt – bitte kürzen.`,
    chars: (n, max) => `${fmtInt(n)} / ${fmtInt(max)}`,
    yes: "ja", no: "nein", none: "keine", model: (m, n) => `Modell ${m}, ${n} Tokens`, timings: "Zeiten",
    retry: (s) => ` – bitte in ${s} s erneut versuchen`, failed: "Verbindung fehlgeschlagen: ", aborted: "Antwort abgebrochen: ",
    field: "Feld", generationStopped: "Generierung unterbrochen: ", loadingNorm: "Lade Normtext …", normFailed: "Normtext konnte nicht geladen werden: ",
    classL: "Quellenklasse", role: "Rolle", jurisdiction: "Jurisdiktion", status: "Status", valid: "Gültig", today: "heute",
    replacedBy: "Ersetzt durch", lang: "Sprache", refsOut: "Verweist auf", refsIn: "Zitiert von", variants: "Andere Sprachfassungen",
    parts: "Abschnitte", retention: "Aufbewahrung", scoreTitle: (raw) => `Score nach Rerank (roh: ${raw})`,
    constant: "Konstante", breakdown: "Score-Aufschlüsselung", replaced: "ersetzt durch ", full: "vollständig", partial: "teilweise",
    evidence: "Nachweise", chunks: "Abschnitte im Index", answerModel: "Antwortmodell",
  },
  en: {
    tagline: "German and European compliance law: an answer with checked citations, the primary norm, controls.",
    connecting: "Connecting …", ready: "ready", loading: "loading models …", unreachable: "server unreachable",
    yourQuestion: "Your question", placeholder: "e.g. From how many employees on do we need a data protection officer?",
    enterHint: "Enter sends · Shift+Enter for a new line",
    ask: "Get answer", searchOnly: "Search only", options: "Options", regulation: "Regulation", all: "all",
    language: "Language", german: "German", english: "English", hits: "Results", apiKey: "API key",
    apiKeyHint: "only needed when the server requires one",
    primaryNorm: "Primary norm", answer: "Answer", quotes: "The provisions, word for word", removed: "Removed by the citation check",
    details: "Details: assessment, results, figures, timings", assessment: "Assessment",
    margin: "Lead of the primary norm over the next norm", crossRegime: "Several areas of law", connected: "Connected norms",
    checkedCitations: "Checked citations", controls: "Controls and evidence", results: "Results and score breakdown",
    barsLegend: "Bars: what each factor adds to the score —", positive: "plus", penalty: "penalty",
    normText: "Norm text", close: "Close", metrics: "Metrics",
    footer: "Not legal advice. Answers name only norms found in the index and confirmed by the citation check.",
    noNorm: "no applicable norm in the corpus", noAnswerNorm: "no supported answer",
    closeBehind: "close behind:", checkBoth: "check both",
    working: (s) => `Writing and checking the answer … ${s}\u00a0s`, searching: (s) => `searching … ${s}\u00a0s`,
    reviewNeeded: "Please have this checked by a qualified person", noReview: "Clear result – no review indicated",
    abstainRetrieval: "No reliable answer: the corpus holds no norm that answers this question. Please have it checked by a qualified person.",
    abstainModel: "No reliable answer: no statement could be backed by the norms found. The results are under “Details”.",
    extractive: "The provisions' own words, not reworded by a model.",
    quoteOpen: "Open the norm at this passage", openNorm: "Open the norm text", official: "official text",
    officialTitle: "Open the official text of this provision (new tab)",
    blank: "Please enter a question.", tooLong: (n, max) => `The question is ${fmtInt(n)} characters long; at most ${fmtInt(max)} are allowed – please shorten it.`,
    chars: (n, max) => `${fmtInt(n)} / ${fmtInt(max)}`,
    yes: "yes", no: "no", none: "none", model: (m, n) => `model ${m}, ${n} tokens`, timings: "Timings",
    retry: (s) => ` – please try again in ${s} s`, failed: "Connection failed: ", aborted: "Answer stopped: ",
    field: "field", generationStopped: "Generation stopped: ", loadingNorm: "Loading the norm text …", normFailed: "Could not load the norm text: ",
    classL: "Source class", role: "Role", jurisdiction: "Jurisdiction", status: "Status", valid: "Valid", today: "today",
    replacedBy: "Replaced by", lang: "Language", refsOut: "Refers to", refsIn: "Cited by", variants: "Other languages",
    parts: "Parts", retention: "Retention", scoreTitle: (raw) => `Score after rerank (raw: ${raw})`,
    constant: "constant", breakdown: "Score breakdown", replaced: "replaced by ", full: "full", partial: "partial",
    evidence: "Evidence", chunks: "parts in the index", answerModel: "answer model",
  },
};

const LABELS = {
  de: {
    klasse: { binding_law: "verbindliches Recht", recital: "Erwägungsgrund", official_guidance: "behördliche Leitlinie", control_standard: "Kontrollstandard", mapping: "Mapping", unknown: "unbekannt" },
    rolle: { obligation: "Pflicht", definition: "Definition", scope: "Anwendungsbereich", interpretation: "Auslegung", sanction: "Sanktion", operational_requirement: "operative Anforderung", procedural_requirement: "Verfahrensanforderung", control_standard: "Kontrollstandard", implementation_guidance: "Umsetzungshinweis" },
    status: { in_force: "in Kraft", superseded: "außer Kraft" },
    term: { rawSemantic: "Textähnlichkeit", authorityCoef: "Autorität der Quelle", jurisdictionGain: "passende Jurisdiktion", foreignPenalty: "Fremdrecht", unknownPenalty: "unklassifizierte Quelle", domainMatchGain: "passendes Rechtsgebiet", offDomainPenalty: "fachfremd", scopePenalty: "außerhalb des Anwendungsbereichs", topicGain: "Thema der Frage", citationGain: "oft zitierte Norm", supersededPenalty: "abgelöste Fassung", intentLiftGain: "Auslegungsfrage", controlPoolGain: "Umsetzungsfrage", controlRoleBonus: "Kontrollrolle", ensureControlDiversity: "Kontrollvielfalt", answerTypeGain: "nennt das Gefragte", dutyHeadingGain: "als Pflicht überschrieben", titleMatch: "Treffer im Titel", nonBindingPenalty: "nicht verbindlich", headingGain: "Treffer in der Überschrift" },
    stufe: { analyze: "Analyse", embed: "Einbettung", dense: "Vektorsuche", lexical: "Volltext", fusion: "Fusion", candidates: "Kandidaten", rank: "Ranking", assess: "Bewertung", generate: "Antwort", extract: "Auszug", total: "gesamt" },
  },
  en: {
    klasse: { binding_law: "binding law", recital: "recital", official_guidance: "official guidance", control_standard: "control standard", mapping: "mapping", unknown: "unknown" },
    rolle: { obligation: "obligation", definition: "definition", scope: "scope", interpretation: "interpretation", sanction: "sanction", operational_requirement: "operational requirement", procedural_requirement: "procedural requirement", control_standard: "control standard", implementation_guidance: "implementation guidance" },
    status: { in_force: "in force", superseded: "superseded" },
    term: { rawSemantic: "text similarity", authorityCoef: "authority of the source", jurisdictionGain: "matching jurisdiction", foreignPenalty: "foreign law", unknownPenalty: "unclassified source", domainMatchGain: "matching area of law", offDomainPenalty: "off-topic area", scopePenalty: "out of scope", topicGain: "topic of the question", citationGain: "often cited", supersededPenalty: "superseded version", intentLiftGain: "interpretation question", controlPoolGain: "implementation question", controlRoleBonus: "control role", ensureControlDiversity: "control variety", answerTypeGain: "states what is asked", dutyHeadingGain: "headed as a duty", titleMatch: "match in the title", nonBindingPenalty: "not binding", headingGain: "match in a heading" },
    stufe: { analyze: "analysis", embed: "embedding", dense: "vector search", lexical: "full text", fusion: "fusion", candidates: "candidates", rank: "ranking", assess: "assessment", generate: "answer", extract: "extract", total: "total" },
  },
};

let lang = "de";
const t = (key) => TEXT[lang][key];
const label = (kind, key) => (LABELS[lang][kind] || {})[key] || key;

function fmtInt(n) { return n.toLocaleString(lang === "en" ? "en-GB" : "de-DE"); }
function num(x, d = 3) {
  return typeof x === "number"
    ? x.toLocaleString(lang === "en" ? "en-GB" : "de-DE", { minimumFractionDigits: d, maximumFractionDigits: d })
    : "–";
}

// Put the static texts of the page in `l` (elements with data-t*).
function setLang(l) {
  lang = l === "en" ? "en" : "de";
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach((e) => { const v = t(e.dataset.t); if (typeof v === "string") e.textContent = v; });
  document.querySelectorAll("[data-t-placeholder]").forEach((e) => { e.placeholder = t(e.dataset.tPlaceholder); });
  document.querySelectorAll("[data-t-aria]").forEach((e) => { e.setAttribute("aria-label", t(e.dataset.tAria)); });
  updateCounter();
}

// A guess from the words of a question, used until the server says (`lang`).
function guessLang(q) {
  const words = q.toLowerCase().split(/[^a-zäöüß]+/);
  const en = ["the", "does", "do", "is", "are", "what", "which", "when", "must", "have", "has", "our", "we", "to", "of", "for", "how", "who"];
  const de = ["der", "die", "das", "ist", "sind", "muss", "müssen", "wann", "wer", "wie", "was", "welche", "unsere", "unser", "wir", "ein", "eine", "einen", "zu", "für", "von", "mit", "ab"];
  const count = (list) => words.filter((w) => list.includes(w)).length;
  return count(en) > count(de) ? "en" : "de";
}

// The assessment found no applicable norm (retrieval abstains): no primary
// norm, or a review code saying nothing relevant was found. The reasons
// themselves come from the engine as plain sentences in the question's
// language (the page's); their codes are for logic like this.
const NOTHING_RELEVANT = ["no_results", "weak_match", "outside_corpus"];
function noApplicableNorm(a) {
  return !a.primary_norm || (a.human_review_codes || []).some((c) => NOTHING_RELEVANT.includes(c));
}

// ------------------------------------------------------------ helpers

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

function headers(extra) {
  const h = Object.assign({ "Content-Type": "application/json" }, extra || {});
  const key = $("#apikey").value.trim();
  if (key) h["Authorization"] = "Bearer " + key;
  return h;
}

async function errorText(res) {
  try {
    const body = await res.json();
    const e = body.error || {};
    return (e.message || res.statusText) + (e.field ? ` (${t("field")}: ${e.field})` : "");
  } catch (_) {
    return `HTTP ${res.status}`;
  }
}

function showError(msg) {
  const f = $("#fehler");
  f.textContent = msg;
  f.hidden = !msg;
}

// A link that opens a norm (chunk id or norm reference) in the panel; the
// text is the norm reference, never an internal id.
function normLink(ref, cls, text, quote) {
  return el("a", {
    class: cls || "chip", href: "#norm=" + encodeURIComponent(ref), "data-norm": ref, title: t("openNorm"),
    onclick: (ev) => { ev.preventDefault(); openNorm(ref, quote); },
  }, text || ref);
}

function officialLink(url, text) {
  return el("a", { class: "amtlich", href: url, target: "_blank", rel: "noopener", title: t("officialTitle") }, (text || t("official")) + " ↗");
}

// ------------------------------------------------------------ input

let maxChars = 2000;

function updateCounter() {
  const n = [...$("#frage").value].length;
  const c = $("#zeichen");
  c.textContent = t("chars")(n, maxChars);
  c.classList.toggle("zu-lang", n > maxChars);
  c.classList.toggle("fast", n <= maxChars && n > maxChars * 0.9);
  const err = $("#eingabe-fehler");
  if (n > maxChars) {
    err.textContent = t("tooLong")(n, maxChars);
    err.hidden = false;
    err.dataset.kind = "long";
  } else if (err.dataset.kind === "long" || (err.dataset.kind === "blank" && n > 0)) {
    err.hidden = true;
    err.dataset.kind = "";
  }
}

// The question, or null with the reason shown under the field.
function validQuestion() {
  const raw = $("#frage").value;
  const err = $("#eingabe-fehler");
  if (!raw.trim()) { err.textContent = t("blank"); err.hidden = false; err.dataset.kind = "blank"; $("#frage").focus(); return null; }
  const n = [...raw].length;
  if (n > maxChars) { err.textContent = t("tooLong")(n, maxChars); err.hidden = false; return null; }
  err.hidden = true;
  return raw.trim();
}

// ------------------------------------------------------------ asking

let busy = false;
let clock = null;

function startClock(kind) {
  const t0 = performance.now();
  const tick = () => {
    const s = Math.floor((performance.now() - t0) / 1000);
    $("#laeuft").textContent = kind === "answer" ? t("working")(s) : t("searching")(s);
    const w = $("#antwort .warten");
    if (w) w.textContent = t("working")(s);
    // once the answer card shows its own progress line, the one under the field goes
    $("#laeuft").hidden = !!w || !busy;
  };
  tick();
  clock = setInterval(tick, 250);
}

function stopClock() { if (clock) clearInterval(clock); clock = null; }

async function ask(mode) {
  if (busy) return;
  const query = validQuestion();
  if (!query) return;
  busy = true;
  setLang(guessLang(query));
  setBusy(true);
  showError("");
  $("#antwort-karte").hidden = true;
  const topK = parseInt($("#topk").value, 10);
  startClock(mode);
  try {
    const filters = currentFilters();
    if (mode === "search") {
      const res = await fetch("/v1/search", { method: "POST", headers: headers(), body: JSON.stringify({ query, top_k: topK, explain: true, filters }) });
      if (!res.ok) { showError(await errorText(res)); return; }
      const resp = await res.json();
      if (resp.lang) setLang(resp.lang);
      renderResultsFirst(resp, false);
    } else {
      await streamAnswer(query, topK, filters);
    }
  } catch (err) {
    showError(t("failed") + err.message);
  } finally {
    stopClock();
    busy = false;
    setBusy(false);
    $("#antwort").classList.remove("stroemt");
    $("#antwort .warten") && $("#antwort .warten").remove();
  }
}

function setBusy(on) {
  $("#fragen").disabled = on;
  $("#suchen").disabled = on;
  $("#laeuft").hidden = !on;
}

// The regulation and language chosen under "Options" (null: none).
function currentFilters() {
  const reg = $("#regelwerk").value;
  const l = $("#sprache").value;
  if (!reg && !l) return null;
  return { regulations: reg ? [reg] : [], lang: l || null };
}

async function streamAnswer(query, topK, filters) {
  const res = await fetch("/v1/answer", {
    method: "POST", headers: headers({ Accept: "text/event-stream" }), body: JSON.stringify({ query, top_k: topK, filters }),
  });
  if (!res.ok) {
    let msg = await errorText(res);
    const retry = res.headers.get("Retry-After");
    if (retry) msg += t("retry")(retry);
    showError(msg);
    return;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  let done = false;
  while (!done) {
    const chunk = await reader.read();
    if (chunk.done) break;
    buf += decoder.decode(chunk.value, { stream: true });
    let cut;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (!data.length) continue;
      const payload = JSON.parse(data.join("\n"));
      if (event === "results") {
        if (payload.lang) setLang(payload.lang);
        renderResultsFirst(payload, true);
      } else if (event === "sentence") {
        appendSentence(payload.text);
      } else if (event === "final") {
        renderFinal(payload);
        done = true;
      } else if (event === "error") {
        const e = payload.error || {};
        showError(t("aborted") + (e.message || "") + (e.field ? ` (${t("field")}: ${e.field})` : ""));
        done = true;
      }
    }
  }
}

// ------------------------------------------------------------ the answer card

// Results arrived: banner, primary norm, details; the answer is on its way.
function renderResultsFirst(resp, answering) {
  $("#antwort-karte").hidden = false;
  const a = resp.assessment || {};
  renderBanner(a);
  renderPrimary(a, null);
  const out = $("#antwort");
  clear(out);
  $("#belege").hidden = true;
  $("#entfernt-block").hidden = true;
  if (answering) {
    out.classList.add("stroemt");
    out.append(el("p", { class: "gedimmt warten" }, t("working")(0)));
    // the card shows the progress now; the line under the field goes at once
    $("#laeuft").hidden = true;
  } else {
    out.classList.remove("stroemt");
  }
  renderDetails(resp);
}

function renderBanner(a, answer) {
  const pr = $("#pruefung");
  clear(pr);
  const abstained = answer && answer.abstained;
  if (a.human_review_flag || abstained) {
    pr.className = "pruefung ja";
    const reasons = [...new Set(a.human_review_reasons || [])];
    pr.append(el("strong", {}, "⚠ " + t("reviewNeeded")),
      reasons.length ? el("ul", {}, reasons.map((r) => el("li", {}, r))) : null);
  } else {
    pr.className = "pruefung nein";
    pr.append("✓ " + t("noReview"));
  }
  pr.hidden = false;
}

function renderPrimary(a, answer) {
  const p = $("#primaernorm");
  clear(p);
  const second = $("#zweitnorm");
  clear(second);
  const retrievalAbstains = noApplicableNorm(a) || (answer && answer.abstained && ["no_results", "no_binding_source", "not_relevant"].includes(answer.abstain_reason));
  const karte = $("#antwort-karte");
  karte.classList.toggle("ohne-norm", !!(retrievalAbstains || (answer && answer.abstained)));
  if (retrievalAbstains) {
    p.append(el("span", { class: "keine-norm" }, t("noNorm")));
    second.hidden = true;
    return;
  }
  if (answer && answer.abstained) {
    p.append(el("span", { class: "keine-norm" }, t("noAnswerNorm")));
    second.hidden = true;
    return;
  }
  p.append(normLink(a.primary_norm, "primaer-link"));
  if (a.runner_up) {
    second.append(t("closeBehind") + " ", normLink(a.runner_up, "primaer-link zweit"), " – " + t("checkBoth"));
    second.hidden = false;
  } else {
    second.hidden = true;
  }
}

// One line of answer text with its [n] markers and named norms linked.
function linkedLine(text, citations) {
  const frag = document.createDocumentFragment();
  const names = [...(citations || [])].sort((x, y) => y.length - x.length);
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const parts = ["\\[(\\d+)\\]"].concat(names.map(esc));
  const re = new RegExp(parts.join("|"), "g");
  let at = 0;
  let m;
  while ((m = re.exec(text))) {
    frag.append(text.slice(at, m.index));
    if (m[1]) {
      const n = m[1];
      frag.append(el("a", {
        class: "ref", href: "#beleg-" + n, "data-ref": n, title: t("quoteOpen"),
        onclick: (ev) => { ev.preventDefault(); showQuote(n); },
      }, `[${n}]`));
    } else {
      frag.append(normLink(m[0], "zitat"));
    }
    at = m.index + m[0].length;
  }
  frag.append(text.slice(at));
  return frag;
}

// A quote line of the answer ("- § 38 Abs. 1 BDSG: „…“ [1]") is shown in
// the list of quotes, not as a sentence.
function isQuoteLine(s) { return /^\s*-\s/.test(s); }

function appendSentence(text) {
  const out = $("#antwort");
  if (isQuoteLine(text)) return;
  const w = out.querySelector(".warten");
  const p = el("p", { class: "satz" }, linkedLine(text, []));
  if (w) out.insertBefore(p, w); else out.append(p);
}

let currentEvidence = [];

// [n] clicked: scroll to the quote, mark it, open its norm at the passage.
function showQuote(n) {
  const li = document.getElementById("beleg-" + n);
  const e = currentEvidence[parseInt(n, 10) - 1];
  if (li) {
    li.scrollIntoView({ block: "nearest" });
    li.classList.add("aktiv");
    setTimeout(() => li.classList.remove("aktiv"), 1500);
  }
  if (e) openNorm(e.norm, e.text, e.url);
}

function renderFinal(resp) {
  const a = resp.assessment || {};
  const ans = resp.answer;
  $("#antwort-karte").hidden = false;
  renderBanner(a, ans);
  renderPrimary(a, ans);
  const out = $("#antwort");
  out.classList.remove("stroemt");
  clear(out);
  currentEvidence = (ans && ans.evidence) || [];
  if (ans) {
    if (ans.abstained) {
      const retrieval = ["no_results", "no_binding_source", "not_relevant"].includes(ans.abstain_reason) || noApplicableNorm(a);
      out.append(el("p", { class: "satz enthaltung" }, retrieval ? t("abstainRetrieval") : t("abstainModel")));
    } else {
      for (const line of (ans.text || "").split("\n")) {
        if (!line.trim() || isQuoteLine(line)) continue;
        out.append(el("p", { class: "satz" }, linkedLine(line.trim(), ans.citations)));
      }
      if (ans.extractive) out.append(el("p", { class: "gedimmt klein" }, t("extractive")));
    }
    if (ans.error) out.append(el("p", { class: "fehler" }, t("generationStopped") + ans.error));
  }
  renderEvidence(ans && !ans.abstained ? currentEvidence : []);
  const rm = $("#entfernt");
  clear(rm);
  const removed = (ans && ans.removed_citations) || [];
  removed.forEach((r) => rm.append(el("li", {}, el("s", {}, r.text), " – ", r.reason)));
  $("#entfernt-block").hidden = !removed.length;
  renderDetails(resp);
}

function renderEvidence(ev) {
  const list = $("#belege-liste");
  clear(list);
  ev.forEach((e, i) => {
    const n = i + 1;
    list.append(el("li", { id: "beleg-" + n, value: n },
      el("div", { class: "beleg-kopf" },
        normLink(e.norm, "zitat", e.pinpoint || e.norm, e.text),
        e.url ? officialLink(e.url) : null),
      el("blockquote", { class: "beleg" }, e.text)));
  });
  $("#belege").hidden = !ev.length;
}

// ------------------------------------------------------------ details

function renderDetails(resp) {
  const a = resp.assessment || {};
  $("#marge").textContent = num(a.winner_margin);
  $("#marge-balken").style.width = Math.max(0, Math.min(100, (a.winner_margin || 0) * 200)) + "%";
  $("#regime").textContent = a.cross_regime ? t("yes") : t("no");
  const v = $("#verbunden");
  clear(v);
  const conn = a.connected_norms || [];
  if (conn.length) conn.forEach((n) => v.append(normLink(n)));
  else v.append(el("span", { class: "gedimmt klein" }, t("none")));
  $("#begruendung").textContent = a.score_reasoning || "";
  const ans = resp.answer;
  const z = $("#zitate");
  clear(z);
  const cites = (ans && ans.citations) || [];
  cites.forEach((c) => z.append(normLink(c)));
  $("#zitate-block").hidden = !cites.length;
  renderControls(a);
  renderResults(resp.results || []);
  const parts = Object.entries(resp.timings_ms || {}).map(([k, ms]) => `${label("stufe", k)} ${num(ms, 1)} ms`);
  $("#zeiten").textContent = parts.length ? `${t("timings")}: ` + parts.join(" · ") : "";
  $("#modell").textContent = ans && ans.model ? t("model")(ans.model, ans.generated_tokens) : "";
}

function renderControls(a) {
  const controls = a.controls || [];
  const evidence = a.evidence || [];
  $("#kontrollen-karte").hidden = !controls.length && !evidence.length;
  const k = $("#kontrollen");
  clear(k);
  const byFramework = new Map();
  for (const c of controls) {
    if (!byFramework.has(c.framework_id)) byFramework.set(c.framework_id, []);
    byFramework.get(c.framework_id).push(c);
  }
  for (const [fw, list] of [...byFramework.entries()].sort((x, y) => x[0].localeCompare(y[0]))) {
    k.append(el("div", { class: "rahmenwerk" },
      el("h4", {}, fw),
      el("ul", {}, list.map((c) => el("li", {},
        el("strong", {}, c.control_id), " ", c.control_name, " ",
        el("span", { class: "badge" }, c.coverage === "full" ? t("full") : c.coverage === "partial" ? t("partial") : c.coverage),
        " ", (c.norms || []).map((n) => normLink(n)),
        c.notes ? el("div", { class: "gedimmt klein" }, c.notes) : null)))));
  }
  const n = $("#nachweise");
  clear(n);
  if (evidence.length) n.append(el("div", { class: "label" }, t("evidence")));
  for (const e of evidence) {
    n.append(el("div", { class: "nachweis" },
      el("h4", {}, e.artifact_name, " ", el("span", { class: "badge" }, e.evidence_type)),
      el("div", { class: "klein" }, normLink(e.norm), " ", e.requirement_summary),
      e.description ? el("div", { class: "klein" }, e.description) : null,
      e.retention_period ? el("div", { class: "klein gedimmt" }, `${t("retention")}: ` + e.retention_period) : null,
      (e.auditor_questions || []).length ? el("ul", { class: "klein" }, e.auditor_questions.map((q) => el("li", {}, q))) : null));
  }
}

function breakdown(terms) {
  const box = el("div", { class: "breakdown", role: "img", "aria-label": t("breakdown") });
  const max = Math.max(1e-9, ...terms.map((x) => Math.abs(x.value)));
  for (const x of terms) {
    const bar = el("div", { class: "bar " + (x.value < 0 ? "minus" : "plus") });
    bar.style.width = (Math.abs(x.value) / max) * 50 + "%";
    box.append(
      el("div", { class: "name", title: x.reason }, label("term", x.name)),
      el("div", { class: "spur", title: x.reason }, el("div", { class: "mitte" }), bar),
      el("div", { class: "wert" }, (x.value > 0 ? "+" : "") + num(x.value)));
  }
  return box;
}

function renderResults(results) {
  $("#treffer-karte").hidden = !results.length;
  const list = $("#treffer");
  clear(list);
  for (const r of results) {
    const ref = `${r.norm} ${r.regulation}`;
    list.append(el("li", {},
      el("div", { class: "treffer-kopf" },
        el("div", {}, el("span", { class: "rang" }, `${r.rank}.`),
          normLink(r.chunk_id, "treffer-link", r.citation || ref),
          r.lang !== lang ? el("span", { class: "badge" }, r.lang.toUpperCase()) : null,
          " – ", r.title),
        el("span", { class: "score", title: t("scoreTitle")(num(r.raw_semantic)) }, num(r.score))),
      el("div", {},
        el("span", { class: "badge" }, label("klasse", r.source_class)),
        el("span", { class: "badge" }, label("rolle", r.source_role)),
        el("span", { class: "badge" }, r.jurisdiction),
        el("span", { class: r.status === "superseded" ? "badge warn" : "badge" }, label("status", r.status)),
        r.superseded_by ? el("span", { class: "badge warn" }, t("replaced") + r.superseded_by) : null,
        r.framework ? el("span", { class: "badge" }, `${r.framework.framework_id} ${r.framework.framework_control_id}`) : null),
      r.text ? el("div", { class: "auszug" }, r.text.length > 260 ? r.text.slice(0, 260) + " …" : r.text) : null,
      (r.explanation || []).length ? breakdown(r.explanation) : null));
  }
}

// ------------------------------------------------------------ norm panel

// The unit's own words in an evidence quote („lead-in … unit …“).
function unitWords(quote) {
  const parts = quote.split(" … ").map((p) => p.trim()).filter((p) => p && p !== "…");
  let unit = parts.length ? parts[parts.length - 1] : quote;
  if (unit.endsWith(" …")) unit = unit.slice(0, -2);
  return unit.trim();
}

// The norm text with the quoted unit marked (whitespace-insensitive match of
// its first words); the plain text when the unit is not found.
function markedText(text, quote) {
  const box = el("div", { class: "normtext" });
  const unit = quote ? unitWords(quote) : "";
  const words = unit.split(/\s+/).filter(Boolean).slice(0, 12);
  if (!words.length) { box.append(text); return box; }
  const esc = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(words.map(esc).join("\\s+"));
  const m = re.exec(text);
  if (!m) { box.append(text); return box; }
  // mark to the end of the unit's sentence or item
  let end = m.index + m[0].length;
  const tail = text.slice(end);
  const stop = tail.search(/\n|(?<=[.;:])\s/);
  end += stop < 0 ? tail.length : stop + 1;
  const mark = el("mark", { class: "beleg-im-text" }, text.slice(m.index, end));
  box.append(text.slice(0, m.index), mark, text.slice(end));
  setTimeout(() => mark.scrollIntoView({ block: "center" }), 0);
  return box;
}

async function openNorm(id, quote) {
  const panel = $("#panel");
  const inhalt = $("#panel-inhalt");
  panel.hidden = false;
  $("#panel-titel").textContent = id;
  clear(inhalt);
  inhalt.append(el("p", { class: "gedimmt" }, t("loadingNorm")));
  try {
    const res = await fetch("/v1/norms/" + encodeURIComponent(id), { headers: headers() });
    clear(inhalt);
    if (!res.ok) { inhalt.append(el("p", { class: "fehler" }, await errorText(res))); return; }
    const n = await res.json();
    const m = n.metadata;
    $("#panel-titel").textContent = n.norm_ref;
    inhalt.append(
      el("h3", {}, n.title),
      n.url ? el("p", { class: "amtlich-zeile" }, officialLink(n.url, `${t("official")}: ${n.norm_ref}`)) : null,
      (n.breadcrumb || []).length ? el("div", { class: "gedimmt klein" }, n.breadcrumb.join(" › ")) : null,
      el("dl", { class: "meta" },
        el("dt", {}, t("classL")), el("dd", {}, label("klasse", m.source_class)),
        el("dt", {}, t("role")), el("dd", {}, label("rolle", m.source_role)),
        el("dt", {}, t("jurisdiction")), el("dd", {}, m.jurisdiction),
        el("dt", {}, t("status")), el("dd", {}, label("status", m.status)),
        el("dt", {}, t("valid")), el("dd", {}, `${m.valid_from || "?"} – ${m.valid_to || t("today")}`),
        m.superseded_by ? el("dt", {}, t("replacedBy")) : null, m.superseded_by ? el("dd", {}, m.superseded_by) : null,
        el("dt", {}, t("lang")), el("dd", {}, m.lang)),
      markedText(n.text || "", quote),
      (n.references_out || []).length ? el("div", {}, el("div", { class: "label" }, t("refsOut")), el("div", { class: "chips" }, n.references_out.map((r) => normLink(r)))) : null,
      (n.references_in || []).length ? el("div", {}, el("div", { class: "label" }, t("refsIn")), el("div", { class: "chips" }, n.references_in.map((r) => normLink(r)))) : null,
      (n.language_variants || []).length ? el("div", {}, el("div", { class: "label" }, t("variants")), el("div", { class: "chips" }, n.language_variants.map((v) => normLink(v.id, "chip", `${n.norm_ref} (${v.lang.toUpperCase()})`)))) : null);
  } catch (err) {
    clear(inhalt);
    inhalt.append(el("p", { class: "fehler" }, t("normFailed") + err.message));
  }
}

function closePanel() { $("#panel").hidden = true; }

// ------------------------------------------------------------ start

async function status() {
  const pill = $("#status");
  try {
    const res = await fetch("/readyz");
    const body = await res.json();
    const info = body.info || {};
    if (body.limits && body.limits.max_query_chars) { maxChars = body.limits.max_query_chars; updateCounter(); }
    pill.className = "pill " + (res.ok ? "bereit" : "nicht");
    // data-t: setLang translates it again when the language changes
    pill.dataset.t = res.ok ? "ready" : "loading";
    pill.textContent = t(pill.dataset.t);
    const chunks = typeof info.chunks === "number" ? info.chunks : info.index && info.index.chunks;
    const tip = [];
    if (typeof chunks === "number") tip.push(`${fmtInt(chunks)} ${t("chunks")}`);
    if (typeof info.answer_model === "string") tip.push(`${t("answerModel")}: ${info.answer_model}`);
    pill.title = tip.join(" · ");
    const sel = $("#regelwerk");
    if (res.ok && sel.options.length <= 1) {
      for (const r of info.regulations || []) sel.append(el("option", { value: r }, r));
    }
    if (!res.ok) setTimeout(status, 3000);
  } catch (_) {
    pill.className = "pill fehlt";
    pill.dataset.t = "unreachable";
    pill.textContent = t("unreachable");
  }
}

document.addEventListener("DOMContentLoaded", () => {
  const key = localStorage.getItem("paragraf.apikey");
  if (key) $("#apikey").value = key;
  $("#apikey").addEventListener("change", () => localStorage.setItem("paragraf.apikey", $("#apikey").value.trim()));
  $("#frage-form").addEventListener("submit", (ev) => { ev.preventDefault(); ask("answer"); });
  $("#suchen").addEventListener("click", () => ask("search"));
  $("#frage").addEventListener("keydown", (ev) => {
    // Enter sends, Shift+Enter is a new line (said under the field)
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) { ev.preventDefault(); ask("answer"); }
  });
  $("#frage").addEventListener("input", updateCounter);
  $("#panel-zu").addEventListener("click", closePanel);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closePanel(); });
  setLang(document.documentElement.lang);
  const m = location.hash.match(/^#norm=(.+)$/);
  if (m) openNorm(decodeURIComponent(m[1]));
  status();
});
