// Paragraf web page: asks /v1/answer (SSE over fetch), renders the answer as
// it streams, then the assessment, controls, evidence and the score breakdown
// of every result; citations open the norm text from /v1/norms/{id}.
"use strict";

const $ = (sel) => document.querySelector(sel);

const KLASSE = {
  binding_law: "verbindliches Recht", recital: "Erwägungsgrund", official_guidance: "behördliche Leitlinie",
  control_standard: "Kontrollstandard", mapping: "Mapping", unknown: "unbekannt",
};
const ROLLE = {
  obligation: "Pflicht", definition: "Definition", scope: "Anwendungsbereich", interpretation: "Auslegung",
  sanction: "Sanktion", operational_requirement: "operative Anforderung", procedural_requirement: "Verfahrensanforderung",
  control_standard: "Kontrollstandard", implementation_guidance: "Umsetzungshinweis",
};
const STATUS = { in_force: "in Kraft", superseded: "außer Kraft" };
// score terms in the reader's words (the API keeps the seed's constant names)
const TERM = {
  rawSemantic: "Textähnlichkeit", authorityCoef: "Autorität der Quelle", jurisdictionGain: "passende Jurisdiktion",
  foreignPenalty: "Fremdrecht", unknownPenalty: "unklassifizierte Quelle", domainMatchGain: "passendes Rechtsgebiet",
  offDomainPenalty: "fachfremd", scopePenalty: "außerhalb des Anwendungsbereichs", topicGain: "Thema der Frage",
  citationGain: "oft zitierte Norm", supersededPenalty: "abgelöste Fassung", intentLiftGain: "Auslegungsfrage",
  controlPoolGain: "Umsetzungsfrage", controlRoleBonus: "Kontrollrolle", ensureControlDiversity: "Kontrollvielfalt",
};
const STUFE = {
  analyze: "Analyse", embed: "Einbettung", dense: "Vektorsuche", lexical: "Volltext", fusion: "Fusion",
  rank: "Ranking", assess: "Bewertung", generate: "Generierung", total: "gesamt",
};

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
function num(x, d = 3) { return typeof x === "number" ? x.toLocaleString("de-DE", { minimumFractionDigits: d, maximumFractionDigits: d }) : "–"; }

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
    return (e.message || res.statusText) + (e.field ? ` (Feld: ${e.field})` : "");
  } catch (_) {
    return `HTTP ${res.status}`;
  }
}

function showError(msg) {
  const f = $("#fehler");
  f.textContent = msg;
  f.hidden = !msg;
}

function normLink(ref, cls) {
  return el("a", {
    class: cls || "chip", href: "#norm=" + encodeURIComponent(ref), "data-norm": ref, title: "Normtext öffnen",
    onclick: (ev) => { ev.preventDefault(); openNorm(ref); },
  }, ref);
}

// ------------------------------------------------------------ asking

let busy = false;

async function ask(mode) {
  const query = $("#frage").value.trim();
  if (!query || busy) return;
  busy = true;
  setBusy(true);
  showError("");
  for (const id of ["#bewertung", "#antwort-karte", "#kontrollen-karte", "#treffer-karte"]) $(id).hidden = true;
  const topK = parseInt($("#topk").value, 10);
  try {
    const filters = currentFilters();
    if (mode === "search") {
      const res = await fetch("/v1/search", { method: "POST", headers: headers(), body: JSON.stringify({ query, top_k: topK, explain: true, filters }) });
      if (!res.ok) { showError(await errorText(res)); return; }
      render(await res.json());
    } else {
      await streamAnswer(query, topK, filters);
    }
  } catch (err) {
    showError("Verbindung fehlgeschlagen: " + err.message);
  } finally {
    busy = false;
    setBusy(false);
  }
}

function setBusy(on) {
  $("#fragen").disabled = on;
  $("#suchen").disabled = on;
  $("#laeuft").hidden = !on;
}

// The regulation and language chosen above the question (null: none).
function currentFilters() {
  const reg = $("#regelwerk").value;
  const lang = $("#sprache").value;
  if (!reg && !lang) return null;
  return { regulations: reg ? [reg] : [], lang: lang || null };
}

async function streamAnswer(query, topK, filters) {
  const res = await fetch("/v1/answer", {
    method: "POST", headers: headers({ Accept: "text/event-stream" }), body: JSON.stringify({ query, top_k: topK, filters }),
  });
  if (!res.ok) {
    let msg = await errorText(res);
    const retry = res.headers.get("Retry-After");
    if (retry) msg += ` – bitte in ${retry} s erneut versuchen`;
    showError(msg);
    return;
  }
  const out = $("#antwort");
  clear(out);
  out.classList.add("stroemt");
  $("#antwort-karte").hidden = false;
  $("#zitate-block").hidden = true;
  $("#entfernt-block").hidden = true;
  $("#modell").textContent = "";

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
        // search results at once; the answer follows
        renderAssessment(payload.assessment);
        renderControls(payload.assessment);
        renderResults(payload.results || [], payload.timings_ms || {});
        out.append(el("span", { class: "gedimmt warten" }, "Antwort wird erzeugt und geprüft …"));
      } else if (event === "sentence") {
        out.querySelectorAll(".warten").forEach((n) => n.remove());
        out.append(document.createTextNode(payload.text + " "));
      } else if (event === "final") {
        render(payload);
        done = true;
      } else if (event === "error") {
        const e = payload.error || {};
        showError("Antwort abgebrochen: " + (e.message || "Fehler") + (e.field ? ` (Feld: ${e.field})` : ""));
        done = true;
      }
    }
  }
  out.classList.remove("stroemt");
}

// ------------------------------------------------------------ rendering

function render(resp) {
  renderAssessment(resp.assessment);
  if (resp.answer) renderAnswer(resp.answer);
  renderControls(resp.assessment);
  renderResults(resp.results || [], resp.timings_ms || {});
}

function renderAssessment(a) {
  $("#bewertung").hidden = false;
  const p = $("#primaernorm");
  clear(p);
  p.append(a.primary_norm ? normLink(a.primary_norm, "primaer-link") : "keine");
  $("#primaerregelwerk").textContent = a.primary_regulation ? "Regelwerk: " + a.primary_regulation : "";
  $("#marge").textContent = num(a.winner_margin);
  $("#marge-balken").style.width = Math.max(0, Math.min(100, (a.winner_margin || 0) * 200)) + "%";
  const regime = $("#regime");
  clear(regime);
  regime.append(el("span", { class: a.cross_regime ? "badge ja" : "badge" }, a.cross_regime ? "Ja" : "Nein"));
  const pr = $("#pruefung");
  clear(pr);
  pr.className = "pruefung " + (a.human_review_flag ? "ja" : "nein");
  if (a.human_review_flag) {
    pr.append("⚠ Menschliche Prüfung erforderlich",
      el("ul", {}, (a.human_review_reasons || []).map((r) => el("li", {}, r))));
  } else {
    pr.append("✓ Keine menschliche Prüfung angezeigt");
  }
  const v = $("#verbunden");
  clear(v);
  const conn = a.connected_norms || [];
  if (conn.length) conn.forEach((n) => v.append(normLink(n)));
  else v.append(el("span", { class: "gedimmt klein" }, "keine"));
  $("#begruendung").textContent = a.score_reasoning || "";
}

function renderAnswer(ans) {
  $("#antwort-karte").hidden = false;
  const out = $("#antwort");
  out.classList.remove("stroemt");
  clear(out);
  // Link every gated citation where it occurs in the gated text.
  const cites = [...(ans.citations || [])].sort((x, y) => y.length - x.length);
  let rest = ans.text || "";
  while (rest.length) {
    let best = -1, hit = null;
    for (const c of cites) {
      const i = rest.indexOf(c);
      if (i >= 0 && (best < 0 || i < best)) { best = i; hit = c; }
    }
    if (best < 0) { out.append(rest); break; }
    out.append(rest.slice(0, best), normLink(hit, "zitat"));
    rest = rest.slice(best + hit.length);
  }
  if (ans.review_warning) out.prepend(el("p", { class: "pruefung ja" }, "⚠ " + ans.review_warning));
  if (ans.abstained) out.append(el("p", { class: "gedimmt" }, "(Enthaltung: die Treffer tragen keine belastbare Antwort.)"));
  if (ans.extractive) out.append(el("p", { class: "gedimmt" }, "(Wortlaut der Belegstellen, ohne Umformulierung durch das Modell.)"));
  const ev = ans.evidence || [];
  if (ev.length) {
    out.append(el("div", { class: "belege" },
      el("div", { class: "label" }, "Belegstellen"),
      el("ol", {}, ev.map((e) => el("li", {},
        el("a", {
          class: "zitat", href: "#norm=" + encodeURIComponent(e.norm), title: "Normtext mit dieser Stelle öffnen",
          onclick: (evt) => { evt.preventDefault(); openNorm(e.norm, e.text); },
        }, e.norm), " ",
        e.url ? el("a", { href: e.url, target: "_blank", rel: "noopener", class: "klein" }, e.pinpoint + " ↗") : el("span", { class: "klein" }, e.pinpoint),
        el("blockquote", { class: "beleg" }, el("mark", {}, e.text)))))));
  }
  if (ans.error) out.append(el("p", { class: "fehler" }, "Generierung unterbrochen: " + ans.error));
  $("#modell").textContent = ans.model ? `· ${ans.model}, ${ans.generated_tokens} Tokens` : "";
  const z = $("#zitate");
  clear(z);
  (ans.citations || []).forEach((c) => z.append(normLink(c)));
  $("#zitate-block").hidden = !(ans.citations || []).length;
  const rm = $("#entfernt");
  clear(rm);
  (ans.removed_citations || []).forEach((r) => rm.append(el("li", {}, el("s", {}, r.text), " – ", r.reason)));
  $("#entfernt-block").hidden = !(ans.removed_citations || []).length;
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
      el("h3", {}, fw),
      el("ul", {}, list.map((c) => el("li", {},
        el("strong", {}, c.control_id), " ", c.control_name, " ",
        el("span", { class: "badge" }, c.coverage === "full" ? "vollständig" : c.coverage === "partial" ? "teilweise" : c.coverage),
        " ", (c.norms || []).map((n) => normLink(n)),
        c.notes ? el("div", { class: "gedimmt klein" }, c.notes) : null)))));
  }
  const n = $("#nachweise");
  clear(n);
  if (evidence.length) n.append(el("div", { class: "label" }, "Nachweise"));
  for (const e of evidence) {
    n.append(el("div", { class: "nachweis" },
      el("h4", {}, e.artifact_name, " ", el("span", { class: "badge" }, e.evidence_type)),
      el("div", { class: "klein" }, normLink(e.norm), " ", e.requirement_summary),
      e.description ? el("div", { class: "klein" }, e.description) : null,
      e.retention_period ? el("div", { class: "klein gedimmt" }, "Aufbewahrung: " + e.retention_period) : null,
      (e.auditor_questions || []).length ? el("ul", { class: "klein" }, e.auditor_questions.map((q) => el("li", {}, q))) : null));
  }
}

function breakdown(terms) {
  const box = el("div", { class: "breakdown", role: "img", "aria-label": "Score-Aufschlüsselung" });
  const max = Math.max(1e-9, ...terms.map((t) => Math.abs(t.value)));
  for (const t of terms) {
    const bar = el("div", { class: "bar " + (t.value < 0 ? "minus" : "plus") });
    bar.style.width = (Math.abs(t.value) / max) * 50 + "%";
    box.append(
      el("div", { class: "name", title: `${t.name}: ${t.reason}` }, TERM[t.name] || t.name),
      el("div", { class: "spur", title: `${t.reason} (Konstante ${num(t.constant)})` }, el("div", { class: "mitte" }), bar),
      el("div", { class: "wert" }, (t.value > 0 ? "+" : "") + num(t.value)));
  }
  return box;
}

function renderResults(results, timings) {
  $("#treffer-karte").hidden = !results.length;
  const list = $("#treffer");
  clear(list);
  for (const r of results) {
    const ref = `${r.norm} ${r.regulation}`;
    list.append(el("li", {},
      el("div", { class: "treffer-kopf" },
        el("div", {}, el("span", { class: "rang" }, `#${r.rank}`), normLink(r.chunk_id, "treffer-link"), " ",
          el("span", { class: "gedimmt" }, r.citation || ref), " – ", r.title),
        el("span", { class: "score", title: "Score nach Rerank (roh: " + num(r.raw_semantic) + ")" }, num(r.score))),
      el("div", {},
        el("span", { class: "badge" }, KLASSE[r.source_class] || r.source_class),
        el("span", { class: "badge" }, ROLLE[r.source_role] || r.source_role),
        el("span", { class: "badge" }, r.jurisdiction),
        el("span", { class: r.status === "superseded" ? "badge warn" : "badge" }, STATUS[r.status] || r.status),
        r.superseded_by ? el("span", { class: "badge warn" }, "ersetzt durch " + r.superseded_by) : null,
        r.framework ? el("span", { class: "badge" }, `${r.framework.framework_id} ${r.framework.framework_control_id}`) : null),
      r.text ? el("div", { class: "auszug" }, r.text.length > 260 ? r.text.slice(0, 260) + " …" : r.text) : null,
      (r.explanation || []).length ? breakdown(r.explanation) : null));
  }
  const parts = Object.entries(timings).map(([k, v]) => `${STUFE[k] || k} ${num(v, 1)} ms`);
  $("#zeiten").textContent = parts.length ? "Zeiten: " + parts.join(" · ") : "";
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
  inhalt.append(el("p", { class: "gedimmt" }, "Lade Normtext …"));
  try {
    const res = await fetch("/v1/norms/" + encodeURIComponent(id), { headers: headers() });
    clear(inhalt);
    if (!res.ok) { inhalt.append(el("p", { class: "fehler" }, await errorText(res))); return; }
    const n = await res.json();
    const m = n.metadata;
    $("#panel-titel").textContent = n.norm_ref;
    inhalt.append(
      el("h3", {}, n.title),
      (n.breadcrumb || []).length ? el("div", { class: "gedimmt klein" }, n.breadcrumb.join(" › ")) : null,
      el("dl", { class: "meta" },
        el("dt", {}, "Quellenklasse"), el("dd", {}, KLASSE[m.source_class] || m.source_class),
        el("dt", {}, "Rolle"), el("dd", {}, ROLLE[m.source_role] || m.source_role),
        el("dt", {}, "Jurisdiktion"), el("dd", {}, m.jurisdiction),
        el("dt", {}, "Status"), el("dd", {}, STATUS[m.status] || m.status),
        el("dt", {}, "Gültig"), el("dd", {}, `${m.valid_from || "?"} – ${m.valid_to || "heute"}`),
        m.superseded_by ? el("dt", {}, "Ersetzt durch") : null, m.superseded_by ? el("dd", {}, m.superseded_by) : null,
        el("dt", {}, "Sprache"), el("dd", {}, m.lang)),
      markedText(n.text || "", quote),
      (n.references_out || []).length ? el("div", {}, el("div", { class: "label" }, "Verweist auf"), el("div", { class: "chips" }, n.references_out.map((r) => normLink(r)))) : null,
      (n.references_in || []).length ? el("div", {}, el("div", { class: "label" }, "Zitiert von"), el("div", { class: "chips" }, n.references_in.map((r) => normLink(r)))) : null,
      (n.language_variants || []).length ? el("div", {}, el("div", { class: "label" }, "Andere Sprachfassungen"), el("div", { class: "chips" }, n.language_variants.map((v) => normLink(v.id)))) : null,
      el("div", { class: "gedimmt klein" }, `Abschnitte: ${(n.chunks || []).join(", ")}`));
  } catch (err) {
    clear(inhalt);
    inhalt.append(el("p", { class: "fehler" }, "Normtext konnte nicht geladen werden: " + err.message));
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
    pill.className = "pill " + (res.ok ? "bereit" : "nicht");
    const idx = typeof info.index === "string" ? info.index : (info.index && (info.index.embedder || info.index.name)) || info.embedder || "Index";
    pill.textContent = res.ok ? `bereit · ${idx}` : "lädt Modelle …";
    const sel = $("#regelwerk");
    if (res.ok && sel.options.length <= 1) {
      for (const r of info.regulations || []) sel.append(el("option", { value: r }, r));
    }
    pill.title = JSON.stringify(info);
    if (!res.ok) setTimeout(status, 3000);
  } catch (_) {
    pill.className = "pill fehlt";
    pill.textContent = "Server nicht erreichbar";
  }
}

document.addEventListener("DOMContentLoaded", () => {
  const key = localStorage.getItem("paragraf.apikey");
  if (key) $("#apikey").value = key;
  $("#apikey").addEventListener("change", () => localStorage.setItem("paragraf.apikey", $("#apikey").value.trim()));
  $("#frage-form").addEventListener("submit", (ev) => { ev.preventDefault(); ask("answer"); });
  $("#suchen").addEventListener("click", () => ask("search"));
  $("#frage").addEventListener("keydown", (ev) => { if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) ask("answer"); });
  $("#panel-zu").addEventListener("click", closePanel);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closePanel(); });
  const m = location.hash.match(/^#norm=(.+)$/);
  if (m) openNorm(decodeURIComponent(m[1]));
  status();
});
