// browser_test.js: the pages of `kpath html` in headless Chromium.
//
//   node browser_test.js SITE_DIR PROFILE.json FUNCTION[,FUNCTION...] SHOT_DIR
//
// Loads every page of SITE_DIR from file:// and fails on any console error,
// page error or failed request (the site must work offline).  On each
// FUNCTION's page it selects paths by mouse and keyboard and checks that the
// highlighted lines are exactly the lines the profile decodes for that
// path, iteration by iteration (the badge numbers), and that the row's ids
// and count are a node of the profile's k-IPF.  Saves screenshots of the
// index and of the last FUNCTION's page, with its hottest longest
// multi-iteration path selected, in SHOT_DIR.  playwright-core comes from $KPATH_NODE_MODULES; the browser is
// $KPATH_CHROMIUM (default /usr/bin/chromium, Debian's).
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(process.env.KPATH_NODE_MODULES, 'playwright-core'));

const [siteDir, profilePath, fnNames, shotDir] = process.argv.slice(2);
let failures = 0;
function check(cond, what) {
  if (cond) {
    console.log('ok   ' + what);
  } else {
    console.log('FAIL ' + what);
    failures++;
  }
}
const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const fmt = (s) => '{' + [...s].sort((x, y) => x - y).join(' ') + '}';

const profile = JSON.parse(fs.readFileSync(profilePath, 'utf8'));
let fn, decoded; // the function under test and its decoded paths (id -> lines)
function useFunction(name) {
  fn = profile.functions.find((f) => f.name === name);
  if (!fn) {
    console.log(`FAIL ${name} is not in ${profilePath}`);
    process.exit(1);
  }
  // every line of every block the path traverses: its spans [first, last]
  check(fn.paths.length > 0 && fn.paths.every((p) => Array.isArray(p.spans) && p.spans.length === p.lines.length),
    `${name}: every decoded path has spans`);
  decoded = new Map(fn.paths.map((p) => [String(p.id),
    p.spans.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i))]));
}

// The count of the k-IPF node reached by ids, or undefined.
function kipfCount(ids) {
  let level = fn.kipf, node;
  for (const id of ids) {
    node = level.find((n) => String(n.id) === id);
    if (!node) return undefined;
    level = node.children;
  }
  return node.count;
}

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
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) errors.push('network request: ' + r.url());
  });
  const url = (name) => 'file://' + path.resolve(siteDir, name);

  // Every page loads cleanly.
  const pages = fs.readdirSync(siteDir).filter((f) => f.endsWith('.html')).sort();
  check(pages.includes('index.html'), 'index.html exists');
  for (const p of pages) {
    errors.length = 0;
    await page.goto(url(p));
    await page.waitForLoadState('load');
    check(errors.length === 0, `${p} loads without errors ${errors.join('; ')}`);
  }

  // The index links every function of the profile, hottest first.
  await page.goto(url('index.html'));
  const links = await page.$$eval('table.funcs tbody tr', (trs) =>
    trs.map((tr) => ({ name: tr.querySelector('a').textContent, href: tr.querySelector('a').getAttribute('href'),
      flow: Number(tr.cells[3].textContent.replace(/\D/g, '')) })));
  check(links.length === profile.functions.length, `index lists ${links.length} of ${profile.functions.length} functions`);
  check(links.every((l, i) => i === 0 || links[i - 1].flow >= l.flow), 'index is sorted by flow');
  await page.screenshot({ path: path.join(shotDir, 'html-index.png'), fullPage: true });
  const names = fnNames.split(',');
  for (const name of names) {
    await page.goto(url('index.html'));
    await testFunction(page, links, name, errors, name === names[names.length - 1]);
  }
  await browser.close();
}

async function testFunction(page, links, fnName, errors, shoot) {
  useFunction(fnName);
  const link = links.find((l) => l.name === fnName);
  check(!!link, `index links ${fnName}`);

  errors.length = 0;
  await page.click(`table.funcs a[href="${link.href}"]`);
  await page.waitForLoadState('load');
  check((await page.textContent('h1 code')) === fnName, `the link opens ${fnName}'s page`);

  const highlighted = async () =>
    new Set(await page.$$eval('table.src tr.hl', (trs) => trs.map((t) => Number(t.dataset.line))));
  // line -> the iteration numbers on its badges
  const badges = async () => new Map(await page.$$eval('table.src tr.hl', (trs) =>
    trs.map((t) => [Number(t.dataset.line), [...t.querySelectorAll('td.badges .badge')].map((b) => Number(b.textContent))])));
  const rowInfo = (sel) => page.$eval(sel, (tr) => ({ ids: tr.dataset.ids.split(' '), count: tr.cells[1].textContent.replace(/\D/g, '') }));

  check((await highlighted()).size === 0, 'nothing is highlighted before a path is selected');

  // Checks that the selected row's lines (iteration `only`, or all) are
  // exactly the highlighted ones, with one badge per iteration.
  async function checkSelection(sel, only) {
    const { ids, count } = await rowInfo(sel);
    check(kipfCount(ids) === Number(count), `${sel}: ids ${ids.join(' ')} count ${count} is a k-IPF node of the profile`);
    const want = new Set(), wantBadges = new Map();
    ids.forEach((id, i) => {
      if (only && only !== i + 1) return;
      for (const l of decoded.get(id)) {
        want.add(l);
        if (!wantBadges.has(l)) wantBadges.set(l, []);
        if (!wantBadges.get(l).includes(i + 1)) wantBadges.get(l).push(i + 1);
      }
    });
    const got = await highlighted();
    check(sameSet(got, want), `${sel}${only ? ' iteration ' + only : ''}: highlighted ${fmt(got)} = decoded ${fmt(want)}`);
    const gotBadges = await badges();
    const badgeOk = [...wantBadges].every(([l, its]) => JSON.stringify(gotBadges.get(l)) === JSON.stringify(its));
    check(badgeOk, `${sel}: each line carries the badges of the iterations through it`);
    check((await page.getAttribute(sel, 'aria-selected')) === 'true', `${sel} is marked selected`);
    return got;
  }

  // Mouse: the hottest multi-iteration path, then one with other lines.
  const multi = await page.$$eval('#kp-table tr.path:not(.prefix)', (trs) => trs.map((t) => '#' + t.id));
  check(multi.length > 0, `${fnName} has multi-iteration paths`);
  await page.click(multi[0]);
  const first = await checkSelection(multi[0]);
  let other = null;
  for (const sel of [...multi.slice(1), ...await page.$$eval('#bl-table tr.path', (t) => t.map((x) => '#' + x.id))]) {
    const { ids } = await rowInfo(sel);
    const lines = new Set(ids.flatMap((id) => decoded.get(id)));
    if (!sameSet(lines, first)) { other = sel; break; }
  }
  check(other !== null, 'some path has other lines than the first');
  await page.click(other);
  const second = await checkSelection(other);
  check(!sameSet(first, second), `selecting ${other} changes the highlighted lines`);

  // Keyboard: focus, Enter, ArrowDown, ArrowRight (one iteration), Escape.
  await page.focus(multi[0]);
  await page.keyboard.press('Enter');
  await checkSelection(multi[0]);
  if (multi.length > 1) {
    await page.keyboard.press('ArrowDown');
    check(await page.$eval(multi[1], (tr) => tr === document.activeElement), 'ArrowDown moves to the next path');
    await checkSelection(multi[1]);
    await page.keyboard.press('ArrowRight');
    await checkSelection(multi[1], 1);
    await page.keyboard.press('ArrowRight');
    await checkSelection(multi[1], 2);
    await page.click('#iterbar button.iter.all');
    await checkSelection(multi[1]);
  }
  await page.focus(multi[0]);
  await page.keyboard.press('Escape');
  check((await highlighted()).size === 0, 'Escape clears the selection');

  // The screenshot: the deepest of the hottest multi-iteration paths.
  const deepest = (await page.$$eval('#kp-table tr.path:not(.prefix)', (trs) =>
    trs.map((t) => ({ id: '#' + t.id, n: t.dataset.ids.split(' ').length }))))
    .reduce((a, b) => (b.n > a.n ? b : a));
  await page.click(deepest.id);
  await checkSelection(deepest.id);
  for (let it = 1; it <= deepest.n; it++) {
    await page.click(`#iterbar button.iter.it${(it - 1) % 6 + 1}:text-is("${it}")`);
    await checkSelection(deepest.id, it);
  }
  await page.click('#iterbar button.iter.all');
  await checkSelection(deepest.id);
  if (shoot) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shotDir, 'html-function.png'), fullPage: false });
  }
  check(errors.length === 0, `${fnName}: no console or page errors while selecting paths ${errors.join('; ')}`);
}

main().then(() => {
  console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}, (e) => {
  console.log('FAIL ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
