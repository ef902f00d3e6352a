// Headless-Chromium test of the Paragraf web page (issues 7 and 40).
//
//   node scripts/browser-test.mjs URL SCREENSHOT_DIR
//
// Asks as a compliance officer would, at 1280x900 (desktop) and 390x844
// (phone), and checks: the answer first (its first sentence and the primary
// norm above the fold, the details collapsed), every [n] a link to its quote
// that opens the norm panel, the official link of a gesetze-im-internet.de
// norm ends in its § page, an abstention shows no primary norm, a near tie
// names both norms, review reasons in plain words, the page in the
// question's language, Enter submits, the counter and the messages for blank
// and too long input, a compact header and readable bars on the phone, no
// page errors (CSP included). Saves a screenshot of each state (empty,
// results, answering, final, abstained) for each viewport as
// SCREENSHOT_DIR/{desktop,phone}-{state}.png and prints their paths.
// Exit code 1 on any failure.
//
// Chromium: env CHROMIUM or /usr/bin/chromium (Debian package), with a fresh
// --user-data-dir and no network side channels.
import { chromium } from "playwright-core";
import { mkdtemp, mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// our own phrasings (golden questions never appear verbatim in tests)
const DPO = "Sind wir verpflichtet, einen Datenschutzbeauftragten zu benennen?";
const DPO_EN = "Does our company have to appoint a data protection officer?";
// weak hits (a word of the DPO norms), nothing that answers it
const NOTHING = "Wie hoch ist die Hundesteuer für zwei Dackel, die in unserer Gemeinde bei Personen leben?";

const [url, dirArg] = process.argv.slice(2);
if (!url || !dirArg) {
  console.error("usage: node browser-test.mjs URL SCREENSHOT_DIR");
  process.exit(2);
}
const dir = resolve(dirArg);
await mkdir(dir, { recursive: true });
const shots = [];

function check(cond, what) {
  if (!cond) throw new Error("assertion failed: " + what);
  console.log("ok   " + what);
}

async function shot(page, name) {
  const path = join(dir, name + ".png");
  await page.screenshot({ path, fullPage: false });
  shots.push(path);
}

// Bounding box of the first element matching `sel` (page coordinates at
// scroll 0), or null.
async function box(page, sel) {
  return page.evaluate((s) => {
    const e = document.querySelector(s);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, height: r.height, width: r.width };
  }, sel);
}

// Text of the answer outside the [n] links: no "[n]" may be left there.
async function unlinkedMarkers(page) {
  return page.evaluate(() => {
    const a = document.querySelector("#antwort").cloneNode(true);
    a.querySelectorAll("a.ref").forEach((x) => x.remove());
    return (a.textContent.match(/\[\d+\]/g) || []).length;
  });
}

async function submitWithEnter(page, question) {
  await page.fill("#frage", question);
  await page.focus("#frage");
  await page.keyboard.press("Enter");
}

// Ask `question` and walk through the states; screenshots named `prefix-…`.
async function answerStates(page, prefix, question, fold) {
  await submitWithEnter(page, question);
  // results: the primary norm and the banner are there, the answer is on its way
  await page.waitForFunction(() => {
    const k = document.querySelector("#antwort-karte");
    return k && !k.hidden && document.querySelector("#antwort .warten") && !document.querySelector("#antwort .satz");
  });
  check(true, `${prefix}: results shown while the answer is written`);
  check(/\d+\ss/.test(await page.textContent("#antwort .warten")), `${prefix}: elapsed seconds shown while it works`);
  const primary = await box(page, "#primaernorm");
  check(primary && primary.bottom <= fold, `${prefix}: primary norm above the fold (${primary && Math.round(primary.bottom)} ≤ ${fold})`);
  await shot(page, `${prefix}-results`);
  // answering: a gated sentence is there, the model still writes
  await page.waitForFunction(() => document.querySelector("#antwort .satz") && document.querySelector("#antwort .warten"));
  check(true, `${prefix}: first sentence streamed before the answer is complete`);
  const partial = (await page.textContent("#antwort")) || "";
  check(!partial.includes("Art. 83 DSGVO"), `${prefix}: no ungated citation while the answer streams`);
  await shot(page, `${prefix}-answering`);
  // final
  await page.waitForFunction(() => !document.querySelector("#antwort.stroemt") && !document.querySelector("#fragen").disabled);
  await shot(page, `${prefix}-final`);
}

const userDataDir = await mkdtemp(join(tmpdir(), "paragraf-chromium-"));
let context;
let failed = false;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    viewport: { width: 1280, height: 900 },
    locale: "de-DE",
    timeout: 60_000,
  });
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(30_000);
  const problems = [];
  page.on("pageerror", (e) => problems.push("pageerror: " + e.message));
  page.on("console", (m) => { if (m.type() === "error") problems.push("console: " + m.text()); });
  page.on("requestfailed", (r) => problems.push("request failed: " + r.url()));

  // ---------------------------------------------------------------- desktop
  await page.goto(url, { waitUntil: "load" });
  check((await page.title()).includes("Paragraf"), "page title");
  await page.waitForSelector("#status.bereit");
  check((await page.textContent("#status")).trim() === "bereit", "status pill says ready, without raw JSON");
  check(!((await page.getAttribute("#status", "title")) || "").includes("{"), "status tooltip without raw JSON");
  check((await page.textContent("#eingabe-hinweis")).includes("Umschalt+Enter"), "the page says Enter sends, Shift+Enter a new line");
  check(/^0 \/ 2\.000$/.test((await page.textContent("#zeichen")).trim()), `counter from /readyz: ${await page.textContent("#zeichen")}`);
  const regs = await page.$$eval("#regelwerk option", (os) => os.map((o) => o.value).filter(Boolean));
  check(regs.length >= 1, `regulation filter lists the index's regulations: ${regs.join(", ")}`);
  await shot(page, "desktop-empty");

  // blank and too long input: a clear message, no request
  await submitWithEnter(page, "   \n  ");
  check(await page.isVisible("#eingabe-fehler"), "blank input: message shown");
  check((await page.textContent("#eingabe-fehler")).includes("Bitte eine Frage eingeben"), "blank input: says what to do");
  check(await page.isHidden("#antwort-karte"), "blank input: nothing asked");
  await page.fill("#frage", "Datenschutz ".repeat(200));
  check((await page.getAttribute("#zeichen", "class")).includes("zu-lang"), "counter marks input over the limit");
  check((await page.textContent("#eingabe-fehler")).includes("höchstens 2.000"), `too long: ${await page.textContent("#eingabe-fehler")}`);
  await page.focus("#frage");
  await page.keyboard.press("Enter");
  check(await page.isHidden("#antwort-karte"), "too long input: not sent, not cut");
  check([...(await page.inputValue("#frage"))].length === 2400, "too long input: kept whole for the user to shorten");
  await page.fill("#frage", "");
  // Shift+Enter is a new line, not a submit
  await page.focus("#frage");
  await page.keyboard.type("Zeile eins");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("Zeile zwei");
  check((await page.inputValue("#frage")).includes("\n"), "Shift+Enter adds a line");
  check(await page.isHidden("#antwort-karte"), "Shift+Enter does not submit");

  await answerStates(page, "desktop", DPO, 900);
  // the answer first: its first sentence and the primary norm above the fold
  const first = await box(page, "#antwort .satz");
  check(first && first.top < 900 && first.bottom <= 900, `answer's first sentence above the fold (${first && Math.round(first.bottom)} ≤ 900)`);
  const primary = await box(page, "#primaernorm");
  check(primary && primary.bottom <= 900, "primary norm above the fold");
  check((await page.textContent("#primaernorm")).includes("Art. 37 DSGVO"), "primary norm is Art. 37 DSGVO");
  // flagged: the banner in plain words
  check(await page.isVisible("#pruefung.ja"), "the DPO question is flagged for review");
  const banner = await page.innerText("#pruefung");
  check(!/assessReviewMargin|Cross-Regime|abstainSemanticFloor|uneindeutig|\b[a-z]+[A-Z][A-Za-z]*\b/.test(banner), `review reasons in plain words: ${banner}`);
  check(/fast gleichauf \(Art\. 37 DSGVO und [^)]+\)/.test(banner), `the near tie's reason names both norms: ${banner}`);
  // a near tie names both candidates
  check(await page.isVisible("#zweitnorm"), "near tie: the runner-up is shown next to the primary norm");
  check((await page.$$("#zweitnorm a.primaer-link")).length === 1, "near tie: the runner-up is a link");
  // everything else is collapsed
  check(!(await page.$eval("#details", (d) => d.open)), "details collapsed");
  check(!(await page.isVisible(".breakdown .bar")), "score bars only under Details");
  // every [n] is a link to its quote
  const refs = await page.$$eval("#antwort a.ref", (as) => as.map((a) => a.getAttribute("href")));
  check(refs.length >= 1 && refs.every((h) => /^#beleg-\d+$/.test(h)), `[n] links to quotes: ${refs.join(" ")}`);
  check((await unlinkedMarkers(page)) === 0, "every [n] of the answer is a link");
  check((await page.$$("#belege-liste li")).length >= 1, "the quotes with their pinpoints");
  // a [n] opens the norm panel at the quoted passage
  await page.click("#antwort a.ref >> nth=0");
  await page.waitForSelector("#panel:not([hidden]) mark.beleg-im-text");
  check((await page.textContent("#panel .normtext")).includes("Datenschutzbeauftragten"), "[1] opens the norm with the quoted passage marked");
  await page.click("#panel-zu");
  // a German law's official link ends in its § page
  await page.click('#antwort a.zitat[data-norm="§ 38 BDSG"]');
  await page.waitForSelector("#panel:not([hidden]) a.amtlich");
  const official = await page.getAttribute("#panel a.amtlich", "href");
  check(/^https:\/\/www\.gesetze-im-internet\.de\/bdsg_2018\/__38\.html$/.test(official), `official link of § 38 BDSG is its § page: ${official}`);
  await page.click("#panel-zu");
  const removed = await page.$$eval("#entfernt li", (lis) => lis.map((l) => l.textContent));
  check(removed.some((x) => x.includes("Art. 83 DSGVO")), "gated-out citation listed as removed");
  // details: figures, hits with norm references (no internal ids), bars
  await page.click("#details > summary");
  check((await page.textContent("#marge")).match(/\d/) !== null, "winner margin under Details");
  const hitTexts = await page.$$eval("#treffer a.treffer-link", (as) => as.map((a) => a.textContent));
  check(hitTexts.length >= 1 && hitTexts.every((x) => !/\/|@/.test(x)), `hits show norm references: ${hitTexts.join(" | ")}`);
  const bars = await page.$$eval(".breakdown .bar", (bs) => bs.map((b) => ({ w: b.getBoundingClientRect().width, plus: b.classList.contains("plus") })));
  check(bars.some((b) => b.plus && b.w > 5), "positive bar has a visible width");
  const frameworks = await page.$$eval("#kontrollen .rahmenwerk h4", (hs) => hs.map((h) => h.textContent));
  check(frameworks.length >= 1, `controls under Details: ${frameworks.join(", ")}`);
  await page.click("#details > summary");

  // English question: the page follows its language
  await answerStates(page, "desktop-en", DPO_EN, 900);
  check((await page.getAttribute("html", "lang")) === "en", "an English question switches the page to English");
  check((await page.textContent("#eingabe-hinweis")).includes("Shift+Enter"), "hint in English");
  check((await page.textContent("#status")).trim() === "ready", "status pill in English");
  const enBanner = await page.innerText("#pruefung");
  check(!/[äöüß]|Prüfung|Bitte/.test(enBanner), `banner and reasons in English: ${enBanner}`);
  check(!/\b[a-z]+[A-Z][A-Za-z]*\b/.test(enBanner), `English banner in plain words: ${enBanner}`);
  const enFirst = await box(page, "#antwort .satz");
  check(enFirst && enFirst.bottom <= 900 && (await box(page, "#primaernorm")).bottom <= 900, "English answer and primary norm above the fold");

  // abstention: no primary norm
  await submitWithEnter(page, NOTHING);
  await page.waitForFunction(() => !document.querySelector("#antwort.stroemt") && !document.querySelector("#fragen").disabled && document.querySelector("#antwort .satz"));
  check((await page.textContent("#primaernorm")).includes("keine einschlägige Norm im Korpus"), "abstention: no applicable norm in the corpus");
  check((await page.$$("#primaernorm a")).length === 0, "abstention: no primary norm link");
  check(await page.isHidden("#belege"), "abstention: no quotes");
  const nothingBanner = await page.innerText("#pruefung");
  check(!/gleichauf|Rechtsgebiete/.test(nothingBanner), `abstention: no tie or regimes among irrelevant results: ${nothingBanner}`);
  await shot(page, "desktop-abstained");

  // ---------------------------------------------------------------- phone
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#status.bereit");
  const head = await box(page, ".kopf");
  check(head.height <= 56, `compact header on a phone (${Math.round(head.height)} px)`);
  await shot(page, "phone-empty");
  await answerStates(page, "phone", DPO, 844);
  const answerTop = await box(page, "#antwort");
  check(answerTop.top < 844, `phone: the answer starts within the first screen (${Math.round(answerTop.top)} < 844)`);
  const fSentence = await box(page, "#antwort .satz");
  check(fSentence.top < 844, `phone: the first sentence starts within the first screen (${Math.round(fSentence.top)})`);
  check((await unlinkedMarkers(page)) === 0, "phone: every [n] is a link");
  await page.click("#details > summary");
  const cut = await page.$$eval(".breakdown .name", (ns) => ns.filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent));
  check(cut.length === 0, `phone: bar labels readable (cut: ${cut.join(", ")})`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `phone: no sideways scrolling (${overflow} px)`);
  await page.click("#details > summary");
  await submitWithEnter(page, NOTHING);
  await page.waitForFunction(() => !document.querySelector("#antwort.stroemt") && !document.querySelector("#fragen").disabled && document.querySelector("#antwort .satz"));
  check((await page.textContent("#primaernorm")).includes("keine einschlägige Norm"), "phone: abstention shows no primary norm");
  await shot(page, "phone-abstained");

  check(problems.length === 0, "no page errors" + (problems.length ? ": " + problems.join(" | ") : ""));
  for (const s of shots) console.log(`screenshot: ${s}`);
} catch (err) {
  failed = true;
  console.error("FAIL " + (err && err.message ? err.message : err));
  if (context) {
    try {
      const p = context.pages()[0];
      if (p) { const path = join(dir, "failure.png"); await p.screenshot({ path, fullPage: true }); console.error(`screenshot (failure): ${path}`); }
    } catch (_) { /* keep the first error */ }
  }
} finally {
  if (context) await context.close();
  await rm(userDataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
