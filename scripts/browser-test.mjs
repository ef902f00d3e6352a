// Headless-Chromium test of the Paragraf web page.
//
//   node scripts/browser-test.mjs URL SCREENSHOT_PATH
//
// Opens URL, asks the DPO question, checks that the answer streams in (partial
// text while streaming), that the final answer has citation links, that the
// assessment block and the score-breakdown chart render, that a citation opens
// the norm text, and that the page logged no errors (CSP included). Saves a
// full-page screenshot and prints its path. Exit code 1 on any failure.
//
// Chromium: env CHROMIUM or /usr/bin/chromium (Debian package), with a fresh
// --user-data-dir and no network side channels.
import { chromium } from "playwright-core";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const QUESTION = "Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?";
const [url, shotArg] = process.argv.slice(2);
if (!url || !shotArg) {
  console.error("usage: node browser-test.mjs URL SCREENSHOT_PATH");
  process.exit(2);
}
const shot = resolve(shotArg);

function check(cond, what) {
  if (!cond) throw new Error("assertion failed: " + what);
  console.log("ok   " + what);
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

  await page.goto(url, { waitUntil: "load" });
  check((await page.title()).includes("Paragraf"), "page title");
  await page.waitForSelector("#status.bereit");
  check(true, "readiness pill shows ready");
  const regs = await page.$$eval("#regelwerk option", (os) => os.map((o) => o.value).filter(Boolean));
  check(regs.length >= 1, `regulation filter lists the index's regulations: ${regs.join(", ")}`);
  check((await page.$$("#sprache option")).length === 3, "language filter offered");

  await page.fill("#frage", QUESTION);
  await page.selectOption("#topk", "8"); // enough results to include penalised ones
  await page.click("#fragen");

  // Results first: the hit list and the assessment are on the page while the
  // answer is still being generated and gated.
  await page.waitForFunction(() => {
    const t = document.querySelector("#treffer-karte");
    const a = document.querySelector("#antwort");
    return t && !t.hidden && a && a.classList.contains("stroemt");
  });
  check(true, "results visible before the answer starts");
  const partial = (await page.textContent("#antwort")) || "";
  check(!partial.includes("Art. 83 DSGVO"), "no ungated text while the answer is pending");

  // Final: cursor gone, citations linked.
  await page.waitForFunction(() => {
    const a = document.querySelector("#antwort");
    return a && !a.classList.contains("stroemt") && a.querySelector("a.zitat");
  });
  const finalText = await page.textContent("#antwort");
  check(finalText.length > 10, `gated answer shown (${finalText.length} chars)`);
  const cites = await page.$$eval("#antwort a.zitat", (as) => as.map((a) => a.dataset.norm));
  check(cites.includes("Art. 37 DSGVO"), `citation links in the answer: ${cites.join(", ")}`);
  const removed = await page.$$eval("#entfernt li", (lis) => lis.map((l) => l.textContent));
  check(removed.some((t) => t.includes("Art. 83 DSGVO")), "gated-out citation listed as removed");

  // Assessment block.
  check(await page.isVisible("#bewertung"), "assessment block visible");
  check((await page.textContent("#primaernorm")).includes("Art. 37 DSGVO"), "primary norm is Art. 37 DSGVO");
  check((await page.textContent("#marge")).match(/\d/) !== null, "winner margin shown");
  check(await page.isVisible("#pruefung"), "human-review block shown");
  const connected = await page.$$eval("#verbunden a.chip", (as) => as.length);
  check(connected >= 1, `connected norms: ${connected}`);

  // Breakdown chart: bars with real width.
  const bars = await page.$$eval(".breakdown .bar", (bs) => bs.map((b) => ({ w: b.getBoundingClientRect().width, plus: b.classList.contains("plus") })));
  check(bars.length >= 4, `breakdown bars rendered: ${bars.length}`);
  check(bars.some((b) => b.plus && b.w > 5), "positive bar has a visible width");
  check(bars.some((b) => !b.plus), "penalty bar rendered");

  // Controls grouped by framework, evidence items.
  const frameworks = await page.$$eval("#kontrollen .rahmenwerk h3", (hs) => hs.map((h) => h.textContent));
  check(frameworks.length >= 2, `controls grouped by framework: ${frameworks.join(", ")}`);
  check((await page.$$("#nachweise .nachweis")).length >= 1, "evidence item shown");

  // A citation opens the norm text.
  await page.click("#antwort a.zitat >> nth=0");
  await page.waitForSelector("#panel:not([hidden]) .normtext");
  const normText = await page.textContent("#panel .normtext");
  check(normText.includes("Datenschutzbeauftragten"), "citation opens the norm text in the side panel");
  const panelTitle = await page.textContent("#panel-titel");

  // An evidence unit opens its norm with the quoted words highlighted.
  await page.click("#panel-zu");
  await page.click(".belege a.zitat >> nth=0");
  await page.waitForSelector("#panel:not([hidden]) mark.beleg-im-text");
  const marked = (await page.textContent("#panel mark.beleg-im-text")) || "";
  check(marked.length > 10, `quoted unit highlighted in its norm (${marked.slice(0, 40)}…)`);

  await page.screenshot({ path: shot, fullPage: true });
  check(problems.length === 0, "no page errors" + (problems.length ? ": " + problems.join(" | ") : ""));
  console.log(`panel: ${panelTitle}`);
  console.log(`screenshot: ${shot}`);
} catch (err) {
  failed = true;
  console.error("FAIL " + (err && err.message ? err.message : err));
  if (context) {
    try {
      const p = context.pages()[0];
      if (p) { await p.screenshot({ path: shot, fullPage: true }); console.error(`screenshot (failure): ${shot}`); }
    } catch (_) { /* keep the first error */ }
  }
} finally {
  if (context) await context.close();
  await rm(userDataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
