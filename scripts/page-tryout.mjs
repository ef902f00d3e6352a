// Ask questions through the web page in headless Chromium, as a compliance
// officer would, and record what the page shows (issue 40, real model):
//
//   node scripts/page-tryout.mjs URL OUT_DIR [--max-tokens N] QUESTION...
//
// For each question: seconds to the results (primary norm shown), to the
// first gated sentence, to the final answer; the review banner, the primary
// norm (and runner-up), the answer sentences, the quotes, what the citation
// check removed; a desktop screenshot of the final state. Writes
// OUT_DIR/tryout.json and OUT_DIR/q{n}.png. `--max-tokens` caps the answer
// model's budget (the page itself sends none).
import { chromium } from "playwright-core";
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
let maxTokens = null;
const mt = args.indexOf("--max-tokens");
if (mt >= 0) { maxTokens = parseInt(args[mt + 1], 10); args.splice(mt, 2); }
const [url, dirArg, ...questions] = args;
if (!url || !dirArg || !questions.length) {
  console.error("usage: node page-tryout.mjs URL OUT_DIR [--max-tokens N] QUESTION...");
  process.exit(2);
}
const dir = resolve(dirArg);
await mkdir(dir, { recursive: true });
const userDataDir = await mkdtemp(join(tmpdir(), "paragraf-tryout-"));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1280, height: 900 },
  locale: "de-DE",
  timeout: 60_000,
});
const page = context.pages()[0] || (await context.newPage());
page.setDefaultTimeout(600_000);
const problems = [];
page.on("pageerror", (e) => problems.push("pageerror: " + e.message));
page.on("console", (m) => { if (m.type() === "error") problems.push("console: " + m.text()); });
if (maxTokens) {
  await page.route("**/v1/answer", async (route) => {
    const body = JSON.parse(route.request().postData() || "{}");
    body.max_tokens = maxTokens;
    await route.continue({ postData: JSON.stringify(body) });
  });
}
await page.goto(url, { waitUntil: "load" });
await page.waitForSelector("#status.bereit", { timeout: 600_000 });
const out = [];
for (const [i, q] of questions.entries()) {
  await page.fill("#frage", q);
  await page.focus("#frage");
  const t0 = Date.now();
  await page.keyboard.press("Enter");
  const secs = () => (Date.now() - t0) / 1000;
  await page.waitForFunction(() => { const k = document.querySelector("#antwort-karte"); return k && !k.hidden; });
  const tResults = secs();
  const first = page.waitForFunction(() => document.querySelector("#antwort .satz")).then(() => secs());
  await page.waitForFunction(() => !document.querySelector("#antwort.stroemt") && !document.querySelector("#fragen").disabled);
  const tFinal = secs();
  const tFirst = await Promise.race([first, Promise.resolve(null)]);
  const text = (sel) => page.$eval(sel, (e) => (e.hidden ? "" : e.innerText.trim())).catch(() => "");
  const all = (sel) => page.$$eval(sel, (es) => es.map((e) => e.innerText.trim()));
  const rec = {
    question: q,
    seconds_to_results: tResults,
    seconds_to_first_sentence: tFirst,
    seconds_to_final: tFinal,
    banner: await text("#pruefung"),
    primary: await text("#primaernorm"),
    runner_up: await text("#zweitnorm"),
    sentences: await all("#antwort .satz"),
    quotes: await all("#belege-liste li .beleg-kopf"),
    removed: await all("#entfernt li"),
    details_reasoning: await page.$eval("#begruendung", (e) => e.textContent.trim()),
    model: await page.$eval("#modell", (e) => e.textContent.trim()),
    page_lang: await page.getAttribute("html", "lang"),
  };
  await page.screenshot({ path: join(dir, `q${i + 1}.png`) });
  out.push(rec);
  console.log(JSON.stringify(rec, null, 1));
}
await writeFile(join(dir, "tryout.json"), JSON.stringify({ url, max_tokens: maxTokens, problems, answers: out }, null, 1));
console.log("problems:", problems);
await context.close();
