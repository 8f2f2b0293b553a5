// browser_wpp_test.js: the hot-subpaths page of `kpath html --wpp`.
//
//   node browser_wpp_test.js SITE_DIR PROFILE.json HOT.json SHOT_DIR
//
// HOT.json is `kpath wpp hot --json` of the same WPP with the same lengths
// and minimum cost.  Checks, from the DOM of the pages loaded from file://:
//   - wpp.html shows exactly HOT.json's subpaths, in order: cost,
//     frequency, and each path's function, ID and decoded lines;
//   - the index links to wpp.html;
//   - each path's ID links to its function's page, where the page's script
//     selects the Ball-Larus row of that ID (a row of the profile);
//   - every function page links to exactly the subpaths that run through
//     the function, and each such link reaches that subpath;
//   - no console error, page error or request that leaves file://.
// Saves SHOT_DIR/html-wpp.png.
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(process.env.KPATH_NODE_MODULES, 'playwright-core'));

const [siteDir, profilePath, hotPath, shotDir] = process.argv.slice(2);
let failures = 0;
function check(cond, what) {
  console.log((cond ? 'ok   ' : 'FAIL ') + what);
  if (!cond) failures++;
}
const profile = JSON.parse(fs.readFileSync(profilePath, 'utf8'));
const hot = JSON.parse(fs.readFileSync(hotPath, 'utf8'));

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.KPATH_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    headless: true,
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  page.on('pageerror', (e) => errors.push('page error: ' + e.message));
  page.on('requestfailed', (r) => errors.push('request failed: ' + r.url()));
  page.on('request', (r) => { if (!r.url().startsWith('file:')) errors.push('network request: ' + r.url()); });
  const url = (name) => 'file://' + path.resolve(siteDir, name);

  await page.goto(url('index.html'));
  check((await page.getAttribute('#wpp-link', 'href')) === 'wpp.html', 'the index links to wpp.html');
  await page.click('#wpp-link');
  await page.waitForLoadState('load');
  check(page.url().endsWith('/wpp.html'), 'the link opens wpp.html');

  // The page's subpaths against kpath wpp hot --json.
  const shown = await page.$$eval('section.hot', (ss) => ss.map((s) => ({
    id: s.id, thread: Number(s.dataset.thread), cost: Number(s.dataset.cost), freq: Number(s.dataset.freq),
    paths: [...s.querySelectorAll('tr.hotpath')].map((tr) => ({
      func: tr.dataset.func, id: Number(tr.dataset.id),
      lines: tr.dataset.lines ? tr.dataset.lines.split(' ').map(Number) : [],
      bl: tr.querySelector('a.blrow') ? tr.querySelector('a.blrow').getAttribute('href') : null,
    })),
  })));
  const want = hot.threads.flatMap((t) => t.hot.map((h) => ({ thread: t.thread, cost: h.cost, freq: h.frequency,
    paths: h.paths.map((p) => ({ func: p.function, id: p.id, lines: p.lines })) })));
  check(want.length > 3, `kpath wpp hot finds ${want.length} hot subpaths (the test compares something)`);
  check(shown.length === want.length, `wpp.html shows ${shown.length} of ${want.length} hot subpaths`);
  want.forEach((w, i) => {
    const s = shown[i];
    const same = s && s.thread === w.thread && s.cost === w.cost && s.freq === w.freq &&
      JSON.stringify(s.paths.map(({ func, id, lines }) => ({ func, id, lines }))) === JSON.stringify(w.paths);
    check(same, `subpath ${i + 1}: cost ${w.cost}, frequency ${w.freq}, ${w.paths.map((p) => p.func + ':' + p.id).join(' ')}`);
  });
  check(errors.length === 0, `wpp.html loads without errors ${errors.join('; ')}`);
  await page.screenshot({ path: path.join(shotDir, 'html-wpp.png'), fullPage: false });

  // Each path's link selects the row of its ID on its function's page.
  const rows = shown.flatMap((s) => s.paths.filter((p) => p.bl));
  check(rows.length === shown.reduce((n, s) => n + s.paths.length, 0), 'every path links to its Ball-Larus row (--top 0)');
  const seen = new Set();
  for (const p of rows) {
    if (seen.has(p.bl)) continue;
    seen.add(p.bl);
    await page.goto('about:blank'); // a new document: a change of hash alone runs no script
    await page.goto(url(p.bl));
    await page.waitForLoadState('load');
    const sel = await page.$eval('tr.path[aria-selected="true"]', (tr) => ({ ids: tr.dataset.ids, id: tr.id }))
      .catch(() => null);
    const fn = profile.functions.find((f) => f.name === p.func);
    check(sel && sel.ids === String(p.id) && sel.id === p.bl.split('#')[1] && fn && fn.paths.some((q) => q.id === p.id),
      `${p.bl} selects ${p.func}'s Ball-Larus path ${p.id}`);
  }

  // Every function page links to exactly the subpaths through it.
  await page.goto(url('index.html'));
  const pages = new Map(await page.$$eval('table.funcs tbody a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')])));
  for (const f of profile.functions) {
    check(pages.has(f.name), `the index links ${f.name}`);
    await page.goto(url(pages.get(f.name)));
    const links = await page.$$eval('a.hotlink', (as) => as.map((a) => a.getAttribute('href').split('#')[1]));
    const through = shown.filter((s) => s.paths.some((p) => p.func === f.name)).map((s) => s.id);
    check(JSON.stringify(links) === JSON.stringify(through),
      `${f.name}: links to the ${through.length} subpaths through it`);
    if (links.length) {
      await page.click('a.hotlink');
      await page.waitForLoadState('load');
      check(page.url().endsWith('wpp.html#' + links[0]) && (await page.$(`section#${links[0]}`)) !== null,
        `${f.name}: its first link reaches subpath ${links[0]}`);
    }
  }
  check(errors.length === 0, `no console or page errors ${errors.join('; ')}`);
  await browser.close();
}

main().then(() => {
  console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}, (e) => {
  console.log('FAIL ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
